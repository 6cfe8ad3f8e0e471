//! Any text as the `requestState` of a 2026-07-28 `tools/call` retry, and
//! any JSON inside a state the server would accept (sealed with the server's
//! key and bound to the call): the server opens it, verifies it, restores the
//! answers and checkpoint values it carries and runs the tool again.
//!
//! - a forged or foreign state (modes 0 and 1: raw text, or any bytes sealed
//!   as a payload) is refused with an invalid-params error, or, if it happens
//!   to be a valid state, accepted; nothing else;
//! - a valid state with fuzzed answers, checkpoint values and
//!   `inputResponses` (mode 2) gives a result, `complete` or
//!   `input_required` with a new state bound to the same call, unless
//!   `inputResponses` is not an object (invalid params).
//!
//! Input: a mode byte, then the text (or the state's JSON and the
//! `inputResponses` JSON, separated by a NUL byte).
#![no_main]

use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use codeagent_fuzz::{check_output, modern_meta, request, responses_to, seal, serve, unseal};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const INVALID_PARAMS: i64 = -32602;
const TOOLS: [&str; 2] = ["confirm", "model_and_roots"];

/// The `tools/call` of `tool` with the given retry fields.
fn call(tool: &str, state: Option<Value>, responses: Option<Value>) -> Vec<u8> {
    let mut params = json!({"name": tool, "arguments": {}, "_meta": modern_meta()});
    if let Some(state) = state {
        params["requestState"] = state;
    }
    if let Some(responses) = responses {
        params["inputResponses"] = responses;
    }
    request(1, "tools/call", params)
}

/// The one response to the call.
fn answer(input: Vec<u8>) -> Value {
    let messages = check_output(&serve(input));
    let answers: Vec<&Value> = responses_to(&messages, json!(1)).collect();
    assert_eq!(answers.len(), 1, "the call was answered {} times: {messages:?}", answers.len());
    answers[0].clone()
}

/// What a state for `tool`'s call is bound to, from the state of a first round.
fn binding(tool: &str) -> &'static str {
    static BINDINGS: [OnceLock<String>; 2] = [OnceLock::new(), OnceLock::new()];
    let index = TOOLS.iter().position(|name| *name == tool).unwrap_or_default();
    BINDINGS[index].get_or_init(|| {
        let first = answer(call(tool, None, None));
        let token = first["result"]["requestState"].as_str().unwrap_or_else(|| panic!("no requestState: {first}"));
        let state = unseal(token).unwrap_or_else(|| panic!("not a state: {token}"));
        state["bind"].as_str().unwrap_or_else(|| panic!("no binding: {state}")).to_owned()
    })
}

fn is_invalid_params(response: &Value) -> bool {
    response["error"]["code"] == json!(INVALID_PARAMS)
}

fuzz_target!(|input: &[u8]| {
    let Some((&mode, rest)) = input.split_first() else { return };
    let tool = TOOLS[usize::from(mode >> 4) % TOOLS.len()];
    match mode % 3 {
        0 | 1 => {
            let token = if mode % 3 == 0 { String::from_utf8_lossy(rest).into_owned() } else { seal(rest) };
            let response = answer(call(tool, Some(Value::String(token.clone())), None));
            if let Some(error) = response.get("error") {
                assert!(is_invalid_params(&response), "{token:?} gave {error}");
                assert!(error["message"].as_str().unwrap_or_default().contains("requestState"), "{error}");
            }
        }
        _ => {
            let text = String::from_utf8_lossy(rest);
            let (state_text, responses_text) = text.split_once('\0').unwrap_or((&text, ""));
            let Ok(Value::Object(mut state)) = serde_json::from_str::<Value>(state_text) else { return };
            let responses = serde_json::from_str::<Value>(responses_text).ok();
            let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_secs());
            state.insert("v".into(), json!(1));
            state.insert("exp".into(), json!(now + 600));
            state.insert("bind".into(), json!(binding(tool)));
            let token = seal(&serde_json::to_vec(&state).unwrap_or_default());
            let well_formed = ["answers", "kept"].iter().all(|key| state.get(*key).is_none_or(Value::is_object));
            let response = answer(call(tool, Some(Value::String(token)), responses.clone()));
            let responses_ok = responses.as_ref().is_none_or(|responses| responses.is_object() || responses.is_null());
            if !well_formed || !responses_ok {
                assert!(is_invalid_params(&response), "a malformed retry gave {response}");
                return;
            }
            let result = response.get("result").unwrap_or_else(|| panic!("a valid state was refused: {response}"));
            match result["resultType"].as_str() {
                Some("complete") => {}
                Some("input_required") => {
                    let token = result["requestState"].as_str().unwrap_or_else(|| panic!("no new state: {result}"));
                    let next = unseal(token).unwrap_or_else(|| panic!("not a state: {token}"));
                    assert_eq!(next["bind"], json!(binding(tool)), "the new state is bound elsewhere: {next}");
                }
                other => panic!("a result of type {other:?}: {result}"),
            }
        }
    }
});
