//! Any bytes as a client's whole stdio input: the server frames them into
//! lines, reads each as JSON-RPC (requests, notifications, responses to its
//! own questions, batches) and dispatches it to the fuzzing toolbox. It must
//! return, write only whole lines, each a JSON-RPC 2.0 message, and never
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let output = codeagent_fuzz::serve(input.to_vec());
    codeagent_fuzz::check_output(&output);
});
