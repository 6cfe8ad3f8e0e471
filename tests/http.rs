//! MCP over Streamable HTTP, end to end, for both eras.
//!
//! Every test starts its own server in-process on `127.0.0.1:0`
//! (`Server::http_router` served by `axum::serve`) and talks to it with a
//! minimal HTTP/1.1 client (hyper's connection API: one connection per
//! request, so the test controls every header, including `Host`, and can hang
//! up on a stream). The last test runs the gallery example binary with
//! `--http 127.0.0.1:PORT`.
//!
//! Every wait has a timeout ([`WAIT`] per read, [`TEST_LIMIT`] per test), so a
//! hang fails instead of hanging CI.
//!
//! Every JSON-RPC message the server sends is validated against the official
//! schema of its era (`codeagent_test_support`): results against their definitions
//! (`InitializeResult`, `ListToolsResult`, `CallToolResult`, `DiscoverResult`,
//! with the "every key is defined by that version" check), errors against the
//! error envelope and, in 2026-07-28, the specific error definitions
//! (`HeaderMismatchError`, `UnsupportedProtocolVersionError`, `ParseError`…),
//! notifications against theirs. As in `tests/server.rs`, an error answering a
//! message whose id the server did not use (refused before the body is read,
//! or unreadable) carries `"id": null` (JSON-RPC 2.0 §5), which no MCP schema
//! admits: it is validated as if the id were absent (2025-11-25 and later,
//! where the id is optional), and the tests assert the null explicitly.

use codeagent_test_support as support;

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use codeagent::server::http::{BearerToken, HttpOptions};
use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY, SERVER_INFO_KEY};
use codeagent::{Context, ProtocolVersion, Server, ToolError, Toolbox};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{HeaderMap, Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

const V2025_03: ProtocolVersion = ProtocolVersion::V2025_03_26;
const V2025_06: ProtocolVersion = ProtocolVersion::V2025_06_18;
const V2025_11: ProtocolVersion = ProtocolVersion::V2025_11_25;
const V2026: ProtocolVersion = ProtocolVersion::V2026_07_28;

/// How long the client waits for a response, an event or a body.
const WAIT: Duration = Duration::from_secs(10);
/// How long a whole test may take.
const TEST_LIMIT: Duration = Duration::from_secs(60);

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const METHOD_NOT_FOUND: i64 = -32601;
const INVALID_PARAMS: i64 = -32602;
const INTERNAL_ERROR: i64 = -32603;
const HEADER_MISMATCH: i64 = -32020;
const UNSUPPORTED_VERSION: i64 = -32022;

/// Fails the test when `test` takes longer than [`TEST_LIMIT`].
async fn bounded(test: impl Future<Output = ()>) {
    if tokio::time::timeout(TEST_LIMIT, test).await.is_err() {
        panic!("the test took longer than {TEST_LIMIT:?}");
    }
}

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

/// Report progress 1..=count, a little apart, then answer.
#[codeagent::tool]
async fn steps(
    /// How many steps.
    count: u32,
    ctx: &Context,
) -> String {
    for step in 1..=count {
        tokio::time::sleep(Duration::from_millis(20)).await;
        ctx.progress(f64::from(step), Some(f64::from(count)), Some(&format!("step {step} of {count}")));
    }
    format!("{count} steps")
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

/// Today's forecast for a city, as served from a cloud region.
#[codeagent::tool(read_only)]
fn forecast(
    /// The city.
    city: String,
    /// The region serving the request; HTTP clients mirror it into `Mcp-Param-Region`.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: Option<String>,
) -> String {
    format!("{city}: sunny (from {})", region.as_deref().unwrap_or("any region"))
}

/// What [`wait`] saw, per key: "cancelled" when `ctx.cancelled()` fired while
/// it waited, "dropped (cancelled)" / "dropped" when its future was dropped
/// with / without the cancellation signal set, "finished" when it ran out.
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

/// Waits until something was observed under `key`, for at most `limit`.
async fn observed_within(key: &str, limit: Duration) -> Vec<&'static str> {
    let deadline = Instant::now() + limit;
    loop {
        let seen = observed(key);
        if !seen.is_empty() || Instant::now() > deadline {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

struct WaitGuard {
    key: String,
    ctx: Context,
    settled: bool,
}

impl Drop for WaitGuard {
    fn drop(&mut self) {
        if !self.settled {
            observe(&self.key, if self.ctx.is_cancelled() { "dropped (cancelled)" } else { "dropped" });
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
    let mut guard = WaitGuard { key: key.clone(), ctx: ctx.clone(), settled: false };
    ctx.progress(1.0, None, Some("started"));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(ms)) => {
            guard.settled = true;
            observe(&key, "finished");
            Ok(format!("waited {ms} ms"))
        }
        () = ctx.cancelled() => {
            guard.settled = true;
            observe(&key, "cancelled");
            Err(ToolError::new("cancelled"))
        }
    }
}

/// A tool added while serving.
#[codeagent::tool]
fn late() -> String {
    "late".to_owned()
}

fn toolbox() -> Toolbox {
    Toolbox::new().tool(add).tool(steps).tool(chatty).tool(forecast).tool(wait)
}

fn server() -> Server {
    Server::new(toolbox()).name("http-test").version("1.0.0")
}

// ---------------------------------------------------------------------------
// Servers
// ---------------------------------------------------------------------------

/// A server listening on a free loopback port; stops accepting when dropped.
struct Endpoint {
    addr: SocketAddr,
    toolbox: Toolbox,
    task: JoinHandle<()>,
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn start(server: Server, options: HttpOptions) -> Endpoint {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binding 127.0.0.1:0");
    let addr = listener.local_addr().unwrap();
    let toolbox = server.toolbox().clone();
    let router = server.http_router(options);
    let task = tokio::spawn(async move {
        axum::serve(listener, router).await.expect("serving");
    });
    Endpoint { addr, toolbox, task }
}

async fn endpoint() -> Endpoint {
    start(server(), HttpOptions::new()).await
}

// ---------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------

/// Aborts a connection's task (closing the socket) when dropped.
struct Connection(JoinHandle<()>);

impl Drop for Connection {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// One HTTP request to `/mcp`, built header by header.
struct Call {
    addr: SocketAddr,
    method: Method,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

const ACCEPT_BOTH: &str = "application/json, text/event-stream";

/// A POST with the headers every client sends: `Host`, JSON content, and
/// `Accept` listing both JSON and SSE.
fn post(addr: SocketAddr) -> Call {
    Call::new(addr, Method::POST).header("content-type", "application/json").header("accept", ACCEPT_BOTH)
}

/// A GET asking for the SSE stream.
fn get(addr: SocketAddr) -> Call {
    Call::new(addr, Method::GET).header("accept", "text/event-stream")
}

fn delete(addr: SocketAddr) -> Call {
    Call::new(addr, Method::DELETE)
}

impl Call {
    fn new(addr: SocketAddr, method: Method) -> Call {
        Call { addr, method, headers: vec![("host".into(), addr.to_string())], body: Vec::new() }
    }

    /// Sets header `name` (replacing an earlier value).
    fn header(mut self, name: &str, value: impl Into<String>) -> Call {
        self.headers.retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
        self.headers.push((name.to_owned(), value.into()));
        self
    }

    /// Removes header `name`.
    fn without(mut self, name: &str) -> Call {
        self.headers.retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
        self
    }

    fn json(mut self, message: &Value) -> Call {
        self.body = message.to_string().into_bytes();
        self
    }

    fn bytes(mut self, body: impl Into<Vec<u8>>) -> Call {
        self.body = body.into();
        self
    }

    async fn send(self) -> Response {
        let stream = tokio::time::timeout(WAIT, TcpStream::connect(self.addr))
            .await
            .expect("connecting timed out")
            .unwrap_or_else(|error| panic!("connecting to {}: {error}", self.addr));
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.expect("HTTP handshake");
        let connection = Connection(tokio::spawn(async move {
            let _ = connection.await;
        }));
        let mut request = Request::builder().method(self.method.clone()).uri("/mcp");
        for (name, value) in &self.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        let request = request.body(Full::new(Bytes::from(self.body))).expect("a valid request");
        let response = tokio::time::timeout(WAIT, sender.send_request(request))
            .await
            .unwrap_or_else(|_| panic!("no response headers within {WAIT:?}"))
            .expect("the server answered");
        let (parts, body) = response.into_parts();
        Response { status: parts.status, headers: parts.headers, body, connection }
    }
}

/// A response whose body has not been read yet. Dropping it closes the connection.
struct Response {
    status: StatusCode,
    headers: HeaderMap,
    body: Incoming,
    connection: Connection,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|value| value.to_str().expect("a visible ASCII header value"))
    }

    fn content_type(&self) -> &str {
        self.header("content-type").unwrap_or_default()
    }

    fn is_sse(&self) -> bool {
        self.content_type().starts_with("text/event-stream")
    }

    async fn bytes(self) -> Bytes {
        let Response { body, connection, .. } = self;
        let collected = tokio::time::timeout(WAIT, body.collect())
            .await
            .unwrap_or_else(|_| panic!("no complete body within {WAIT:?}"))
            .expect("reading the body");
        drop(connection);
        collected.to_bytes()
    }

    /// The JSON body; asserts `Content-Type: application/json`.
    async fn json(self) -> Value {
        assert!(
            self.content_type().starts_with("application/json"),
            "a JSON body, not {:?} (status {})",
            self.content_type(),
            self.status
        );
        let bytes = self.bytes().await;
        serde_json::from_slice(&bytes)
            .unwrap_or_else(|error| panic!("the body is not JSON ({error}): {}", String::from_utf8_lossy(&bytes)))
    }

    /// The SSE stream; asserts `Content-Type: text/event-stream`.
    fn sse(self) -> Sse {
        assert_eq!(self.status, StatusCode::OK, "an SSE stream is a 200");
        assert!(self.is_sse(), "an SSE stream, not {:?}", self.content_type());
        Sse { body: self.body, buffer: Vec::new(), ended: false, _connection: self.connection }
    }

    /// The JSON-RPC messages of a response to one request, as JSON or SSE:
    /// the notifications that came before the response, then the response.
    /// For SSE, reads to the end of the stream, so every message must have
    /// arrived before the stream ended, and nothing may follow the response.
    async fn exchange(self) -> (Vec<Value>, Value) {
        if !self.is_sse() {
            return (Vec::new(), self.json().await);
        }
        let mut stream = self.sse();
        let mut notes = Vec::new();
        let mut response = None;
        while let Some(message) = stream.next_message().await {
            assert!(response.is_none(), "nothing may follow the response on its stream: {message}");
            if message.get("id").is_some() {
                response = Some(message);
            } else {
                notes.push(message);
            }
        }
        (notes, response.expect("the response before the stream ended"))
    }
}

/// One server-sent event.
#[derive(Debug, Default, Clone)]
struct Event {
    id: Option<String>,
    event: Option<String>,
    data: Option<String>,
    retry: Option<u64>,
}

impl Event {
    fn message(&self) -> Value {
        let data = self.data.as_deref().unwrap_or_default();
        serde_json::from_str(data).unwrap_or_else(|error| panic!("SSE data is not JSON ({error}): {data:?}"))
    }

    fn has_message(&self) -> bool {
        self.data.as_deref().is_some_and(|data| !data.is_empty())
    }
}

/// An SSE response body, read event by event.
struct Sse {
    body: Incoming,
    buffer: Vec<u8>,
    ended: bool,
    _connection: Connection,
}

impl Sse {
    /// The next event (comments such as keep-alives skipped), or `None` when
    /// the stream ended. Fails after [`WAIT`] without one.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.buffer.windows(2).position(|pair| pair == b"\n\n") {
                let block: Vec<u8> = self.buffer.drain(..end + 2).collect();
                let block = String::from_utf8(block).expect("UTF-8 events");
                if let Some(event) = parse_event(&block) {
                    return Some(event);
                }
                continue;
            }
            if self.ended {
                let rest = String::from_utf8_lossy(&self.buffer);
                assert!(rest.trim().is_empty(), "the stream ended inside an event: {rest:?}");
                return None;
            }
            match tokio::time::timeout(WAIT, self.body.frame()).await {
                Err(_) => panic!(
                    "no SSE event (nor the end of the stream) within {WAIT:?}; buffered: {:?}",
                    String::from_utf8_lossy(&self.buffer)
                ),
                Ok(None) => self.ended = true,
                Ok(Some(Err(error))) => panic!("the SSE stream broke: {error}"),
                Ok(Some(Ok(frame))) => {
                    if let Ok(data) = frame.into_data() {
                        self.buffer.extend(data.iter().copied().filter(|byte| *byte != b'\r'));
                    }
                }
            }
        }
    }

    /// The next event carrying a JSON-RPC message (skipping SEP-1699 priming
    /// events, whose data is empty), or `None` at the end of the stream.
    async fn next_message(&mut self) -> Option<Value> {
        loop {
            let event = self.next().await?;
            if event.has_message() {
                assert_eq!(event.event.as_deref().unwrap_or("message"), "message", "{event:?}");
                return Some(event.message());
            }
        }
    }

    /// Every remaining event, to the end of the stream.
    async fn rest(mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            events.push(event);
        }
        events
    }
}

fn parse_event(block: &str) -> Option<Event> {
    let mut event = Event::default();
    let mut any = false;
    for line in block.lines() {
        if line.is_empty() || line.starts_with(':') {
            continue;
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        any = true;
        match field {
            "id" => event.id = Some(value.to_owned()),
            "event" => event.event = Some(value.to_owned()),
            "retry" => event.retry = Some(value.parse().expect("a numeric retry")),
            "data" => match &mut event.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => event.data = Some(value.to_owned()),
            },
            _ => {}
        }
    }
    any.then_some(event)
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

/// `message` with a null error id removed (2025-11-25 on, where the id is
/// optional) or replaced by 0 (before, where it is required).
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

/// Checks an error response of `version` and returns its code.
#[track_caller]
fn check_error(version: ProtocolVersion, message: &Value) -> i64 {
    let envelope = if version >= V2025_11 { "JSONRPCErrorResponse" } else { "JSONRPCError" };
    let shown = without_null_id(version, message);
    support::assert_valid(version.as_str(), envelope, &shown);
    let code = message["error"]["code"].as_i64().expect("an integer error code");
    assert!(
        matches!(code, -32700 | -32603..=-32600 | -32022..=-32020),
        "unexpected error code {code} (the spec's range -32020..-32099 has only its own codes): {message}"
    );
    assert!(message["error"]["message"].as_str().is_some_and(|text| !text.is_empty()), "an error message: {message}");
    if version == V2026 {
        match code {
            -32700 => support::assert_valid(version.as_str(), "ParseError", &message["error"]),
            -32600 => support::assert_valid(version.as_str(), "InvalidRequestError", &message["error"]),
            -32601 => support::assert_valid(version.as_str(), "MethodNotFoundError", &message["error"]),
            -32602 => support::assert_valid(version.as_str(), "InvalidParamsError", &message["error"]),
            -32603 => support::assert_valid(version.as_str(), "InternalError", &message["error"]),
            -32020 => support::assert_valid(version.as_str(), "HeaderMismatchError", &shown),
            -32022 => support::assert_valid(version.as_str(), "UnsupportedProtocolVersionError", &shown),
            _ => {}
        }
    }
    code
}

/// Checks a result response of `version` whose result is `definition`.
#[track_caller]
fn check_result(version: ProtocolVersion, definition: &str, message: &Value) {
    let envelope = if version >= V2025_11 { "JSONRPCResultResponse" } else { "JSONRPCResponse" };
    assert_schema(version, envelope, message);
    support::assert_valid(version.as_str(), definition, &message["result"]);
    if version == V2026 {
        assert_eq!(message["result"]["resultType"], "complete", "every 2026 result has resultType: {message}");
        assert_eq!(
            message["result"]["_meta"][SERVER_INFO_KEY],
            json!({"name": "http-test", "version": "1.0.0"}),
            "every 2026 result names the server: {message}"
        );
    } else {
        assert!(message["result"].get("resultType").is_none(), "no resultType in {version}: {message}");
    }
}

/// Checks a notification of `version`.
#[track_caller]
fn check_notification(version: ProtocolVersion, message: &Value) {
    assert_schema(version, "JSONRPCNotification", message);
    let definition = match message["method"].as_str().unwrap() {
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        other => panic!("unexpected notification {other} in {version}: {message}"),
    };
    let mut inner = message.clone();
    if version < V2025_11 {
        // Before 2025-11-25 the notification definitions leave `jsonrpc` to the envelope.
        inner.as_object_mut().unwrap().remove("jsonrpc");
    }
    support::assert_valid(version.as_str(), definition, &inner);
}

/// Asserts an HTTP error: `status`, a JSON body holding a JSON-RPC error with
/// `code` and id `id`, valid for `version`. Returns the message.
async fn expect_error(response: Response, status: StatusCode, code: i64, id: Value, version: ProtocolVersion) -> Value {
    assert_eq!(response.status, status, "status");
    let message = response.json().await;
    assert_eq!(message["error"]["code"], code, "error code: {message}");
    assert_eq!(message["id"], id, "error id: {message}");
    check_error(version, &message);
    message
}

// ---------------------------------------------------------------------------
// Legacy sessions
// ---------------------------------------------------------------------------

fn initialize_request(version: ProtocolVersion) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": version.as_str(),
            "capabilities": {},
            "clientInfo": {"name": "http-test-client", "version": "1.0.0"},
        },
    })
}

fn request(id: impl Into<Value>, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.into(), "method": method, "params": params})
}

/// A legacy session: the id from `initialize`, and the version negotiated.
struct Session {
    addr: SocketAddr,
    id: String,
    version: ProtocolVersion,
}

/// Initializes a session of `version` (and sends `notifications/initialized`).
async fn open_session(addr: SocketAddr, version: ProtocolVersion) -> Session {
    let response = post(addr).json(&initialize_request(version)).send().await;
    assert_eq!(response.status, StatusCode::OK);
    let id = response.header("mcp-session-id").expect("an Mcp-Session-Id header").to_owned();
    let message = response.json().await;
    check_result(version, "InitializeResult", &message);
    let session = Session { addr, id, version };
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = session.post().json(&initialized).send().await;
    assert_eq!(response.status, StatusCode::ACCEPTED);
    session
}

impl Session {
    /// A POST in this session: `Mcp-Session-Id`, and `MCP-Protocol-Version`
    /// from 2025-06-18 on.
    fn post(&self) -> Call {
        let call = post(self.addr).header("Mcp-Session-Id", &self.id);
        if self.version >= V2025_06 { call.header("MCP-Protocol-Version", self.version.as_str()) } else { call }
    }

    fn get(&self) -> Call {
        let call = get(self.addr).header("Mcp-Session-Id", &self.id);
        if self.version >= V2025_06 { call.header("MCP-Protocol-Version", self.version.as_str()) } else { call }
    }

    /// Sends a request accepting JSON only; asserts a 200 with a valid result.
    async fn call(&self, id: i64, method: &str, params: Value, definition: &str) -> Value {
        let response = self.post().header("accept", "application/json").json(&request(id, method, params)).send().await;
        assert_eq!(response.status, StatusCode::OK, "{method}");
        let message = response.json().await;
        assert_eq!(message["id"], id);
        check_result(self.version, definition, &message);
        message
    }
}

fn tool_names(listing: &Value) -> Vec<&str> {
    listing["result"]["tools"].as_array().expect("tools").iter().map(|tool| tool["name"].as_str().unwrap()).collect()
}

/// The text of a tool result's first content block.
fn first_text(message: &Value) -> &str {
    message["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("a text block: {message}"))
}

// ---------------------------------------------------------------------------
// Modern requests
// ---------------------------------------------------------------------------

fn modern_meta() -> Value {
    json!({
        PROTOCOL_VERSION_KEY: "2026-07-28",
        CLIENT_CAPABILITIES_KEY: {},
        CLIENT_INFO_KEY: {"name": "http-test-client", "version": "1.0.0"},
    })
}

/// A 2026-07-28 request: `params` with the required `_meta` keys added (to
/// any `_meta` keys given, such as a progress token).
fn modern(id: impl Into<Value>, method: &str, params: Value) -> Value {
    let mut params = params;
    let meta = params.as_object_mut().expect("params object").entry("_meta").or_insert_with(|| json!({}));
    let Value::Object(required) = modern_meta() else { unreachable!() };
    meta.as_object_mut().expect("a _meta object").extend(required);
    request(id, method, params)
}

/// A POST of a modern request with the headers mirroring its body:
/// `MCP-Protocol-Version`, `Mcp-Method` and, where required, `Mcp-Name`.
fn modern_post(addr: SocketAddr, message: &Value) -> Call {
    let method = message["method"].as_str().expect("a method");
    let version = message["params"]["_meta"][PROTOCOL_VERSION_KEY].as_str().unwrap_or("2026-07-28");
    let mut call = post(addr).header("MCP-Protocol-Version", version).header("Mcp-Method", method).json(message);
    let name = match method {
        "tools/call" | "prompts/get" => message["params"]["name"].as_str(),
        "resources/read" => message["params"]["uri"].as_str(),
        _ => None,
    };
    if let Some(name) = name {
        call = call.header("Mcp-Name", name);
    }
    call
}

/// Sends a modern request; asserts a 200 whose response (JSON or SSE) is a
/// valid `definition` result, and returns it.
async fn modern_ok(addr: SocketAddr, message: &Value, definition: &str) -> Value {
    let response = modern_post(addr, message).send().await;
    assert_eq!(response.status, StatusCode::OK, "{}", message["method"]);
    assert!(response.header("mcp-session-id").is_none(), "2026-07-28 never mints session ids");
    let (notes, response) = response.exchange().await;
    assert!(notes.is_empty(), "no notifications were asked for: {notes:?}");
    assert_eq!(response["id"], message["id"]);
    check_result(V2026, definition, &response);
    response
}

// ===========================================================================
// Legacy Streamable HTTP (2025-03-26 to 2025-11-25)
// ===========================================================================

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_initialize_opens_a_session() {
    bounded(async {
        let served = endpoint().await;
        let mut ids = Vec::new();
        for version in [V2025_03, V2025_06, V2025_11] {
            let response = post(served.addr).json(&initialize_request(version)).send().await;
            assert_eq!(response.status, StatusCode::OK);
            let id = response.header("mcp-session-id").expect("an Mcp-Session-Id header").to_owned();
            assert!(!id.is_empty() && id.bytes().all(|byte| (0x21..=0x7e).contains(&byte)), "visible ASCII: {id:?}");
            ids.push(id);
            let message = response.json().await;
            assert_eq!(message["id"], 0);
            check_result(version, "InitializeResult", &message);
            assert_eq!(message["result"]["protocolVersion"], version.as_str(), "the asked version is echoed");
            assert_eq!(message["result"]["serverInfo"]["name"], "http-test");
            assert!(message["result"]["capabilities"]["tools"].is_object());
        }
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 3, "every session gets its own id");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_initialized_notification_is_202() {
    bounded(async {
        let served = endpoint().await;
        let response = post(served.addr).json(&initialize_request(V2025_11)).send().await;
        let id = response.header("mcp-session-id").unwrap().to_owned();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let response = post(served.addr)
            .header("Mcp-Session-Id", &id)
            .header("MCP-Protocol-Version", "2025-11-25")
            .json(&initialized)
            .send()
            .await;
        assert_eq!(response.status, StatusCode::ACCEPTED);
        assert!(response.bytes().await.is_empty(), "a 202 has no body");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_tools_list_in_a_session_is_json() {
    bounded(async {
        let served = endpoint().await;
        for version in [V2025_03, V2025_06, V2025_11] {
            let session = open_session(served.addr, version).await;
            let listing = session.call(1, "tools/list", json!({}), "ListToolsResult").await;
            assert_eq!(tool_names(&listing), ["add", "steps", "chatty", "forecast", "wait"]);
            let sum =
                session.call(2, "tools/call", json!({"name": "add", "arguments": {"a": 2, "b": 3}}), "CallToolResult");
            assert_eq!(first_text(&sum.await), "5");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_request_without_a_session_is_400() {
    bounded(async {
        let served = endpoint().await;
        let response = post(served.addr)
            .header("MCP-Protocol-Version", "2025-11-25")
            .json(&request(1, "tools/list", json!({})))
            .send()
            .await;
        // The error carries the request's id, which the server could read.
        let message = expect_error(response, StatusCode::BAD_REQUEST, INVALID_REQUEST, json!(1), V2025_11).await;
        assert!(message["error"]["message"].as_str().unwrap().contains("Mcp-Session-Id"), "{message}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_unknown_session_is_404() {
    bounded(async {
        let served = endpoint().await;
        let response = post(served.addr)
            .header("Mcp-Session-Id", "no-such-session")
            .header("MCP-Protocol-Version", "2025-11-25")
            .json(&request(7, "tools/list", json!({})))
            .send()
            .await;
        expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, json!(7), V2025_11).await;
        let response = get(served.addr).header("Mcp-Session-Id", "no-such-session").send().await;
        expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, Value::Null, V2025_11).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_delete_ends_the_session() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        session.call(1, "tools/list", json!({}), "ListToolsResult").await;
        let response = delete(served.addr).header("Mcp-Session-Id", &session.id).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let response = session.post().json(&request(2, "tools/list", json!({}))).send().await;
        expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, json!(2), V2025_11).await;
        let response = delete(served.addr).header("Mcp-Session-Id", &session.id).send().await;
        expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, Value::Null, V2025_11).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_unsupported_protocol_version_header_is_400() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_06).await;
        for bad in ["1999-01-01", "not-a-version"] {
            let response = session
                .post()
                .header("MCP-Protocol-Version", bad)
                .json(&request(3, "tools/list", json!({})))
                .send()
                .await;
            assert_eq!(response.status, StatusCode::BAD_REQUEST, "MCP-Protocol-Version: {bad}");
            let message = response.json().await;
            check_error(V2025_11, &message);
            assert!(message["error"]["message"].as_str().unwrap().contains("MCP-Protocol-Version"), "{message}");
        }
        // The session still works with the right header.
        session.call(4, "tools/list", json!({}), "ListToolsResult").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_progress_goes_on_the_request_sse_stream() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_06).await;
        let call = request(
            5,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 3}, "_meta": {"progressToken": "tok-5"}}),
        );
        let response = session.post().header("accept", ACCEPT_BOTH).json(&call).send().await;
        assert_eq!(response.status, StatusCode::OK);
        assert!(response.is_sse(), "an SSE answer: {:?}", response.content_type());
        let (notes, message) = response.exchange().await;
        let progress: Vec<f64> = notes
            .iter()
            .map(|note| {
                check_notification(V2025_06, note);
                assert_eq!(note["method"], "notifications/progress", "{note}");
                assert_eq!(note["params"]["progressToken"], "tok-5", "the token is echoed: {note}");
                note["params"]["progress"].as_f64().unwrap()
            })
            .collect();
        assert_eq!(progress, [1.0, 2.0, 3.0]);
        assert_eq!(message["id"], 5);
        check_result(V2025_06, "CallToolResult", &message);
        assert_eq!(first_text(&message), "3 steps");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_json_only_accept_gets_a_json_answer() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_06).await;
        let call = request(
            6,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 2}, "_meta": {"progressToken": "tok-6"}}),
        );
        let response = session.post().header("accept", "application/json").json(&call).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let message = response.json().await;
        assert_eq!(message["id"], 6);
        check_result(V2025_06, "CallToolResult", &message);
        assert_eq!(first_text(&message), "2 steps");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_get_stream_receives_list_changed() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        let mut stream = session.get().send().await.sse();
        // Give the stream's task a moment to subscribe to the toolbox: the GET
        // handler (server/http/routes.rs) subscribes inside a spawned task, so
        // a change made right after the headers arrive can be missed (without
        // this pause 3 runs in 40 missed the notification).
        tokio::time::sleep(Duration::from_millis(200)).await;
        served.toolbox.try_add(late).expect("adding a tool");
        let note = stream.next_message().await.expect("a notification on the GET stream");
        check_notification(V2025_11, &note);
        assert_eq!(note["method"], "notifications/tools/list_changed");
        assert!(note.get("id").is_none());
        // The listing has the new tool; ending the session ends the stream.
        let listing = session.call(1, "tools/list", json!({}), "ListToolsResult").await;
        assert!(tool_names(&listing).contains(&"late"));
        let response = delete(served.addr).header("Mcp-Session-Id", &session.id).send().await;
        assert_eq!(response.status, StatusCode::OK);
        assert!(stream.rest().await.iter().all(|event| !event.has_message()), "the stream ends with the session");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_get_without_a_session_is_405() {
    bounded(async {
        let served = endpoint().await;
        let response = get(served.addr).send().await;
        assert_eq!(response.header("allow"), Some("POST"));
        expect_error(response, StatusCode::METHOD_NOT_ALLOWED, INVALID_REQUEST, Value::Null, V2025_11).await;
        let response = delete(served.addr).send().await;
        expect_error(response, StatusCode::METHOD_NOT_ALLOWED, INVALID_REQUEST, Value::Null, V2025_11).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_resumable_stream_primes_and_replays_after_last_event_id() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        let call = request(
            8,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 4}, "_meta": {"progressToken": "tok-8"}}),
        );
        let mut stream = session.post().json(&call).send().await.sse();
        let priming = stream.next().await.expect("a priming event");
        let stream_id = priming.id.clone().expect("the priming event has an id");
        assert_eq!(priming.data.as_deref(), Some(""), "the priming event's data is empty: {priming:?}");
        assert!(priming.retry.is_some(), "the priming event says when to reconnect: {priming:?}");
        let first = stream.next().await.expect("the first progress event");
        let first_id = first.id.clone().expect("every event has an id");
        assert_ne!(first_id, stream_id);
        let note = first.message();
        check_notification(V2025_11, &note);
        assert_eq!(note["params"]["progress"], 1.0);
        // The client loses the connection; the request goes on (in legacy
        // sessions a disconnect is not a cancellation).
        drop(stream);
        let resumed = session.get().header("Last-Event-ID", &first_id).send().await.sse();
        let events = resumed.rest().await;
        let messages: Vec<Value> = events.iter().filter(|event| event.has_message()).map(Event::message).collect();
        assert!(events.iter().filter(|event| event.has_message()).all(|event| event.id.is_some()), "{events:?}");
        let (response, notes) = messages.split_last().expect("replayed messages");
        let progress: Vec<&Value> = notes.iter().map(|note| &note["params"]["progress"]).collect();
        assert_eq!(progress, [2.0, 3.0, 4.0], "the rest of the stream, without what was seen: {messages:?}");
        for note in notes {
            check_notification(V2025_11, note);
            assert_eq!(note["params"]["progressToken"], "tok-8");
        }
        assert_eq!(response["id"], 8);
        check_result(V2025_11, "CallToolResult", response);
        assert_eq!(first_text(response), "4 steps");
        let ids: Vec<&str> = events.iter().filter_map(|event| event.id.as_deref()).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "event ids are unique: {ids:?}");
        assert!(!ids.contains(&first_id.as_str()), "the event already seen is not replayed");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_set_level_filters_log_messages_on_the_call_stream() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        session.call(1, "logging/setLevel", json!({"level": "warning"}), "EmptyResult").await;
        let response =
            session.post().json(&request(2, "tools/call", json!({"name": "chatty", "arguments": {}}))).send().await;
        let (notes, message) = response.exchange().await;
        for note in &notes {
            check_notification(V2025_11, note);
            assert_eq!(note["method"], "notifications/message");
        }
        let levels: Vec<&str> = notes.iter().map(|note| note["params"]["level"].as_str().unwrap()).collect();
        assert_eq!(levels, ["warning", "error"], "only messages at or above the level set: {notes:?}");
        assert_eq!(notes[0]["params"]["data"], "a warning message");
        check_result(V2025_11, "CallToolResult", &message);
        assert_eq!(first_text(&message), "logged");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_batch_in_a_2025_03_26_session_is_one_json_array() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_03).await;
        let batch = json!([
            request(1, "tools/list", json!({})),
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "x", "progress": 1}},
            request(2, "tools/call", json!({"name": "add", "arguments": {"a": 20, "b": 22}})),
            request(3, "no/such/method", json!({})),
        ]);
        assert_schema(V2025_03, "JSONRPCBatchRequest", &batch);
        let response = session.post().json(&batch).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let answer = response.json().await;
        assert_schema(V2025_03, "JSONRPCBatchResponse", &answer);
        let answers = answer.as_array().expect("one JSON array");
        assert_eq!(answers.len(), 3, "one response per request: {answer}");
        let by_id = |id: i64| answers.iter().find(|message| message["id"] == id).expect("a response per id");
        check_result(V2025_03, "ListToolsResult", by_id(1));
        check_result(V2025_03, "CallToolResult", by_id(2));
        assert_eq!(first_text(by_id(2)), "42");
        assert_eq!(check_error(V2025_03, by_id(3)), METHOD_NOT_FOUND);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_batch_in_a_2025_11_25_session_is_400() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        let batch = json!([request(1, "tools/list", json!({})), request(2, "tools/list", json!({}))]);
        let response = session.post().json(&batch).send().await;
        let message = expect_error(response, StatusCode::BAD_REQUEST, INVALID_REQUEST, Value::Null, V2025_11).await;
        assert!(message["error"]["message"].as_str().unwrap().contains("batch"), "{message}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_cancelled_notification_ends_the_call_stream_without_a_result() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_06).await;
        // Several rounds: whether a result slips out can depend on scheduling.
        for round in 0..6 {
            let key = format!("legacy-cancel-{round}");
            let id = 100 + round;
            let call = request(
                id,
                "tools/call",
                json!({"name": "wait", "arguments": {"key": key, "ms": 20_000}, "_meta": {"progressToken": key}}),
            );
            let mut stream = session.post().json(&call).send().await.sse();
            let started = stream.next_message().await.expect("the tool reports it started");
            assert_eq!(started["params"]["message"], "started");
            let cancel = json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "the user changed their mind"},
            });
            let response = session.post().json(&cancel).send().await;
            assert_eq!(response.status, StatusCode::ACCEPTED);
            let mut after = Vec::new();
            while let Some(message) = stream.next_message().await {
                after.push(message);
            }
            assert!(
                after.iter().all(|message| message.get("id").is_none()),
                "round {round}: a cancelled request gets no response, but the stream carried {after:?}"
            );
            let seen = observed_within(&key, WAIT).await;
            assert!(
                seen == ["cancelled"] || seen == ["dropped (cancelled)"],
                "round {round}: the tool saw the cancellation: {seen:?}"
            );
        }
    })
    .await;
}

// ===========================================================================
// Modern Streamable HTTP (2026-07-28)
// ===========================================================================

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_server_discover() {
    bounded(async {
        let served = endpoint().await;
        let message = modern_ok(served.addr, &modern(1, "server/discover", json!({})), "DiscoverResult").await;
        let result = &message["result"];
        let supported = result["supportedVersions"].as_array().unwrap();
        assert!(supported.contains(&json!("2026-07-28")), "{result}");
        assert!(supported.contains(&json!("2025-11-25")), "a dual-era server lists legacy versions too: {result}");
        assert!(result["capabilities"]["tools"].is_object());
        assert!(result["ttlMs"].as_u64().is_some() && result["cacheScope"].is_string(), "cacheable: {result}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_tools_list_and_call() {
    bounded(async {
        let served = endpoint().await;
        let listing = modern_ok(served.addr, &modern(1, "tools/list", json!({})), "ListToolsResult").await;
        assert_eq!(tool_names(&listing), ["add", "steps", "chatty", "forecast", "wait"]);
        assert!(listing["result"]["ttlMs"].is_u64() && listing["result"]["cacheScope"].is_string());
        let call = modern(2, "tools/call", json!({"name": "add", "arguments": {"a": 2, "b": 40}}));
        let sum = modern_ok(served.addr, &call, "CallToolResult").await;
        assert_eq!(first_text(&sum), "42");
        // Progress goes on the call's own stream.
        let call = modern(
            3,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 2}, "_meta": {"progressToken": 33}}),
        );
        let response = modern_post(served.addr, &call).send().await;
        assert_eq!(response.header("x-accel-buffering"), Some("no"));
        let (notes, message) = response.exchange().await;
        assert_eq!(notes.len(), 2, "{notes:?}");
        for note in &notes {
            check_notification(V2026, note);
            assert_eq!(note["params"]["progressToken"], 33);
        }
        check_result(V2026, "CallToolResult", &message);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_tools_call_answers_json_when_only_json_is_accepted() {
    bounded(async {
        let served = endpoint().await;
        for (id, name, arguments, text) in [
            (1, "add", json!({"a": 1, "b": 2}), "3"),
            (2, "steps", json!({"count": 3}), "3 steps"),
            (3, "add", json!({"a": 2, "b": 2}), "4"),
        ] {
            let call = modern(id, "tools/call", json!({"name": name, "arguments": arguments}));
            let response = modern_post(served.addr, &call).header("accept", "application/json").send().await;
            assert_eq!(response.status, StatusCode::OK, "tools/call {name} answered as JSON");
            let message = response.json().await;
            check_result(V2026, "CallToolResult", &message);
            assert_eq!(first_text(&message), text);
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_missing_protocol_version_header_is_400_header_mismatch() {
    bounded(async {
        let served = endpoint().await;
        let message = modern(4, "tools/list", json!({}));
        let response = modern_post(served.addr, &message).without("MCP-Protocol-Version").send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(4), V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().to_ascii_lowercase().contains("mcp-protocol-version"));
        // A header naming another version than the body is a mismatch too.
        let response = modern_post(served.addr, &message).header("MCP-Protocol-Version", "2025-11-25").send().await;
        expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(4), V2026).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_missing_or_wrong_method_header_is_400_header_mismatch() {
    bounded(async {
        let served = endpoint().await;
        let message = modern(5, "tools/list", json!({}));
        let response = modern_post(served.addr, &message).without("Mcp-Method").send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(5), V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().to_ascii_lowercase().contains("mcp-method"));
        for wrong in ["tools/call", "TOOLS/LIST"] {
            let response = modern_post(served.addr, &message).header("Mcp-Method", wrong).send().await;
            expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(5), V2026).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_missing_or_mismatching_name_header_is_400_header_mismatch() {
    bounded(async {
        let served = endpoint().await;
        let call = modern(6, "tools/call", json!({"name": "add", "arguments": {"a": 1, "b": 1}}));
        let response = modern_post(served.addr, &call).header("Mcp-Name", "greet").send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(6), V2026).await;
        let text = error["error"]["message"].as_str().unwrap();
        assert!(text.contains("greet") && text.contains("add"), "the mismatch is named: {text}");
        let response = modern_post(served.addr, &call).without("Mcp-Name").send().await;
        expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(6), V2026).await;
        // Base64-sentinel values are decoded before comparing.
        let encoded = format!("=?base64?{}?=", support::base64_encode("add"));
        let response = modern_post(served.addr, &call).header("Mcp-Name", encoded).send().await;
        assert_eq!(response.status, StatusCode::OK);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_unsupported_version_is_400_with_the_supported_versions() {
    bounded(async {
        let served = endpoint().await;
        let mut message = modern(7, "server/discover", json!({}));
        message["params"]["_meta"][PROTOCOL_VERSION_KEY] = json!("2099-01-01");
        let response = modern_post(served.addr, &message).send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, UNSUPPORTED_VERSION, json!(7), V2026).await;
        assert_eq!(error["error"]["data"]["requested"], "2099-01-01");
        let supported = error["error"]["data"]["supported"].as_array().expect("data.supported");
        assert!(supported.contains(&json!("2026-07-28")), "{error}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_missing_meta_is_400_invalid_params_with_the_request_id() {
    bounded(async {
        let served = endpoint().await;
        // No `_meta` at all, the version only in the header.
        let bare = request("no-meta", "tools/list", json!({}));
        let response = modern_post(served.addr, &bare).send().await;
        expect_error(response, StatusCode::BAD_REQUEST, INVALID_PARAMS, json!("no-meta"), V2026).await;
        // `_meta` without the client's capabilities.
        let mut partial = modern("no-caps", "tools/list", json!({}));
        partial["params"]["_meta"].as_object_mut().unwrap().remove(CLIENT_CAPABILITIES_KEY);
        let response = modern_post(served.addr, &partial).send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, INVALID_PARAMS, json!("no-caps"), V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().contains(CLIENT_CAPABILITIES_KEY), "{error}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_removed_method_is_404_method_not_found() {
    bounded(async {
        let served = endpoint().await;
        for method in ["ping", "logging/setLevel", "initialize/nope"] {
            let message = modern(8, method, json!({}));
            let response = modern_post(served.addr, &message).send().await;
            expect_error(response, StatusCode::NOT_FOUND, METHOD_NOT_FOUND, json!(8), V2026).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_x_mcp_header_argument_is_accepted_plain_base64_or_absent() {
    bounded(async {
        let served = endpoint().await;
        let listing = modern_ok(served.addr, &modern(1, "tools/list", json!({})), "ListToolsResult").await;
        let listed = listing["result"]["tools"].as_array().unwrap().iter().find(|tool| tool["name"] == "forecast");
        let region = &listed.expect("the forecast tool")["inputSchema"]["properties"]["region"];
        assert_eq!(region["x-mcp-header"], "Region", "the annotation is listed: {region}");

        let plain =
            modern(2, "tools/call", json!({"name": "forecast", "arguments": {"city": "Oslo", "region": "us-west1"}}));
        let response = modern_post(served.addr, &plain).header("Mcp-Param-Region", "us-west1").send().await;
        assert_eq!(response.status, StatusCode::OK);
        let (_, message) = response.exchange().await;
        check_result(V2026, "CallToolResult", &message);
        assert_eq!(first_text(&message), "Oslo: sunny (from us-west1)");

        // A value that is not a plain token travels base64-encoded.
        let value = "zürich 1";
        let encoded = format!("=?base64?{}?=", support::base64_encode(value));
        let call = modern(3, "tools/call", json!({"name": "forecast", "arguments": {"city": "Bern", "region": value}}));
        let response = modern_post(served.addr, &call).header("Mcp-Param-Region", encoded).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let (_, message) = response.exchange().await;
        assert_eq!(first_text(&message), "Bern: sunny (from zürich 1)");

        // Without the argument, no header is expected (absent or null).
        for arguments in [json!({"city": "Rome"}), json!({"city": "Rome", "region": null})] {
            let call = modern(4, "tools/call", json!({"name": "forecast", "arguments": arguments}));
            let response = modern_post(served.addr, &call).send().await;
            assert_eq!(response.status, StatusCode::OK);
            let (_, message) = response.exchange().await;
            check_result(V2026, "CallToolResult", &message);
            assert_eq!(first_text(&message), "Rome: sunny (from any region)");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_x_mcp_header_missing_or_mismatching_is_400_header_mismatch() {
    bounded(async {
        let served = endpoint().await;
        let call =
            modern(5, "tools/call", json!({"name": "forecast", "arguments": {"city": "Oslo", "region": "us-west1"}}));
        let response = modern_post(served.addr, &call).send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(5), V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().contains("Mcp-Param-Region"), "{error}");
        for wrong in ["eu-central1", "US-WEST1", "=?base64?dXMtZWFzdDE=?=", "=?base64?not base64!?="] {
            let response = modern_post(served.addr, &call).header("Mcp-Param-Region", wrong).send().await;
            expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(5), V2026).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_closing_the_stream_cancels_the_tool() {
    bounded(async {
        let served = endpoint().await;
        let key = "modern-disconnect";
        let call = modern(
            9,
            "tools/call",
            json!({"name": "wait", "arguments": {"key": key, "ms": 20_000}, "_meta": {"progressToken": "p9"}}),
        );
        let mut stream = modern_post(served.addr, &call).send().await.sse();
        let started = stream.next_message().await.expect("the tool reports it started");
        check_notification(V2026, &started);
        assert!(observed(key).is_empty());
        drop(stream);
        let seen = observed_within(key, Duration::from_secs(5)).await;
        assert!(!seen.is_empty(), "the server did not notice the closed stream: the tool is still running");
        assert_eq!(seen, ["cancelled"], "the tool's ctx.cancelled() fired when the client closed the stream");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_two_instances_behind_a_load_balancer() {
    bounded(async {
        let instances = [endpoint().await, endpoint().await];
        assert_ne!(instances[0].addr, instances[1].addr);
        let mut discovered = Vec::new();
        let mut listings = Vec::new();
        for i in 0..20_i64 {
            let addr = instances[(i % 2) as usize].addr;
            let discover = modern_ok(addr, &modern(i * 10, "server/discover", json!({})), "DiscoverResult").await;
            discovered.push(discover["result"].clone());
            let listing = modern_ok(addr, &modern(i * 10 + 1, "tools/list", json!({})), "ListToolsResult").await;
            listings.push(listing["result"].clone());
            let call = modern(i * 10 + 2, "tools/call", json!({"name": "add", "arguments": {"a": i, "b": 1000}}));
            let sum = modern_ok(addr, &call, "CallToolResult").await;
            assert_eq!(first_text(&sum), (i + 1000).to_string());
        }
        assert!(discovered.iter().all(|result| *result == discovered[0]), "identical discovery on both instances");
        assert!(listings.iter().all(|result| *result == listings[0]), "identical listings on both instances");
    })
    .await;
}

// ===========================================================================
// Security
// ===========================================================================

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_foreign_host_is_403() {
    bounded(async {
        let served = endpoint().await;
        let discover = modern(1, "server/discover", json!({}));
        for host in ["evil.example.com", "evil.example.com:80", "127.0.0.1.evil.example.com"] {
            let response = modern_post(served.addr, &discover).header("host", host).send().await;
            let error = expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2026).await;
            assert!(error["error"]["message"].as_str().unwrap().contains("Host"), "{error}");
        }
        let response = post(served.addr).header("host", "evil.example.com").json(&initialize_request(V2025_11)).send();
        let response = response.await;
        assert!(response.header("mcp-session-id").is_none(), "no session for a refused request");
        expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2025_11).await;
        let response = get(served.addr).header("host", "evil.example.com").send().await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_foreign_origin_is_403() {
    bounded(async {
        let served = endpoint().await;
        let discover = modern(1, "server/discover", json!({}));
        for origin in ["http://evil.example.com", "https://evil.example.com:8443", "null"] {
            let response = modern_post(served.addr, &discover).header("origin", origin).send().await;
            let error = expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2026).await;
            assert!(error["error"]["message"].as_str().unwrap().contains("Origin"), "{error}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_loopback_hosts_and_origins_are_allowed() {
    bounded(async {
        let served = endpoint().await;
        let port = served.addr.port();
        let discover = modern(1, "server/discover", json!({}));
        for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), "localhost".to_owned()] {
            let response = modern_post(served.addr, &discover).header("host", &host).send().await;
            assert_eq!(response.status, StatusCode::OK, "Host: {host}");
            check_result(V2026, "DiscoverResult", &response.json().await);
        }
        for origin in [format!("http://localhost:{port}"), format!("http://127.0.0.1:{port}")] {
            let response = modern_post(served.addr, &discover).header("origin", &origin).send().await;
            assert_eq!(response.status, StatusCode::OK, "Origin: {origin}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_custom_host_allow_list() {
    bounded(async {
        let served = start(server(), HttpOptions::new().allow_hosts(["mcp.example.com"])).await;
        let discover = modern(1, "server/discover", json!({}));
        let response = modern_post(served.addr, &discover).header("host", "mcp.example.com").send().await;
        assert_eq!(response.status, StatusCode::OK);
        let response = modern_post(served.addr, &discover)
            .header("host", "mcp.example.com:443")
            .header("origin", "https://mcp.example.com")
            .send()
            .await;
        assert_eq!(response.status, StatusCode::OK);
        // The list replaces the loopback default.
        let response = modern_post(served.addr, &discover).send().await;
        expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2026).await;
        let response = modern_post(served.addr, &discover)
            .header("host", "mcp.example.com")
            .header("origin", "http://evil.example.com")
            .send()
            .await;
        expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2026).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_bearer_token() {
    bounded(async {
        let served = start(server(), HttpOptions::new().authorize(BearerToken::new("s3cret"))).await;
        let discover = modern(1, "server/discover", json!({}));
        let response = modern_post(served.addr, &discover).send().await;
        assert_eq!(response.header("www-authenticate"), Some("Bearer"));
        expect_error(response, StatusCode::UNAUTHORIZED, INVALID_REQUEST, Value::Null, V2026).await;
        for wrong in ["Bearer wrong", "Bearer s3cre", "Basic czNjcmV0", "s3cret"] {
            let response = modern_post(served.addr, &discover).header("authorization", wrong).send().await;
            assert_eq!(response.status, StatusCode::UNAUTHORIZED, "Authorization: {wrong}");
            assert!(response.header("www-authenticate").is_some_and(|value| value.starts_with("Bearer")));
            expect_error(response, StatusCode::UNAUTHORIZED, INVALID_REQUEST, Value::Null, V2026).await;
        }
        let response = modern_post(served.addr, &discover).header("authorization", "Bearer s3cret").send().await;
        assert_eq!(response.status, StatusCode::OK);
        check_result(V2026, "DiscoverResult", &response.json().await);
        // Legacy requests and GET streams pass the same hook.
        let response = post(served.addr).json(&initialize_request(V2025_11)).send().await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        let response = get(served.addr).header("Mcp-Session-Id", "whatever").send().await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_body_over_the_limit_is_413() {
    bounded(async {
        let served = start(server(), HttpOptions::new().body_limit(2048)).await;
        let small = modern(1, "tools/call", json!({"name": "forecast", "arguments": {"city": "x".repeat(100)}}));
        let response = modern_post(served.addr, &small).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let large = modern(2, "tools/call", json!({"name": "forecast", "arguments": {"city": "x".repeat(4096)}}));
        let response = modern_post(served.addr, &large).send().await;
        let error = expect_error(response, StatusCode::PAYLOAD_TOO_LARGE, INVALID_REQUEST, Value::Null, V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().contains("2048"), "{error}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_non_json_content_type_is_415() {
    bounded(async {
        let served = endpoint().await;
        let discover = modern(1, "server/discover", json!({}));
        for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
            let response = modern_post(served.addr, &discover).header("content-type", content_type).send().await;
            expect_error(response, StatusCode::UNSUPPORTED_MEDIA_TYPE, INVALID_REQUEST, Value::Null, V2026).await;
        }
        let response = modern_post(served.addr, &discover).without("content-type").send().await;
        expect_error(response, StatusCode::UNSUPPORTED_MEDIA_TYPE, INVALID_REQUEST, Value::Null, V2026).await;
        let response =
            modern_post(served.addr, &discover).header("content-type", "application/json; charset=utf-8").send().await;
        assert_eq!(response.status, StatusCode::OK);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_request_timeout_is_an_internal_error_naming_it() {
    bounded(async {
        let options = HttpOptions::new().request_timeout(Duration::from_millis(300));
        let served = start(server(), options).await;
        // Legacy, answered as JSON.
        let session = open_session(served.addr, V2025_11).await;
        let call =
            request(1, "tools/call", json!({"name": "wait", "arguments": {"key": "timeout-legacy", "ms": 20_000}}));
        let started = Instant::now();
        let response = session.post().header("accept", "application/json").json(&call).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let message = response.json().await;
        assert!(started.elapsed() < Duration::from_secs(5), "answered when the timeout expired");
        assert_eq!(message["id"], 1);
        assert_eq!(check_error(V2025_11, &message), INTERNAL_ERROR);
        assert!(message["error"]["message"].as_str().unwrap().contains("timed out"), "{message}");
        // Modern, answered on the call's SSE stream.
        let call =
            modern(2, "tools/call", json!({"name": "wait", "arguments": {"key": "timeout-modern", "ms": 20_000}}));
        let (_, message) = modern_post(served.addr, &call).send().await.exchange().await;
        assert_eq!(message["id"], 2);
        assert_eq!(check_error(V2026, &message), INTERNAL_ERROR);
        assert!(message["error"]["message"].as_str().unwrap().contains("timed out"), "{message}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_invalid_json_is_400_parse_error() {
    bounded(async {
        let served = endpoint().await;
        let response = post(served.addr)
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "tools/list")
            .bytes(&b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "[..])
            .send()
            .await;
        expect_error(response, StatusCode::BAD_REQUEST, PARSE_ERROR, Value::Null, V2026).await;
    })
    .await;
}

// ===========================================================================
// The gallery's --http entry point
// ===========================================================================

/// A child process killed when dropped.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for `child` to exit, for at most `limit`; kills it past that.
async fn wait_for_exit(mut child: std::process::Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("waiting for a child") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the child process did not finish within {limit:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The gallery example binary, next to this test's binary
/// (`target/<profile>/examples/gallery`). `cargo test` builds examples, but
/// `cargo test --test http` does not: build it (a no-op when fresh).
async fn gallery_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps/<test>");
    let binary = profile_dir.join("examples").join(format!("gallery{}", std::env::consts::EXE_SUFFIX));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| option_env!("CARGO").unwrap_or("cargo").to_owned());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let mut build = std::process::Command::new(cargo);
    build.args(["build", "--quiet", "--example", "gallery", "--manifest-path", manifest]);
    if profile_dir.file_name().is_some_and(|name| name == "release") {
        build.arg("--release");
    }
    let child = build.spawn().expect("running cargo build --example gallery");
    let status = wait_for_exit(child, Duration::from_secs(600)).await;
    assert!(status.success(), "cargo build --example gallery failed: {status}");
    assert!(binary.is_file(), "no gallery binary at {}", binary.display());
    binary
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gallery_serves_http_with_the_http_flag() {
    // Building the example may take a while; the timeout covers it separately.
    let binary = gallery_binary().await;
    bounded(async {
        let port = {
            let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
            probe.local_addr().unwrap().port()
        };
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let mut gallery = Child(
            std::process::Command::new(&binary)
                .args(["--http", &addr.to_string()])
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("starting the gallery"),
        );
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(addr).await.is_err() {
            if let Some(status) = gallery.0.try_wait().unwrap() {
                panic!("the gallery exited before listening: {status}");
            }
            assert!(Instant::now() < deadline, "the gallery did not listen on {addr} within {WAIT:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }

        // Legacy: a session, its listing and a call.
        let response = post(addr).json(&initialize_request(V2025_11)).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let id = response.header("mcp-session-id").expect("a session").to_owned();
        let init = response.json().await;
        support::assert_valid(V2025_11.as_str(), "InitializeResult", &init["result"]);
        assert_eq!(init["result"]["serverInfo"]["name"], "codeagent-gallery");
        let session = Session { addr, id, version: V2025_11 };
        let listing = session.post().json(&request(1, "tools/list", json!({}))).send().await.json().await;
        support::assert_valid(V2025_11.as_str(), "ListToolsResult", &listing["result"]);
        let names = tool_names(&listing);
        for tool in ["add", "greet", "count_with_progress", "slow"] {
            assert!(names.contains(&tool), "{tool} in {names:?}");
        }
        let call = request(2, "tools/call", json!({"name": "add", "arguments": {"a": 2, "b": 3}}));
        let (_, sum) = session.post().json(&call).send().await.exchange().await;
        support::assert_valid(V2025_11.as_str(), "CallToolResult", &sum["result"]);
        assert_eq!(first_text(&sum), "5");

        // Modern: stateless listing and call.
        let response = modern_post(addr, &modern(3, "tools/list", json!({}))).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let (_, listing) = response.exchange().await;
        support::assert_valid(V2026.as_str(), "ListToolsResult", &listing["result"]);
        assert!(tool_names(&listing).contains(&"add"));
        let call = modern(4, "tools/call", json!({"name": "add", "arguments": {"a": 20, "b": 22}}));
        let response = modern_post(addr, &call).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let (_, sum) = response.exchange().await;
        support::assert_valid(V2026.as_str(), "CallToolResult", &sum["result"]);
        assert_eq!(sum["result"]["resultType"], "complete");
        assert_eq!(first_text(&sum), "42");

        // Bound to loopback: only localhost Host headers.
        let response =
            modern_post(addr, &modern(5, "server/discover", json!({}))).header("host", "evil.example.com").send().await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
        assert!(gallery.0.try_wait().unwrap().is_none(), "the gallery is still serving");
    })
    .await;
}
