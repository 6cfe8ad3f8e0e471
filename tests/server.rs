//! The MCP server end to end, over in-memory pipes standing in for stdio.
//!
//! Every test drives `Server::serve` through a small [`Client`] that writes
//! JSON lines and reads the server's lines with a timeout (a hang fails the
//! test instead of hanging CI). Every message the server writes is checked
//! against the official schema of the era it belongs to (`codeagent_test_support`):
//!
//! - a response to a legacy request against the negotiated version (or
//!   2025-11-25, which the server assumes before `initialize`): the JSON-RPC
//!   envelope, then the result definition (`InitializeResult`,
//!   `ListToolsResult`, `CallToolResult`, `EmptyResult`) including the
//!   "every key is defined by that version" check;
//! - a response to a modern request (one whose `_meta` names a protocol
//!   version) against 2026-07-28, with the specific error definitions
//!   (`ParseError`, `InvalidParamsError`, `UnsupportedProtocolVersionError`…);
//! - notifications against the version of the last request sent.
//!
//! One deliberate tolerance: an error answering a message whose id could not
//! be read carries `"id": null` (JSON-RPC 2.0, §5). No MCP schema admits a
//! null id (2024-11-05 to 2025-06-18 require a string or integer id;
//! 2025-11-25 and 2026-07-28 make it optional, i.e. omitted). Such an error is
//! validated as if the id were absent (or, where an id is required, any id),
//! and the tests assert the null explicitly.

use codeagent_test_support as support;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use codeagent::server::{
    CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, PROTOCOL_VERSION_KEY, SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY,
};
use codeagent::{Context, Json, ProtocolVersion, Server, ToolError, Toolbox};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::task::JoinHandle;

const V2024: ProtocolVersion = ProtocolVersion::V2024_11_05;
const V2025_03: ProtocolVersion = ProtocolVersion::V2025_03_26;
const V2025_06: ProtocolVersion = ProtocolVersion::V2025_06_18;
const V2025_11: ProtocolVersion = ProtocolVersion::V2025_11_25;
const V2026: ProtocolVersion = ProtocolVersion::V2026_07_28;
const LEGACY: [ProtocolVersion; 4] = [V2024, V2025_03, V2025_06, V2025_11];

/// How long a test waits for a message it expects.
const WAIT: Duration = Duration::from_secs(10);
/// How long a test listens to make sure nothing (more) arrives.
const QUIET: Duration = Duration::from_millis(400);

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const UNSUPPORTED_VERSION: i64 = -32022;

// ---------------------------------------------------------------------------
// Tools
// ---------------------------------------------------------------------------

/// Add two integers.
#[codeagent::tool(read_only, idempotent)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Greet someone.
#[codeagent::tool(title = "Greeting", read_only)]
fn greet(
    /// Who to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// A sum.
#[derive(Serialize, JsonSchema)]
struct Sum {
    /// The total.
    total: i64,
}

/// Sum integers, as structured output.
#[codeagent::tool(title = "Sum", read_only)]
fn sum(
    /// The integers.
    values: Vec<i64>,
) -> Json<Sum> {
    Json(Sum { total: values.iter().sum() })
}

/// Sleep `ms` milliseconds on the async runtime, then answer `n`.
#[codeagent::tool]
async fn nap(
    /// How long to sleep.
    ms: u64,
    /// What to answer.
    n: u64,
) -> u64 {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    n
}

/// Block the thread for `ms` milliseconds (a slow sync tool).
#[codeagent::tool]
fn block(
    /// How long to block.
    ms: u64,
) -> String {
    std::thread::sleep(Duration::from_millis(ms));
    format!("blocked {ms} ms")
}

/// What [`wait`] saw, per key: "cancelled" when it observed the client's
/// cancellation (from `ctx.cancelled()` or, when its future was dropped, from
/// `ctx.is_cancelled()`), "dropped" when dropped without cancellation,
/// "finished" when it ran to the end.
fn observations() -> &'static Mutex<HashMap<String, Vec<&'static str>>> {
    static OBSERVED: OnceLock<Mutex<HashMap<String, Vec<&'static str>>>> = OnceLock::new();
    OBSERVED.get_or_init(Mutex::default)
}

fn observe(key: &str, what: &'static str) {
    observations().lock().unwrap().entry(key.to_owned()).or_default().push(what);
}

fn observed(key: &str) -> Vec<&'static str> {
    observations().lock().unwrap().get(key).cloned().unwrap_or_default()
}

struct WaitGuard {
    key: String,
    ctx: Context,
    finished: bool,
}

impl Drop for WaitGuard {
    fn drop(&mut self) {
        if !self.finished {
            observe(&self.key, if self.ctx.is_cancelled() { "cancelled" } else { "dropped" });
        }
    }
}

/// Report progress 1 (so the client knows it started), then wait `ms`
/// milliseconds or until cancelled, recording what happened under `key`.
#[codeagent::tool]
async fn wait(
    /// Where to record what happened.
    key: String,
    /// How long to wait.
    ms: u64,
    ctx: &Context,
) -> Result<String, ToolError> {
    let mut guard = WaitGuard { key: key.clone(), ctx: ctx.clone(), finished: false };
    ctx.progress(1.0, None, Some("started"));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(ms)) => {
            guard.finished = true;
            observe(&key, "finished");
            Ok(format!("waited {ms} ms"))
        }
        () = ctx.cancelled() => {
            guard.finished = true;
            observe(&key, "cancelled");
            Err(ToolError::new("cancelled"))
        }
    }
}

/// Log one message at each of debug, info, warning and error.
#[codeagent::tool]
async fn chatty(ctx: &Context) -> String {
    ctx.debug("a debug message");
    ctx.info("an info message");
    ctx.warning("a warning message");
    ctx.error("an error message");
    "logged".to_owned()
}

/// Report progress 1..=count, then a stale value that must be dropped.
#[codeagent::tool]
async fn steps(
    /// How many steps.
    count: u32,
    ctx: &Context,
) -> String {
    for step in 1..=count {
        ctx.progress(f64::from(step), Some(f64::from(count)), Some(&format!("step {step} of {count}")));
        tokio::task::yield_now().await;
    }
    ctx.progress(1.0, Some(f64::from(count)), Some("going backwards"));
    format!("{count} steps")
}

/// Panic, synchronously.
#[codeagent::tool]
fn boom_sync() -> String {
    panic!("sync kaboom")
}

/// Panic, in an async tool.
#[codeagent::tool]
async fn boom_async() -> String {
    panic!("async kaboom")
}

/// A tool added while serving.
#[codeagent::tool]
fn late() -> String {
    "late".to_owned()
}

/// Another tool added while serving.
#[codeagent::tool]
fn later() -> String {
    "later".to_owned()
}

fn toolbox() -> Toolbox {
    Toolbox::new()
        .tool(add)
        .tool(greet)
        .tool(sum)
        .tool(nap)
        .tool(block)
        .tool(wait)
        .tool(chatty)
        .tool(steps)
        .tool(boom_sync)
        .tool(boom_async)
}

// ---------------------------------------------------------------------------
// Schema checks
// ---------------------------------------------------------------------------

/// Schema validation only (no key check): for JSON-RPC envelopes, whose
/// `result` is the open `Result` definition.
#[track_caller]
fn assert_schema(version: ProtocolVersion, name: &str, value: &Value) {
    if let Err(problems) = support::schema::validate(version.as_str(), name, value) {
        panic!("{version} {name}:\n  {}\nvalue: {value}", problems.join("\n  "));
    }
}

/// The result definition a method's response has.
fn result_definition(method: &str) -> &'static str {
    match method {
        "initialize" => "InitializeResult",
        "ping" | "logging/setLevel" => "EmptyResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "server/discover" => "DiscoverResult",
        "subscriptions/listen" => "SubscriptionsListenResult",
        _ => "Result",
    }
}

/// The 2026-07-28 definition of an error object with `code`.
fn modern_error_definition(code: i64) -> Option<&'static str> {
    match code {
        -32700 => Some("ParseError"),
        -32600 => Some("InvalidRequestError"),
        -32601 => Some("MethodNotFoundError"),
        -32602 => Some("InvalidParamsError"),
        -32603 => Some("InternalError"),
        _ => None,
    }
}

/// `message` with a null id (see the module docs: no MCP schema has one)
/// removed where the id is optional (2025-11-25 on), or replaced by 0 where
/// it is required; any other message as it is.
fn without_null_id(version: ProtocolVersion, message: &Value) -> Value {
    let mut shown = message.clone();
    if message.get("id") == Some(&Value::Null) && message.get("error").is_some() {
        if version >= V2025_11 {
            shown.as_object_mut().unwrap().remove("id");
        } else {
            shown["id"] = json!(0);
        }
    }
    shown
}

/// Checks one error response (not a batch) of `version`.
#[track_caller]
fn check_error(version: ProtocolVersion, message: &Value) {
    let envelope = if version >= V2025_11 { "JSONRPCErrorResponse" } else { "JSONRPCError" };
    let shown = without_null_id(version, message);
    support::assert_valid(version.as_str(), envelope, &shown);
    let code = message["error"]["code"].as_i64().expect("an integer error code");
    assert!(
        matches!(code, -32700 | -32603..=-32600 | -32022),
        "unexpected error code {code} (codes in -32020..-32099 other than the spec's are forbidden): {message}"
    );
    if version == V2026 {
        if let Some(definition) = modern_error_definition(code) {
            support::assert_valid(version.as_str(), definition, &message["error"]);
        }
        if code == UNSUPPORTED_VERSION {
            support::assert_valid(version.as_str(), "UnsupportedProtocolVersionError", &shown);
        }
    }
}

/// Checks one result response (not a batch) of `version` whose result is `definition`.
#[track_caller]
fn check_result(version: ProtocolVersion, definition: &str, message: &Value) {
    let envelope = if version >= V2025_11 { "JSONRPCResultResponse" } else { "JSONRPCResponse" };
    assert_schema(version, envelope, message);
    support::assert_valid(version.as_str(), definition, &message["result"]);
    if version == V2026 {
        assert_eq!(message["result"]["resultType"], "complete", "every 2026 result has resultType: {message}");
    } else {
        assert!(message["result"].get("resultType").is_none(), "no resultType in {version}: {message}");
    }
}

/// Checks one notification of `version`.
#[track_caller]
fn check_notification(version: ProtocolVersion, message: &Value) {
    assert_schema(version, "JSONRPCNotification", message);
    let method = message["method"].as_str().unwrap();
    let definition = match method {
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/subscriptions/acknowledged" if version == V2026 => "SubscriptionsAcknowledgedNotification",
        other => panic!("the server sent an unexpected notification {other} in {version}: {message}"),
    };
    let mut inner = message.clone();
    if version < V2025_11 {
        // Before 2025-11-25 the notification definitions leave `jsonrpc` to the envelope.
        inner.as_object_mut().unwrap().remove("jsonrpc");
    }
    support::assert_valid(version.as_str(), definition, &inner);
}

// ---------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------

/// What a response to a request should look like.
#[derive(Clone, Copy, Debug)]
struct Expect {
    version: ProtocolVersion,
    definition: &'static str,
}

/// A test client on in-memory pipes, validating everything it reads.
struct Client {
    input: Option<DuplexStream>,
    output: BufReader<DuplexStream>,
    partial: Vec<u8>,
    serving: Option<JoinHandle<std::io::Result<()>>>,
    /// The version of legacy requests: negotiated by `initialize`, 2025-11-25 before.
    legacy: ProtocolVersion,
    /// The version of the last message sent: what notifications are checked against.
    era: ProtocolVersion,
    expected: HashMap<String, Expect>,
}

fn key(id: &Value) -> String {
    id.to_string()
}

fn is_modern(message: &Value) -> bool {
    message
        .pointer("/params/_meta")
        .and_then(Value::as_object)
        .is_some_and(|meta| meta.contains_key(PROTOCOL_VERSION_KEY))
}

impl Client {
    fn start(server: Server) -> Client {
        let (input, server_input) = tokio::io::duplex(64 * 1024);
        let (server_output, output) = tokio::io::duplex(1024 * 1024);
        let serving = tokio::spawn(async move { server.serve(server_input, server_output).await });
        Client {
            input: Some(input),
            output: BufReader::new(output),
            partial: Vec::new(),
            serving: Some(serving),
            legacy: V2025_11,
            era: V2025_11,
            expected: HashMap::new(),
        }
    }

    fn new() -> Client {
        Client::start(Server::new(toolbox()))
    }

    /// Writes `bytes` as they are (add the newline yourself).
    async fn send_bytes(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("input still open");
        input.write_all(bytes).await.expect("writing to the server");
        input.flush().await.unwrap();
    }

    /// Writes one line of text.
    async fn send_line(&mut self, text: &str) {
        let mut line = text.as_bytes().to_vec();
        line.push(b'\n');
        self.send_bytes(&line).await;
    }

    /// Notes what the responses to `message` (a request, notification or
    /// batch) should look like.
    fn register(&mut self, message: &Value) {
        match message {
            Value::Array(items) => items.iter().for_each(|item| self.register(item)),
            Value::Object(object) => {
                let version = if is_modern(message) { V2026 } else { self.legacy };
                if object.contains_key("method") {
                    self.era = version;
                }
                if let (Some(id @ (Value::String(_) | Value::Number(_))), Some(Value::String(method))) =
                    (object.get("id"), object.get("method"))
                {
                    self.expected.insert(key(id), Expect { version, definition: result_definition(method) });
                }
            }
            _ => {}
        }
    }

    async fn send(&mut self, message: Value) {
        self.register(&message);
        self.send_line(&message.to_string()).await;
    }

    async fn request(&mut self, id: impl Into<Value>, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "id": id.into(), "method": method, "params": params })).await;
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params })).await;
    }

    /// Closes the server's input (its stdin reaches EOF).
    fn close_input(&mut self) {
        self.input = None;
    }

    /// The next line, or `None` at EOF or after `within`.
    async fn line(&mut self, within: Duration) -> Option<Option<Vec<u8>>> {
        match tokio::time::timeout(within, self.output.read_until(b'\n', &mut self.partial)).await {
            Err(_) => None,
            Ok(Err(error)) => panic!("reading from the server: {error}"),
            Ok(Ok(0)) => {
                assert!(self.partial.is_empty(), "the server ended in the middle of a line");
                Some(None)
            }
            Ok(Ok(_)) => {
                let mut line = std::mem::take(&mut self.partial);
                assert_eq!(line.pop(), Some(b'\n'), "the server ended in the middle of a line");
                Some(Some(line))
            }
        }
    }

    /// The next message, validated, or `None` if nothing arrives `within`.
    async fn recv_within(&mut self, within: Duration) -> Option<Value> {
        let line = match self.line(within).await? {
            Some(line) => line,
            None => panic!("the server closed its output while a message was expected"),
        };
        let text = std::str::from_utf8(&line).expect("the server writes UTF-8");
        assert!(!text.contains('\n') && !text.trim().is_empty(), "one message per line: {text:?}");
        let message: Value = serde_json::from_str(text).unwrap_or_else(|error| panic!("not JSON ({error}): {text}"));
        self.validate(&message);
        Some(message)
    }

    /// The next message, validated; fails after [`WAIT`].
    async fn recv(&mut self) -> Value {
        match self.recv_within(WAIT).await {
            Some(message) => message,
            None => panic!("no message from the server within {WAIT:?}"),
        }
    }

    /// Asserts the server writes nothing for `within`.
    async fn assert_quiet(&mut self, within: Duration) {
        if let Some(message) = self.recv_within(within).await {
            panic!("expected no message, got {message}");
        }
    }

    /// Asserts the server's output ends (after serve() returned).
    async fn assert_eof(&mut self) {
        match self.line(WAIT).await {
            Some(None) => {}
            Some(Some(line)) => panic!("expected EOF, got {}", String::from_utf8_lossy(&line)),
            None => panic!("the server's output did not end within {WAIT:?}"),
        }
    }

    /// Reads until the response with `id`, returning the notifications that
    /// came before it and the response; any other response fails.
    async fn response_with_notes(&mut self, id: &Value) -> (Vec<Value>, Value) {
        let mut notes = Vec::new();
        loop {
            let message = self.recv().await;
            if message.get("method").is_some() {
                notes.push(message);
            } else if message.get("id") == Some(id) {
                return (notes, message);
            } else {
                panic!("waiting for the response to {id}, got {message}");
            }
        }
    }

    /// Reads the response with `id`; no notification may come before it.
    async fn response(&mut self, id: impl Into<Value>) -> Value {
        let id = id.into();
        let (notes, response) = self.response_with_notes(&id).await;
        assert!(notes.is_empty(), "unexpected notifications before the response to {id}: {notes:?}");
        response
    }

    /// Sends a request and returns its response (no notifications allowed).
    async fn call(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let id = id.into();
        self.request(id.clone(), method, params).await;
        self.response(id).await
    }

    /// Sends a request and returns its result, failing on an error response.
    async fn result(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let response = self.call(id, method, params).await;
        assert!(response.get("error").is_none(), "expected a result, got {response}");
        response["result"].clone()
    }

    /// Sends a request and returns its error object, failing on a result.
    async fn error(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let response = self.call(id, method, params).await;
        assert!(response.get("result").is_none(), "expected an error, got {response}");
        response["error"].clone()
    }

    /// The legacy handshake at `version`: `initialize`, then `notifications/initialized`.
    async fn initialize(&mut self, version: &str) -> Value {
        let result = self.result("init", "initialize", init_params(version)).await;
        self.notify("notifications/initialized", json!({})).await;
        result
    }

    /// A `ping`, answered: proves the server read everything sent before it.
    async fn sync(&mut self) {
        let id = json!(format!("sync-{}", SYNC.fetch_add(1, Ordering::Relaxed)));
        assert_eq!(self.result(id, "ping", json!({})).await, json!({}));
    }

    /// A modern `tools/list`, answered: like [`sync`](Self::sync) for modern tests.
    async fn sync_modern(&mut self) {
        let id = json!(format!("sync-{}", SYNC.fetch_add(1, Ordering::Relaxed)));
        self.result(id, "tools/list", modern(json!({}))).await;
    }

    /// Closes the input and waits for `serve` to return.
    async fn finish(mut self) -> std::io::Result<()> {
        self.close_input();
        let serving = self.serving.take().unwrap();
        tokio::time::timeout(WAIT, serving).await.expect("serve() returns after EOF").expect("serve() did not panic")
    }

    /// Validates one message the server wrote.
    #[track_caller]
    fn validate(&mut self, message: &Value) {
        match message {
            Value::Array(items) => {
                let version = self.era;
                assert!(version.has_batches(), "a batch response outside 2025-03-26 ({version}): {message}");
                assert!(!items.is_empty(), "an empty batch response: {message}");
                let shown: Vec<Value> = items.iter().map(|item| without_null_id(version, item)).collect();
                assert_schema(version, "JSONRPCBatchResponse", &Value::Array(shown));
                for item in items {
                    assert!(item.get("method").is_none(), "a notification inside a batch response: {message}");
                    self.validate_response(item);
                }
            }
            Value::Object(object) if object.contains_key("method") => {
                assert!(object.get("id").is_none(), "the server must not send requests: {message}");
                check_notification(self.era, message);
            }
            Value::Object(_) => self.validate_response(message),
            other => panic!("the server wrote a message that is not an object or batch: {other}"),
        }
    }

    #[track_caller]
    fn validate_response(&mut self, message: &Value) {
        assert_eq!(message["jsonrpc"], "2.0", "{message}");
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        let expect = self.expected.get(&key(&id)).copied();
        if message.get("error").is_some() {
            assert!(message.get("result").is_none(), "both result and error: {message}");
            let version = expect.map_or(self.era, |expect| expect.version);
            check_error(version, message);
            return;
        }
        let expect = expect.unwrap_or_else(|| panic!("a result for an id never sent: {message}"));
        let mut version = expect.version;
        if expect.definition == "InitializeResult" {
            let negotiated = message["result"]["protocolVersion"].as_str().expect("protocolVersion");
            version = negotiated.parse().unwrap_or_else(|_| panic!("negotiated an unknown version: {message}"));
            assert!(!version.is_modern(), "initialize negotiated a modern version: {message}");
            self.legacy = version;
            self.era = version;
        }
        check_result(version, expect.definition, message);
    }
}

static SYNC: AtomicUsize = AtomicUsize::new(0);

fn init_params(version: &str) -> Value {
    json!({
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": { "name": "server-tests", "version": "1.0.0" }
    })
}

/// The `_meta` of a modern request, plus `extra` keys.
fn modern_meta(extra: Value) -> Value {
    let mut meta = json!({
        PROTOCOL_VERSION_KEY: "2026-07-28",
        CLIENT_CAPABILITIES_KEY: {},
        CLIENT_INFO_KEY: { "name": "server-tests", "version": "1.0.0" },
    });
    if let Value::Object(extra) = extra {
        meta.as_object_mut().unwrap().extend(extra);
    }
    meta
}

/// `params` of a modern request.
fn modern(params: Value) -> Value {
    modern_with(json!({}), params)
}

/// `params` of a modern request whose `_meta` also has `extra`.
fn modern_with(extra: Value, mut params: Value) -> Value {
    params.as_object_mut().expect("params object").insert("_meta".into(), modern_meta(extra));
    params
}

fn call_params(name: &str, arguments: Value) -> Value {
    json!({ "name": name, "arguments": arguments })
}

/// The text of a tool result's first content block.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content in {result}"))
}

fn tool_names(list: &Value) -> Vec<&str> {
    list["tools"].as_array().unwrap().iter().map(|tool| tool["name"].as_str().unwrap()).collect()
}

#[track_caller]
fn assert_error(error: &Value, code: i64, needle: &str) {
    assert_eq!(error["code"], code, "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(needle), "the message {message:?} should contain {needle:?}");
}

/// Reads the next message and asserts it is an error with `code` and id `id`.
async fn expect_error(client: &mut Client, id: Value, code: i64) -> Value {
    let message = client.recv().await;
    assert_eq!(message.get("id"), Some(&id), "{message}");
    assert_eq!(message["error"]["code"], code, "{message}");
    message["error"].clone()
}

// ---------------------------------------------------------------------------
// -32700 parse errors
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_is_a_parse_error_and_the_server_keeps_serving() {
    let mut client = Client::new();
    for garbage in ["{not json", "hello", r#"{"jsonrpc":"2.0","id":1,"method":"ping""#, "}{", "[1,2"] {
        client.send_line(garbage).await;
        let error = expect_error(&mut client, Value::Null, PARSE_ERROR).await;
        assert_error(&error, PARSE_ERROR, "Parse error");
    }
    client.sync().await;
    client.finish().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_utf8_is_a_parse_error() {
    let mut client = Client::new();
    client.send_bytes(b"\xff\xfe\xfd\n").await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    // Invalid UTF-8 inside an otherwise well-formed request.
    client.send_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\xc3\x28ng\"}\n").await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    client.sync().await;
    client.finish().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn absurd_nesting_is_a_parse_error_not_a_crash() {
    let mut client = Client::new();
    client.send_line(&"[".repeat(100_000)).await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    let nested_object = format!("{}{}", r#"{"a":"#.repeat(50_000), "1");
    client.send_line(&nested_object).await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    // Balanced but too deep: still an error, still alive.
    client.send_line(&format!("{}{}", "[".repeat(10_000), "]".repeat(10_000))).await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    client.sync().await;
    client.finish().await.unwrap();
}

// ---------------------------------------------------------------------------
// -32600 invalid requests
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_that_is_not_an_object_is_an_invalid_request() {
    let mut client = Client::new();
    for line in ["42", r#""ping""#, "true", "null"] {
        client.send_line(line).await;
        let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "object");
    }
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_without_jsonrpc_is_an_invalid_request() {
    let mut client = Client::new();
    client.send(json!({ "id": 1, "method": "ping" })).await;
    let error = expect_error(&mut client, json!(1), INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "jsonrpc");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_jsonrpc_version_is_an_invalid_request() {
    let mut client = Client::new();
    for (id, version) in
        [json!("v1"), json!("v2"), json!("v3")].into_iter().zip([json!("1.0"), json!(2.0), json!(null)])
    {
        client.send(json!({ "jsonrpc": version, "id": id, "method": "ping" })).await;
        let error = expect_error(&mut client, id, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "jsonrpc");
    }
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_that_is_not_a_string_is_an_invalid_request() {
    let mut client = Client::new();
    for (id, method) in [(json!(1), json!(42)), (json!("two"), json!(null)), (json!(3), json!(["ping"]))] {
        client.send(json!({ "jsonrpc": "2.0", "id": id, "method": method })).await;
        let error = expect_error(&mut client, id, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "method");
    }
    // Neither a method nor a result/error.
    client.send(json!({ "jsonrpc": "2.0", "id": 4 })).await;
    expect_error(&mut client, json!(4), INVALID_REQUEST).await;
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_of_a_bad_type_is_an_invalid_request_with_a_null_id() {
    let mut client = Client::new();
    for id in [json!(null), json!({ "n": 1 }), json!(true), json!([1])] {
        client.send(json!({ "jsonrpc": "2.0", "id": id, "method": "ping" })).await;
        let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "id");
    }
    client.sync().await;
}

/// MCP's `RequestId` is a string or an *integer*: a fractional id cannot be
/// echoed in a schema-valid response, so it is an invalid request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fractional_id_is_an_invalid_request() {
    let mut client = Client::new();
    let line = r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#;
    client.register(&serde_json::from_str(line).unwrap());
    client.send_line(line).await;
    let message = client.recv().await;
    assert_eq!(message["error"]["code"], INVALID_REQUEST, "{message}");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_over_the_message_limit_is_rejected_and_skipped() {
    let mut client = Client::start(Server::new(toolbox()).message_limit(1024));
    // A request padded to exactly the limit is served.
    let request = r#"{"jsonrpc":"2.0","id":"fits","method":"ping","params":{}}"#;
    let padded = format!("{request}{}", " ".repeat(1024 - request.len()));
    assert_eq!(padded.len(), 1024);
    client.register(&json!({ "jsonrpc": "2.0", "id": "fits", "method": "ping" }));
    client.send_line(&padded).await;
    assert_eq!(client.recv().await["id"], "fits");

    // One byte more is rejected, and the request in it never runs.
    let over = format!("{request}{}", " ".repeat(1025 - request.len()));
    client.send_line(&over).await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "1025 bytes");
    assert_error(&error, INVALID_REQUEST, "1024");

    // A 4 MiB line is streamed through and skipped, not buffered whole:
    // one error, and the request hidden at its end is never answered.
    let mut huge = vec![b' '; 4 * 1024 * 1024];
    huge.extend_from_slice(br#"{"jsonrpc":"2.0","id":"hidden","method":"ping"}"#);
    huge.push(b'\n');
    client.send_bytes(&huge).await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "exceeds");

    // The next request still works, and nothing else was sent.
    client.sync().await;
    client.assert_quiet(QUIET).await;
    client.finish().await.unwrap();
}

// ---------------------------------------------------------------------------
// -32601 method not found
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_legacy_method_is_method_not_found() {
    let mut client = Client::new();
    let error = client.error(1, "tools/frobnicate", json!({})).await;
    assert_error(&error, METHOD_NOT_FOUND, "tools/frobnicate");
    client.initialize("2025-06-18").await;
    for (id, method) in [(2, "prompts/list"), (3, "resources/list"), (4, "server/nope")] {
        let error = client.error(id, method, json!({})).await;
        assert_error(&error, METHOD_NOT_FOUND, method);
    }
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn methods_removed_in_2026_are_method_not_found_with_modern_meta() {
    let mut client = Client::new();
    let error = client.error(1, "ping", modern(json!({}))).await;
    assert_error(&error, METHOD_NOT_FOUND, "ping");
    let error = client.error(2, "logging/setLevel", modern(json!({ "level": "debug" }))).await;
    assert_error(&error, METHOD_NOT_FOUND, "logging/setLevel");
    let error = client.error(3, "resources/subscribe", modern(json!({ "uri": "file:///x" }))).await;
    assert_error(&error, METHOD_NOT_FOUND, "resources/subscribe");
    let error = client.error(4, "prompts/list", modern(json!({}))).await;
    assert_error(&error, METHOD_NOT_FOUND, "prompts/list");
    client.sync_modern().await;
}

// ---------------------------------------------------------------------------
// -32602 invalid params
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_tool_is_invalid_params() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    let error = client.error(1, "tools/call", call_params("x", json!({}))).await;
    assert_eq!(error["message"], "Unknown tool: x");
    assert_eq!(error["code"], INVALID_PARAMS);
    let error = client.error(2, "tools/call", modern(call_params("x", json!({})))).await;
    assert_eq!(error["message"], "Unknown tool: x");
    assert_eq!(error["code"], INVALID_PARAMS);
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_call_without_a_name_is_invalid_params() {
    let mut client = Client::new();
    let error = client.error(1, "tools/call", json!({ "arguments": {} })).await;
    assert_error(&error, INVALID_PARAMS, "name");
    let error = client.error(2, "tools/call", json!({ "name": 7, "arguments": {} })).await;
    assert_error(&error, INVALID_PARAMS, "name");
    let error = client.error(3, "tools/call", modern(json!({ "arguments": {} }))).await;
    assert_error(&error, INVALID_PARAMS, "name");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_that_are_not_an_object_are_invalid_params() {
    let mut client = Client::new();
    for (id, arguments, found) in
        [(1, json!([1, 2]), "an array"), (2, json!("a=1"), "a string"), (3, json!(5), "a number")]
    {
        let error = client.error(id, "tools/call", call_params("add", arguments)).await;
        assert_error(&error, INVALID_PARAMS, "add");
        assert_error(&error, INVALID_PARAMS, found);
    }
    // Absent or null arguments mean `{}`: a tool error about the missing fields, not a protocol error.
    let result = client.result(4, "tools/call", json!({ "name": "add" })).await;
    assert_eq!(result["isError"], true);
    let result = client.result(5, "tools/call", json!({ "name": "add", "arguments": null })).await;
    assert_eq!(result["isError"], true);
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn params_that_are_not_an_object_are_invalid_params() {
    let mut client = Client::new();
    for (id, params) in [(json!(1), json!(["add"])), (json!("s"), json!("tools")), (json!(3), json!(17))] {
        client.send(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params })).await;
        let error = expect_error(&mut client, id, INVALID_PARAMS).await;
        assert_error(&error, INVALID_PARAMS, "params");
    }
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_cursor_is_invalid_params() {
    let mut client = Client::new();
    client.initialize("2025-06-18").await;
    let error = client.error(1, "tools/list", json!({ "cursor": "not-a-cursor" })).await;
    assert_error(&error, INVALID_PARAMS, "not-a-cursor");
    let error = client.error(2, "tools/list", json!({ "cursor": "999" })).await;
    assert_error(&error, INVALID_PARAMS, "cursor");
    let error = client.error(3, "tools/list", json!({ "cursor": 12 })).await;
    assert_error(&error, INVALID_PARAMS, "cursor");
    let error = client.error(4, "tools/list", modern(json!({ "cursor": "bogus" }))).await;
    assert_error(&error, INVALID_PARAMS, "bogus");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_modern_request_missing_required_meta_is_invalid_params() {
    let mut client = Client::new();
    let meta = json!({ PROTOCOL_VERSION_KEY: "2026-07-28" });
    let error = client.error(1, "tools/list", json!({ "_meta": meta })).await;
    assert_error(&error, INVALID_PARAMS, CLIENT_CAPABILITIES_KEY);
    let meta = json!({ PROTOCOL_VERSION_KEY: "2026-07-28", CLIENT_CAPABILITIES_KEY: "none" });
    let error = client.error(2, "tools/call", json!({ "_meta": meta, "name": "add", "arguments": {} })).await;
    assert_error(&error, INVALID_PARAMS, CLIENT_CAPABILITIES_KEY);
    let meta = json!({ PROTOCOL_VERSION_KEY: 20260728, CLIENT_CAPABILITIES_KEY: {} });
    let error = client.error(3, "tools/list", json!({ "_meta": meta })).await;
    assert_error(&error, INVALID_PARAMS, PROTOCOL_VERSION_KEY);
    // Modern-only methods without the modern `_meta` at all.
    let error = client.error(4, "server/discover", json!({})).await;
    assert_error(&error, INVALID_PARAMS, PROTOCOL_VERSION_KEY);
    let error = client.error(5, "subscriptions/listen", json!({ "notifications": { "toolsListChanged": true } })).await;
    assert_error(&error, INVALID_PARAMS, PROTOCOL_VERSION_KEY);
    client.sync_modern().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_modern_log_level_is_invalid_params() {
    let mut client = Client::new();
    for (id, level) in [(1, json!("loud")), (2, json!("DEBUG")), (3, json!(3))] {
        let params = modern_with(json!({ LOG_LEVEL_KEY: level }), call_params("chatty", json!({})));
        let error = client.error(id, "tools/call", params).await;
        assert_error(&error, INVALID_PARAMS, LOG_LEVEL_KEY);
    }
    client.sync_modern().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_level_with_a_bad_level_is_invalid_params() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    for (id, params) in [(1, json!({ "level": "loud" })), (2, json!({})), (3, json!({ "level": 4 }))] {
        let error = client.error(id, "logging/setLevel", params).await;
        assert_error(&error, INVALID_PARAMS, "level");
    }
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscriptions_listen_without_a_filter_is_invalid_params() {
    let mut client = Client::new();
    let error = client.error("listen", "subscriptions/listen", modern(json!({}))).await;
    assert_error(&error, INVALID_PARAMS, "notifications");
    client.sync_modern().await;
}

// ---------------------------------------------------------------------------
// -32022 unsupported protocol version
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsupported_modern_version_is_32022_with_supported_and_requested() {
    let mut client = Client::new();
    for (id, requested) in [(1, "2099-01-01"), (2, "1900-01-01"), (3, "2025-11-25")] {
        let meta = json!({ PROTOCOL_VERSION_KEY: requested, CLIENT_CAPABILITIES_KEY: {} });
        let error = client.error(id, "server/discover", json!({ "_meta": meta })).await;
        assert_eq!(error["code"], UNSUPPORTED_VERSION);
        assert_eq!(error["data"]["requested"], requested);
        let supported = error["data"]["supported"].as_array().unwrap();
        assert!(supported.contains(&json!("2026-07-28")), "{error}");
        for version in ProtocolVersion::ALL {
            assert!(supported.contains(&json!(version.as_str())), "{version} missing from {error}");
        }
    }
    // The same for a tools/call.
    let meta = json!({ PROTOCOL_VERSION_KEY: "2030-01-01", CLIENT_CAPABILITIES_KEY: {} });
    let error =
        client.error(4, "tools/call", json!({ "_meta": meta, "name": "add", "arguments": { "a": 1, "b": 2 } })).await;
    assert_eq!(error["code"], UNSUPPORTED_VERSION);
    assert_eq!(error["data"]["requested"], "2030-01-01");
    client.sync_modern().await;
}

// ---------------------------------------------------------------------------
// Tool errors
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_arguments_are_tool_errors_naming_the_field() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    let result = client.result(1, "tools/call", call_params("add", json!({ "a": "two", "b": 3 }))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("`a`"), "{result}");
    let result = client.result(2, "tools/call", call_params("add", json!({ "a": 2 }))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("`b`"), "{result}");
    let result = client.result(3, "tools/call", call_params("sum", json!({ "values": [1, "x"] }))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("values"), "{result}");
    let result = client.result(4, "tools/call", modern(call_params("add", json!({ "a": 1, "b": [] })))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("`b`"), "{result}");
    // And a valid call still works.
    let result = client.result(5, "tools/call", call_params("add", json!({ "a": 2, "b": 3 }))).await;
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(text(&result), "5");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_tool_is_an_error_result_and_the_server_lives_on() {
    let mut client = Client::new();
    client.initialize("2025-06-18").await;
    for (id, tool) in [(1, "boom_sync"), (2, "boom_async")] {
        let result = client.result(id, "tools/call", call_params(tool, json!({}))).await;
        assert_eq!(result["isError"], true, "{result}");
        assert!(text(&result).contains("panicked"), "{result}");
        let result = client.result(id + 10, "tools/call", call_params("add", json!({ "a": id, "b": 1 }))).await;
        assert_eq!(text(&result), (id + 1).to_string());
    }
    let result = client.result(3, "tools/call", modern(call_params("boom_sync", json!({})))).await;
    assert_eq!(result["isError"], true, "{result}");
    let result = client.result(4, "tools/call", modern(call_params("boom_async", json!({})))).await;
    assert_eq!(result["isError"], true, "{result}");
    client.sync().await;
    client.finish().await.unwrap();
}

/// The panic message is what tells the model (and the developer) what went wrong.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_sync_tool_reports_its_panic_message() {
    let mut client = Client::new();
    let result = client.result(1, "tools/call", call_params("boom_sync", json!({}))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("sync kaboom"), "{result}");
}

/// The panic message is what tells the model (and the developer) what went wrong.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_async_tool_reports_its_panic_message() {
    let mut client = Client::new();
    let result = client.result(1, "tools/call", call_params("boom_async", json!({}))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("async kaboom"), "{result}");
}

// ---------------------------------------------------------------------------
// The legacy era
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_echoes_each_supported_legacy_version() {
    for version in LEGACY {
        let mut client = Client::new();
        let result = client.initialize(version.as_str()).await;
        assert_eq!(result["protocolVersion"], version.as_str());
        assert_eq!(result["capabilities"]["tools"]["listChanged"], true, "{result}");
        assert!(result["capabilities"]["logging"].is_object(), "{result}");
        assert_eq!(result["serverInfo"]["name"], "codeagent", "the crate that defined the tools: {result}");
        assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(client.legacy, version);
        client.sync().await;
        client.finish().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_with_an_unknown_or_modern_version_gets_2025_11_25() {
    for requested in [json!("1999-01-01"), json!("2026-07-28"), json!("2025-13-45"), json!(20241105), json!(null)] {
        let mut client = Client::new();
        let mut params = init_params("");
        params["protocolVersion"] = requested.clone();
        let result = client.result("init", "initialize", params).await;
        assert_eq!(result["protocolVersion"], "2025-11-25", "asked for {requested}: {result}");
    }
    // initialize carrying modern `_meta` is still the legacy handshake.
    let mut client = Client::new();
    let result = client.result("init", "initialize", modern(init_params("2026-07-28"))).await;
    assert_eq!(result["protocolVersion"], "2025-11-25", "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_identity_can_be_set() {
    let server = Server::new(toolbox()).name("custom-server").version("9.8.7").title("Custom").instructions("Be nice.");
    let mut client = Client::start(server.clone());
    let result = client.initialize("2025-06-18").await;
    assert_eq!(result["serverInfo"], json!({ "name": "custom-server", "version": "9.8.7", "title": "Custom" }));
    assert_eq!(result["instructions"], "Be nice.");
    // 2024-11-05 has no title.
    let mut client = Client::start(server.clone());
    let result = client.initialize("2024-11-05").await;
    assert_eq!(result["serverInfo"], json!({ "name": "custom-server", "version": "9.8.7" }));
    // Modern results carry it in `_meta`.
    let mut client = Client::start(server);
    let result = client.result(1, "server/discover", modern(json!({}))).await;
    assert_eq!(result["_meta"][SERVER_INFO_KEY]["name"], "custom-server");
    assert_eq!(result["instructions"], "Be nice.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ping_answers_an_empty_result_before_and_after_initialize() {
    let mut client = Client::new();
    assert_eq!(client.result(1, "ping", json!({})).await, json!({}));
    assert_eq!(client.result(2, "ping", json!(null)).await, json!({}));
    client.send(json!({ "jsonrpc": "2.0", "id": 3, "method": "ping" })).await;
    assert_eq!(client.response(3).await["result"], json!({}));
    client.initialize("2024-11-05").await;
    assert_eq!(client.result("p", "ping", json!({})).await, json!({}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_level_filters_log_messages() {
    let mut client = Client::new();
    client.initialize("2025-06-18").await;
    assert_eq!(client.result(1, "logging/setLevel", json!({ "level": "warning" })).await, json!({}));
    client.request(2, "tools/call", call_params("chatty", json!({}))).await;
    let (notes, response) = client.response_with_notes(&json!(2)).await;
    assert_eq!(text(&response["result"]), "logged");
    let levels: Vec<&str> = notes.iter().map(|note| note["params"]["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["warning", "error"], "{notes:?}");
    assert!(notes.iter().all(|note| note["method"] == "notifications/message"));
    assert_eq!(notes[0]["params"]["data"], "a warning message");

    assert_eq!(client.result(3, "logging/setLevel", json!({ "level": "debug" })).await, json!({}));
    client.request(4, "tools/call", call_params("chatty", json!({}))).await;
    let (notes, _) = client.response_with_notes(&json!(4)).await;
    let levels: Vec<&str> = notes.iter().map(|note| note["params"]["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["debug", "info", "warning", "error"]);

    assert_eq!(client.result(5, "logging/setLevel", json!({ "level": "emergency" })).await, json!({}));
    client.request(6, "tools/call", call_params("chatty", json!({}))).await;
    let (notes, _) = client.response_with_notes(&json!(6)).await;
    assert!(notes.is_empty(), "{notes:?}");
    client.assert_quiet(QUIET).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_has_the_shape_of_each_legacy_version() {
    for version in LEGACY {
        let mut client = Client::new();
        client.initialize(version.as_str()).await;
        let list = client.result(1, "tools/list", json!({})).await;
        assert_eq!(tool_names(&list)[..3], ["add", "greet", "sum"]);
        let tools = list["tools"].as_array().unwrap();
        let (greet_tool, sum_tool) = (&tools[1], &tools[2]);
        let has = |tool: &Value, key: &str| tool.get(key).is_some();
        match version {
            V2024 => {
                for tool in tools {
                    for key in ["title", "annotations", "outputSchema", "icons", "execution"] {
                        assert!(!has(tool, key), "{version}: `{key}` in {tool}");
                    }
                }
            }
            V2025_03 => {
                assert!(has(greet_tool, "annotations"), "{greet_tool}");
                assert_eq!(greet_tool["annotations"]["readOnlyHint"], true);
                assert!(!has(greet_tool, "title") && !has(sum_tool, "outputSchema"), "{greet_tool} {sum_tool}");
            }
            _ => {
                assert_eq!(greet_tool["title"], "Greeting");
                assert!(has(sum_tool, "outputSchema"), "{sum_tool}");
            }
        }
        // A structured tool's result follows the version too.
        let result = client.result(2, "tools/call", call_params("sum", json!({ "values": [1, 2, 3] }))).await;
        assert_eq!(result.get("structuredContent").is_some(), version >= V2025_06, "{version}: {result}");
        if version >= V2025_06 {
            assert_eq!(result["structuredContent"], json!({ "total": 6 }));
        }
    }
}

/// Notifications must fit the negotiated version (the client checks every
/// key): progress `message` only exists from 2025-03-26.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_notifications_fit_the_negotiated_version() {
    for version in LEGACY {
        let mut client = Client::new();
        client.initialize(version.as_str()).await;
        client.result("level", "logging/setLevel", json!({ "level": "info" })).await;
        client.request(0, "tools/call", call_params("chatty", json!({}))).await;
        let (notes, _) = client.response_with_notes(&json!(0)).await;
        assert_eq!(notes.len(), 3, "{version}: {notes:?}");
        let params = json!({ "name": "steps", "arguments": { "count": 3 }, "_meta": { "progressToken": 99 } });
        client.request(1, "tools/call", params).await;
        let (notes, response) = client.response_with_notes(&json!(1)).await;
        assert_eq!(text(&response["result"]), "3 steps");
        assert_eq!(notes.len(), 3, "{version}: {notes:?}");
        assert!(notes.iter().all(|note| note["params"]["progressToken"] == 99));
    }
}

// ---------------------------------------------------------------------------
// The modern era
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_discover_describes_the_server_as_the_first_message() {
    let mut client = Client::new();
    let result = client.result("d", "server/discover", modern(json!({}))).await;
    let supported: Vec<&str> =
        result["supportedVersions"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(supported[0], "2026-07-28", "{result}");
    let mut sorted = supported.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ProtocolVersion::ALL.map(ProtocolVersion::as_str));
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 3_600_000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["_meta"][SERVER_INFO_KEY], json!({ "name": "codeagent", "version": env!("CARGO_PKG_VERSION") }));
    assert!(result.get("serverInfo").is_none(), "serverInfo lives in _meta in 2026-07-28: {result}");

    let mut client = Client::start(Server::new(toolbox()).discover_ttl(Duration::from_secs(5)));
    let result = client.result("d", "server/discover", modern(json!({}))).await;
    assert_eq!(result["ttlMs"], 5000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_tools_list_and_call_carry_result_type_and_server_info() {
    let mut client = Client::new();
    let list = client.result(1, "tools/list", modern(json!({}))).await;
    assert_eq!(list["resultType"], "complete");
    assert!(list["ttlMs"].is_u64() && list["cacheScope"].is_string(), "{list}");
    assert_eq!(list["_meta"][SERVER_INFO_KEY]["name"], "codeagent");
    assert!(tool_names(&list).contains(&"wait"));
    let result = client.result(2, "tools/call", modern(call_params("add", json!({ "a": 40, "b": 2 })))).await;
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["_meta"][SERVER_INFO_KEY]["name"], "codeagent");
    assert_eq!(text(&result), "42");
    let result = client.result(3, "tools/call", modern(call_params("sum", json!({ "values": [2, 2] })))).await;
    assert_eq!(result["structuredContent"], json!({ "total": 4 }));
    // Legacy requests on the same connection get legacy shapes.
    let result = client.result(4, "tools/call", call_params("add", json!({ "a": 1, "b": 1 }))).await;
    assert!(result.get("resultType").is_none() && result.get("_meta").is_none(), "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_logs_only_when_the_request_asks() {
    let mut client = Client::new();
    // No logLevel: no notifications/message at all.
    let result = client.result(1, "tools/call", modern(call_params("chatty", json!({})))).await;
    assert_eq!(text(&result), "logged");
    // With one: messages at or above it, before the response.
    let params = modern_with(json!({ LOG_LEVEL_KEY: "warning" }), call_params("chatty", json!({})));
    client.request(2, "tools/call", params).await;
    let (notes, _) = client.response_with_notes(&json!(2)).await;
    let levels: Vec<&str> = notes.iter().map(|note| note["params"]["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["warning", "error"]);
    let params = modern_with(json!({ LOG_LEVEL_KEY: "debug" }), call_params("chatty", json!({})));
    client.request(3, "tools/call", params).await;
    let (notes, _) = client.response_with_notes(&json!(3)).await;
    assert_eq!(notes.len(), 4, "{notes:?}");
    // A legacy setLevel does not leak into modern requests.
    client.initialize("2025-11-25").await;
    client.result(4, "logging/setLevel", json!({ "level": "debug" })).await;
    let result = client.result(5, "tools/call", modern(call_params("chatty", json!({})))).await;
    assert_eq!(text(&result), "logged");
    client.assert_quiet(QUIET).await;
}

async fn check_progress(client: &mut Client, id: Value, token: Value) {
    let params = modern_with(json!({ "progressToken": token }), call_params("steps", json!({ "count": 5 })));
    client.request(id.clone(), "tools/call", params).await;
    let (notes, response) = client.response_with_notes(&id).await;
    assert_eq!(text(&response["result"]), "5 steps");
    let mut last = f64::NEG_INFINITY;
    for note in &notes {
        assert_eq!(note["method"], "notifications/progress");
        assert_eq!(note["params"]["progressToken"], token, "the token is echoed as sent: {note}");
        let progress = note["params"]["progress"].as_f64().unwrap();
        assert!(progress > last, "progress must increase: {notes:?}");
        last = progress;
        assert_eq!(note["params"]["total"], 5.0);
    }
    let values: Vec<f64> = notes.iter().map(|note| note["params"]["progress"].as_f64().unwrap()).collect();
    assert_eq!(values, [1.0, 2.0, 3.0, 4.0, 5.0], "the stale value is dropped");
    client.assert_quiet(Duration::from_millis(150)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_echoes_a_string_token_increasing_and_before_the_response() {
    let mut client = Client::new();
    check_progress(&mut client, json!("p1"), json!("token-abc")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_echoes_an_integer_token_increasing_and_before_the_response() {
    let mut client = Client::new();
    check_progress(&mut client, json!(1), json!(7)).await;
    check_progress(&mut client, json!(2), json!(0)).await;
    // No token, no progress.
    let result = client.result(3, "tools/call", modern(call_params("steps", json!({ "count": 3 })))).await;
    assert_eq!(text(&result), "3 steps");
}

// ---------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_calls_are_each_answered_once() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    for n in 0..50u64 {
        let ms = (n * 37) % 50 + 1;
        client.request(n, "tools/call", call_params("nap", json!({ "ms": ms, "n": n }))).await;
    }
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    for _ in 0..50 {
        let response = client.recv().await;
        let id = response["id"].as_u64().unwrap_or_else(|| panic!("unexpected message {response}"));
        assert!(seen.insert(id), "id {id} answered twice");
        order.push(id);
        assert_eq!(text(&response["result"]), id.to_string(), "{response}");
    }
    assert_eq!(seen, (0..50).collect());
    // They ran concurrently: the shortest naps were answered first, not in the order sent.
    assert!(!order.is_sorted(), "answered in the order sent: {order:?}");
    client.assert_quiet(QUIET).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_sync_tool_does_not_block_a_fast_call_after_it() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    client.request("slow", "tools/call", call_params("block", json!({ "ms": 500 }))).await;
    client.request("fast", "tools/call", call_params("add", json!({ "a": 1, "b": 2 }))).await;
    let first = client.recv().await;
    assert_eq!(first["id"], "fast", "the fast call is answered first: {first}");
    let second = client.recv().await;
    assert_eq!(second["id"], "slow");
    assert_eq!(text(&second["result"]), "blocked 500 ms");
}

// ---------------------------------------------------------------------------
// Cancellation
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_gets_no_response_and_the_tool_sees_the_cancellation() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    let params =
        json!({ "name": "wait", "arguments": { "key": "cancel-1", "ms": 600 }, "_meta": { "progressToken": "w" } });
    client.request(5, "tools/call", params).await;
    let started = client.recv().await;
    assert_eq!(started["method"], "notifications/progress", "the tool started: {started}");
    client.notify("notifications/cancelled", json!({ "requestId": 5, "reason": "changed my mind" })).await;
    // Uncancelled, the tool would answer within this window.
    client.assert_quiet(Duration::from_millis(1200)).await;
    assert_eq!(observed("cancel-1"), ["cancelled"], "the tool observed the cancellation");
    // Later requests are fine, including one reusing the cancelled id.
    client.sync().await;
    let result = client.result(5, "tools/call", call_params("add", json!({ "a": 5, "b": 5 }))).await;
    assert_eq!(text(&result), "10");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_modern_call_gets_no_response() {
    let mut client = Client::new();
    let params =
        modern_with(json!({ "progressToken": 1 }), call_params("wait", json!({ "key": "cancel-2", "ms": 600 })));
    client.request("m", "tools/call", params).await;
    assert_eq!(client.recv().await["method"], "notifications/progress");
    client.notify("notifications/cancelled", json!({ "requestId": "m" })).await;
    client.assert_quiet(Duration::from_millis(1200)).await;
    assert_eq!(observed("cancel-2"), ["cancelled"]);
    client.sync_modern().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_an_unknown_id_is_ignored() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    for request_id in [json!(12345), json!("nobody"), json!(null), json!({ "x": 1 })] {
        client.notify("notifications/cancelled", json!({ "requestId": request_id })).await;
    }
    client.notify("notifications/cancelled", json!({})).await;
    // A finished request's id, too.
    client.result(1, "tools/call", call_params("add", json!({ "a": 1, "b": 1 }))).await;
    client.notify("notifications/cancelled", json!({ "requestId": 1 })).await;
    client.assert_quiet(Duration::from_millis(200)).await;
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_in_flight_id_is_an_invalid_request() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    let params = json!({ "name": "wait", "arguments": { "key": "dup", "ms": 400 }, "_meta": { "progressToken": "d" } });
    client.request(9, "tools/call", params).await;
    assert_eq!(client.recv().await["method"], "notifications/progress");
    client.request(9, "tools/call", call_params("add", json!({ "a": 1, "b": 2 }))).await;
    let error = expect_error(&mut client, json!(9), INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "9");
    // The first request is unaffected and still answered.
    let response = client.recv().await;
    assert_eq!(response["id"], 9);
    assert_eq!(text(&response["result"]), "waited 400 ms");
    assert_eq!(observed("dup"), ["finished"]);
    // The same id, as a string, is a different id.
    let params = json!({ "name": "wait", "arguments": { "key": "dup-2", "ms": 300 } });
    client.request(10, "tools/call", params).await;
    let result = client.result("10", "tools/call", call_params("add", json!({ "a": 1, "b": 2 }))).await;
    assert_eq!(text(&result), "3");
    assert_eq!(client.recv().await["id"], 10);
}

// ---------------------------------------------------------------------------
// End of input
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_eof_in_flight_requests_are_answered_then_serve_returns_ok() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    client.request("last", "tools/call", call_params("wait", json!({ "key": "eof", "ms": 300 }))).await;
    client.request("blocking", "tools/call", call_params("block", json!({ "ms": 200 }))).await;
    client.close_input();
    let mut ids = HashSet::new();
    for _ in 0..2 {
        let response = client.recv().await;
        assert!(response.get("result").is_some(), "{response}");
        ids.insert(response["id"].as_str().unwrap().to_owned());
    }
    assert_eq!(ids, HashSet::from(["last".to_owned(), "blocking".to_owned()]));
    client.assert_eof().await;
    assert_eq!(observed("eof"), ["finished"]);
    client.finish().await.expect("serve() returns Ok(()) at EOF");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_eof_without_a_trailing_newline_the_last_message_is_served() {
    let mut client = Client::new();
    client.register(&json!({ "jsonrpc": "2.0", "id": "tail", "method": "ping" }));
    client.send_bytes(br#"{"jsonrpc":"2.0","id":"tail","method":"ping"}"#).await;
    client.close_input();
    assert_eq!(client.recv().await["id"], "tail");
    client.assert_eof().await;
    client.finish().await.unwrap();
}

// ---------------------------------------------------------------------------
// Batches (2025-03-26 only)
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_on_2025_03_26_gets_one_array_response_in_order() {
    let mut client = Client::new();
    client.initialize("2025-03-26").await;
    let batch = json!([
        { "jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": call_params("nap", json!({ "ms": 150, "n": 1 })) },
        { "jsonrpc": "2.0", "id": "b", "method": "ping" },
        { "jsonrpc": "2.0", "method": "notifications/initialized" },
        { "jsonrpc": "2.0", "id": "c", "method": "tools/call", "params": call_params("add", json!({ "a": 2, "b": 2 })) },
        { "jsonrpc": "2.0", "id": "d", "method": "tools/list" },
        { "jsonrpc": "2.0", "id": "e", "method": "no/such" },
        { "jsonrpc": "2.0", "id": "f", "method": "tools/call", "params": call_params("x", json!({})) }
    ]);
    client.send(batch).await;
    let response = client.recv().await;
    let items = response.as_array().unwrap_or_else(|| panic!("one array response: {response}"));
    let ids: Vec<&str> = items.iter().map(|item| item["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["a", "b", "c", "d", "e", "f"], "notifications omitted, order kept");
    assert_eq!(text(&items[0]["result"]), "1");
    assert_eq!(items[1]["result"], json!({}));
    assert_eq!(text(&items[2]["result"]), "4");
    assert!(tool_names(&items[3]["result"]).contains(&"add"));
    assert_eq!(items[4]["error"]["code"], METHOD_NOT_FOUND);
    assert_eq!(items[5]["error"]["code"], INVALID_PARAMS);
    // Only notifications: nothing comes back.
    client.send(json!([{ "jsonrpc": "2.0", "method": "notifications/initialized" }])).await;
    client.assert_quiet(Duration::from_millis(200)).await;
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_outside_2025_03_26_is_an_invalid_request() {
    // Before initialize.
    let mut client = Client::new();
    client.send(json!([{ "jsonrpc": "2.0", "id": 1, "method": "ping" }])).await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "batch");
    client.sync().await;
    // After negotiating any other version.
    for version in [V2024, V2025_06, V2025_11] {
        let mut client = Client::new();
        client.initialize(version.as_str()).await;
        client.send(json!([{ "jsonrpc": "2.0", "id": 1, "method": "ping" }, { "jsonrpc": "2.0", "id": 2, "method": "ping" }])).await;
        let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "batch");
        client.assert_quiet(Duration::from_millis(150)).await;
        client.sync().await;
    }
    // A modern client cannot batch either.
    let mut client = Client::new();
    client.send(json!([{ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": modern(json!({})) }])).await;
    expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_batch_is_an_invalid_request() {
    let mut client = Client::new();
    client.send_line("[]").await;
    expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    client.initialize("2025-03-26").await;
    client.send_line("[]").await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "empty");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_inside_a_batch_is_an_error_for_that_element() {
    let mut client = Client::new();
    client.initialize("2025-03-26").await;
    let batch = json!([
        { "jsonrpc": "2.0", "id": "p", "method": "ping" },
        { "jsonrpc": "2.0", "id": "i", "method": "initialize", "params": init_params("2025-06-18") },
        { "jsonrpc": "2.0", "id": 3, "method": 3 },
        "not a message"
    ]);
    client.send(batch).await;
    let response = client.recv().await;
    let items = response.as_array().unwrap_or_else(|| panic!("an array: {response}"));
    assert_eq!(items.len(), 4, "{response}");
    assert_eq!(items[0]["result"], json!({}));
    assert_eq!(items[1]["id"], "i");
    assert_eq!(items[1]["error"]["code"], INVALID_REQUEST);
    assert!(items[1]["error"]["message"].as_str().unwrap().contains("initialize"));
    assert_eq!(items[2]["id"], 3);
    assert_eq!(items[2]["error"]["code"], INVALID_REQUEST);
    assert_eq!(items[3]["id"], Value::Null);
    assert_eq!(items[3]["error"]["code"], INVALID_REQUEST);
    // The session is still 2025-03-26: batches still work.
    client.send(json!([{ "jsonrpc": "2.0", "id": "q", "method": "ping" }])).await;
    assert_eq!(client.recv().await[0]["id"], "q");
}

// ---------------------------------------------------------------------------
// list_changed
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_clients_hear_list_changed_after_initialized() {
    let served = toolbox();
    let mut client = Client::start(Server::new(served.clone()));
    client.result("init", "initialize", init_params("2025-06-18")).await;
    // Not yet initialized: nothing is announced.
    served.try_add(late).unwrap();
    client.assert_quiet(QUIET).await;
    client.notify("notifications/initialized", json!({})).await;
    client.sync().await;
    served.try_add(later).unwrap();
    let note = client.recv().await;
    assert_eq!(note["method"], "notifications/tools/list_changed", "{note}");
    assert!(note.pointer(&format!("/params/_meta/{}", SUBSCRIPTION_ID_KEY.replace('/', "~1"))).is_none(), "{note}");
    let list = client.result(1, "tools/list", json!({})).await;
    assert!(tool_names(&list).ends_with(&["late", "later"]), "{list}");
    let result = client.result(2, "tools/call", call_params("later", json!({}))).await;
    assert_eq!(text(&result), "later");
    // Removing a tool is a change too.
    assert!(served.remove("late"));
    assert_eq!(client.recv().await["method"], "notifications/tools/list_changed");
    client.assert_quiet(Duration::from_millis(200)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_listen_is_acknowledged_and_tags_list_changed() {
    let served = toolbox();
    let mut client = Client::start(Server::new(served.clone()));
    let params = modern(json!({ "notifications": { "toolsListChanged": true, "promptsListChanged": true } }));
    client.request("listen-1", "subscriptions/listen", params).await;
    let ack = client.recv().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{ack}");
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1");
    assert_eq!(ack["params"]["notifications"], json!({ "toolsListChanged": true }), "only what is honoured");
    served.try_add(late).unwrap();
    let note = client.recv().await;
    assert_eq!(note["method"], "notifications/tools/list_changed", "{note}");
    assert_eq!(note["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1");
    // The listen request stays open: no response; and no legacy announcement.
    client.assert_quiet(QUIET).await;
    // A listen without toolsListChanged hears nothing.
    client.request(2, "subscriptions/listen", modern(json!({ "notifications": {} }))).await;
    let ack = client.recv().await;
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], 2);
    assert_eq!(ack["params"]["notifications"], json!({}));
    served.try_add(later).unwrap();
    let note = client.recv().await;
    assert_eq!(note["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1", "only listen-1 asked: {note}");
    client.assert_quiet(QUIET).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_listen_stops_its_notifications() {
    let served = toolbox();
    let mut client = Client::start(Server::new(served.clone()));
    client.request(77, "subscriptions/listen", modern(json!({ "notifications": { "toolsListChanged": true } }))).await;
    let ack = client.recv().await;
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], 77);
    // A second listen with the same id while the first is open is refused.
    client.request(77, "subscriptions/listen", modern(json!({ "notifications": { "toolsListChanged": true } }))).await;
    expect_error(&mut client, json!(77), INVALID_REQUEST).await;
    client.notify("notifications/cancelled", json!({ "requestId": 77 })).await;
    client.sync_modern().await;
    served.try_add(late).unwrap();
    client.assert_quiet(QUIET).await;
    // The id is free again.
    client.request(77, "subscriptions/listen", modern(json!({ "notifications": { "toolsListChanged": true } }))).await;
    assert_eq!(client.recv().await["method"], "notifications/subscriptions/acknowledged");
    client.finish().await.unwrap();
}

// ---------------------------------------------------------------------------
// Client responses
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_responses_are_ignored_without_reply() {
    let mut client = Client::new();
    client.send_line(r#"{"jsonrpc":"2.0","id":"x","result":{}}"#).await;
    client.send_line(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}"#).await;
    client.send_line(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#).await;
    client.initialize("2025-11-25").await;
    client.send_line(r#"{"jsonrpc":"2.0","id":"y","result":{"roots":[]}}"#).await;
    client.assert_quiet(Duration::from_millis(200)).await;
    client.sync().await;
}
