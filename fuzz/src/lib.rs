//! What the fuzz targets share: a small server ([`server`]) driven over
//! in-memory stdio ([`serve`]), 2026-07-28 request helpers, the checks of
//! what comes back ([`check_output`]), and the HTML safety check of the
//! display card (`codeagent_test_support::html::assert_safe_html`).
//!
//! Every check panics on failure: libFuzzer records a panic as a crash.

mod tools;

use std::sync::OnceLock;
use std::time::Duration;

use codeagent::Server;
use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY, StateKeys};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

pub use tools::toolbox;

/// The secret the fuzzing server signs `requestState` with, so that a target
/// can seal states of its own ([`seal`]).
pub const STATE_SECRET: &[u8; 32] = b"codeagent-fuzz-state-key-0123456";

/// The longest message the fuzzing server reads: small, so that the framing's
/// "too long" path is reachable with small inputs.
pub const MESSAGE_LIMIT: usize = 4096;

/// How long one input may keep the server busy before it counts as a hang.
pub const SERVE_LIMIT: Duration = Duration::from_secs(10);

/// The server every target drives: [`toolbox`], the state keys of
/// [`STATE_SECRET`], a short ask timeout (a legacy question nobody answers
/// gives up at once), a small message limit, and a small store of results
/// over budget (it is shared by every input of a run).
pub fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(|| {
        let keys = StateKeys::new([STATE_SECRET]).unwrap_or_else(|error| panic!("the fuzzing state key: {error}"));
        Server::new(toolbox())
            .with_name("codeagent-fuzz")
            .with_version("0.0.0")
            .with_instructions("Fuzzing.")
            .with_state_keys(keys)
            .with_ask_timeout(Duration::from_millis(1))
            .with_message_limit(MESSAGE_LIMIT)
            .with_result_store_limit(256 * 1024)
    })
}

/// A current-thread runtime, built once per process.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap_or_else(|error| panic!("a tokio runtime: {error}"))
    })
}

/// Serves `input` as a client's whole stdio input and returns everything the
/// server wrote. Panics when serving fails or takes longer than [`SERVE_LIMIT`].
pub fn serve(input: Vec<u8>) -> Vec<u8> {
    runtime().block_on(async move {
        let (writer, mut output) = tokio::io::duplex(64 * 1024);
        let served = server().serve(std::io::Cursor::new(input), writer);
        let mut written = Vec::new();
        let (served, read) =
            tokio::time::timeout(SERVE_LIMIT, async { tokio::join!(served, output.read_to_end(&mut written)) })
                .await
                .unwrap_or_else(|_| panic!("the server was still serving after {SERVE_LIMIT:?}"));
        served.unwrap_or_else(|error| panic!("serving failed: {error}"));
        read.unwrap_or_else(|error| panic!("reading the output failed: {error}"));
        written
    })
}

/// Checks the server's output: whole lines, each one JSON-RPC 2.0 message
/// (a response with an `id` and exactly one of `result` and `error`, a
/// request or a notification) or a batch response; returns the messages,
/// batch responses flattened.
pub fn check_output(output: &[u8]) -> Vec<Value> {
    if output.is_empty() {
        return Vec::new();
    }
    assert_eq!(output.last(), Some(&b'\n'), "the output does not end with a newline");
    let mut messages = Vec::new();
    for line in output[..output.len() - 1].split(|byte| *byte == b'\n') {
        let message: Value = serde_json::from_slice(line)
            .unwrap_or_else(|error| panic!("an output line is not JSON ({error}): {}", String::from_utf8_lossy(line)));
        check_message(&message);
        match message {
            Value::Array(batch) => messages.extend(batch),
            message => messages.push(message),
        }
    }
    messages
}

/// Checks one message the server sent, or the array answering a batch
/// (2025-03-26): responses only, at least one.
fn check_message(message: &Value) {
    if let Some(batch) = message.as_array() {
        assert!(!batch.is_empty(), "an empty batch response");
        for response in batch {
            assert!(response.get("method").is_none(), "a request in a batch response: {message}");
            check_message(response);
        }
        return;
    }
    let object = message.as_object().unwrap_or_else(|| panic!("a message that is not an object: {message}"));
    assert_eq!(object.get("jsonrpc"), Some(&json!("2.0")), "no jsonrpc 2.0 in {message}");
    if let Some(method) = object.get("method") {
        assert!(method.is_string(), "a method that is not a string: {message}");
        assert!(!object.contains_key("result") && !object.contains_key("error"), "a request with a result: {message}");
        return;
    }
    assert!(object.contains_key("id"), "a response without an id: {message}");
    match (object.get("result"), object.get("error")) {
        (Some(result), None) => assert!(result.is_object(), "a result that is not an object: {message}"),
        (None, Some(error)) => {
            assert!(error["code"].is_i64(), "an error without an integer code: {message}");
            assert!(error["message"].is_string(), "an error without a message: {message}");
        }
        _ => panic!("a response needs exactly one of result and error: {message}"),
    }
}

/// The responses among `messages` whose id is `id`.
pub fn responses_to(messages: &[Value], id: Value) -> impl Iterator<Item = &Value> {
    messages.iter().filter(move |message| message.get("method").is_none() && message.get("id") == Some(&id))
}

/// A JSON-RPC request line.
pub fn request(id: impl Into<Value>, method: &str, params: Value) -> Vec<u8> {
    let mut line = serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id.into(), "method": method, "params": params}))
        .unwrap_or_default();
    line.push(b'\n');
    line
}

/// The `_meta` of a 2026-07-28 request from a client declaring every
/// capability a tool may ask for.
pub fn modern_meta() -> Value {
    json!({
        PROTOCOL_VERSION_KEY: "2026-07-28",
        CLIENT_CAPABILITIES_KEY: {"elicitation": {}, "sampling": {}, "roots": {"listChanged": true}},
        CLIENT_INFO_KEY: {"name": "codeagent-fuzz", "version": "0.0.0"},
    })
}

/// The `initialize` request of a legacy client of `version` declaring every
/// capability a tool may ask for.
pub fn initialize(version: &str) -> Vec<u8> {
    let params = json!({
        "protocolVersion": version,
        "capabilities": {"elicitation": {}, "sampling": {}, "roots": {"listChanged": true}},
        "clientInfo": {"name": "codeagent-fuzz", "version": "0.0.0"},
    });
    let mut bytes = request(0, "initialize", params);
    bytes.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    bytes
}

/// The protocol versions a client may speak, oldest first.
pub const VERSIONS: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

/// `payload` sealed as the fuzzing server seals a `requestState`:
/// `KEYID.PAYLOAD.MAC` in URL-safe base64, under [`STATE_SECRET`].
pub fn seal(payload: &[u8]) -> String {
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let id: String = hmac_sha256::Hash::hash(STATE_SECRET)[..4].iter().map(|byte| format!("{byte:02x}")).collect();
    let payload = URL_SAFE_NO_PAD.encode(payload);
    let mac = URL_SAFE_NO_PAD.encode(hmac_sha256::HMAC::mac(payload.as_bytes(), STATE_SECRET));
    format!("{id}.{payload}.{mac}")
}

/// The JSON payload of a `requestState` the server sealed, when it is one.
pub fn unseal(token: &str) -> Option<Value> {
    use base64::Engine as _;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let payload = token.split('.').nth(1)?;
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).ok()?).ok()
}
