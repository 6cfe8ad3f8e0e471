//! The HTTP test client: servers started in-process on `127.0.0.1:0`
//! (`Server::http_router` served by `axum::serve`) and a minimal HTTP/1.1
//! client (hyper's connection API: one connection per request, so a test
//! controls every header, including `Host`, and can hang up on a stream; or
//! [`KeptAlive`], one connection for many requests, for load).

use std::net::SocketAddr;
use std::time::Duration;

use codeagent::server::http::HttpOptions;
use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY, SERVER_INFO_KEY};
use codeagent::{ProtocolVersion, Server, Toolbox};
use codeagent_test_support::wire;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{HeaderMap, Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use super::tools::http_toolbox as toolbox;
use super::{V2025_06, V2026, WAIT, check_error};

/// The server every HTTP test talks to unless it builds its own.
pub fn server() -> Server {
    server_of(toolbox())
}

/// A server of `toolbox` named as [`check_result`] expects (`http-test` 1.0.0).
pub fn server_of(toolbox: Toolbox) -> Server {
    Server::new(toolbox).with_name("http-test").with_version("1.0.0")
}

/// Checks a result response of `version` whose result is `definition`; in
/// 2026-07-28 the result names the server (`http-test`).
#[track_caller]
pub fn check_result(version: ProtocolVersion, definition: &str, message: &Value) {
    wire::check_result(version.as_str(), definition, message);
    if version == V2026 {
        assert_eq!(
            message["result"]["_meta"][SERVER_INFO_KEY],
            json!({"name": "http-test", "version": "1.0.0"}),
            "every 2026 result names the server: {message}"
        );
    }
}

// ---------------------------------------------------------------------------
// Servers
// ---------------------------------------------------------------------------

/// A server listening on a free loopback port; stops accepting when dropped.
pub struct Endpoint {
    pub addr: SocketAddr,
    pub toolbox: Toolbox,
    pub task: JoinHandle<()>,
}

impl Drop for Endpoint {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub async fn start(server: Server, options: HttpOptions) -> Endpoint {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binding 127.0.0.1:0");
    start_on(listener, server, options).await
}

/// [`start`] on a listener bound already (for options that name its address).
pub async fn start_on(listener: TcpListener, server: Server, options: HttpOptions) -> Endpoint {
    let addr = listener.local_addr().unwrap();
    let toolbox = server.toolbox().clone();
    // The server's own accept loop, with its timeouts.
    let task = tokio::spawn(async move {
        server.serve_http_on(listener, options).await.expect("serving");
    });
    Endpoint { addr, toolbox, task }
}

pub async fn endpoint() -> Endpoint {
    start(server(), HttpOptions::new()).await
}

// ---------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------

/// Aborts a connection's task (closing the socket) when dropped.
pub struct Connection(pub JoinHandle<()>);

impl Drop for Connection {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// One HTTP request to `/mcp`, built header by header.
pub struct Call {
    pub addr: SocketAddr,
    pub method: Method,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

pub const ACCEPT_BOTH: &str = "application/json, text/event-stream";

/// A POST with the headers every client sends: `Host`, JSON content, and
/// `Accept` listing both JSON and SSE.
pub fn post(addr: SocketAddr) -> Call {
    Call::new(addr, Method::POST).header("content-type", "application/json").header("accept", ACCEPT_BOTH)
}

/// A GET asking for the SSE stream.
pub fn get(addr: SocketAddr) -> Call {
    Call::new(addr, Method::GET).header("accept", "text/event-stream")
}

pub fn delete(addr: SocketAddr) -> Call {
    Call::new(addr, Method::DELETE)
}

impl Call {
    pub fn new(addr: SocketAddr, method: Method) -> Call {
        Call {
            addr,
            method,
            path: "/mcp".to_owned(),
            headers: vec![("host".into(), addr.to_string())],
            body: Vec::new(),
        }
    }

    /// Sends the request to `path` instead of `/mcp`.
    pub fn at_path(mut self, path: &str) -> Call {
        self.path = path.to_owned();
        self
    }

    /// Sets header `name` (replacing an earlier value).
    pub fn header(mut self, name: &str, value: impl Into<String>) -> Call {
        self.headers.retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
        self.headers.push((name.to_owned(), value.into()));
        self
    }

    /// Removes header `name`.
    pub fn without(mut self, name: &str) -> Call {
        self.headers.retain(|(existing, _)| !existing.eq_ignore_ascii_case(name));
        self
    }

    pub fn json(mut self, message: &Value) -> Call {
        self.body = message.to_string().into_bytes();
        self
    }

    pub fn bytes(mut self, body: impl Into<Vec<u8>>) -> Call {
        self.body = body.into();
        self
    }

    /// The hyper request: method, path, headers and body as built.
    pub fn request(&self) -> Request<Full<Bytes>> {
        let mut request = Request::builder().method(self.method.clone()).uri(self.path.as_str());
        for (name, value) in &self.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        request.body(Full::new(Bytes::from(self.body.clone()))).expect("a valid request")
    }

    /// Sends the request on a connection of its own.
    pub async fn send(self) -> Response {
        let mut connection = KeptAlive::connect(self.addr).await;
        let response = connection.send(&self).await;
        Response { connection: Some(connection.connection), ..response }
    }
}

/// One HTTP/1.1 connection for requests one after another (keep-alive), as
/// an HTTP client's pool would hold; closed when dropped.
pub struct KeptAlive {
    pub sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
    pub connection: Connection,
}

impl KeptAlive {
    pub async fn connect(addr: SocketAddr) -> KeptAlive {
        let stream = tokio::time::timeout(WAIT, TcpStream::connect(addr))
            .await
            .expect("connecting timed out")
            .unwrap_or_else(|error| panic!("connecting to {addr}: {error}"));
        // As HTTP clients do: a request is not held back waiting for an ACK.
        stream.set_nodelay(true).expect("TCP_NODELAY");
        let (sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.expect("HTTP handshake");
        let connection = Connection(tokio::spawn(async move {
            let _ = connection.await;
        }));
        KeptAlive { sender, connection }
    }

    /// Sends `call` on this connection (once the previous response has been
    /// read). The response's body belongs to this connection: read it before
    /// the next request.
    pub async fn send(&mut self, call: &Call) -> Response {
        tokio::time::timeout(WAIT, self.sender.ready())
            .await
            .unwrap_or_else(|_| panic!("the connection was not ready for a request within {WAIT:?}"))
            .expect("the connection is kept alive");
        let response = tokio::time::timeout(WAIT, self.sender.send_request(call.request()))
            .await
            .unwrap_or_else(|_| panic!("no response headers within {WAIT:?}"))
            .expect("the server answered");
        let (parts, body) = response.into_parts();
        Response { status: parts.status, headers: parts.headers, body, connection: None }
    }
}

/// A response whose body has not been read yet. Dropping it closes the
/// connection, unless the connection is [`KeptAlive`].
pub struct Response {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Incoming,
    pub connection: Option<Connection>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|value| value.to_str().expect("a visible ASCII header value"))
    }

    pub fn content_type(&self) -> &str {
        self.header("content-type").unwrap_or_default()
    }

    pub fn is_sse(&self) -> bool {
        self.content_type().starts_with("text/event-stream")
    }

    pub async fn bytes(self) -> Bytes {
        let Response { body, connection, .. } = self;
        let collected = tokio::time::timeout(WAIT, body.collect())
            .await
            .unwrap_or_else(|_| panic!("no complete body within {WAIT:?}"))
            .expect("reading the body");
        drop(connection);
        collected.to_bytes()
    }

    /// The JSON body; asserts `Content-Type: application/json`.
    pub async fn json(self) -> Value {
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
    pub fn sse(self) -> Sse {
        assert_eq!(self.status, StatusCode::OK, "an SSE stream is a 200");
        assert!(self.is_sse(), "an SSE stream, not {:?}", self.content_type());
        Sse { body: self.body, buffer: Vec::new(), ended: false, wait: WAIT, _connection: self.connection }
    }

    /// The JSON-RPC messages of a response to one request, as JSON or SSE:
    /// the notifications that came before the response, then the response.
    /// For SSE, reads to the end of the stream, so every message must have
    /// arrived before the stream ended, and nothing may follow the response.
    pub async fn exchange(self) -> (Vec<Value>, Value) {
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
pub struct Event {
    pub id: Option<String>,
    pub event: Option<String>,
    pub data: Option<String>,
    pub retry: Option<u64>,
}

impl Event {
    pub fn message(&self) -> Value {
        let data = self.data.as_deref().unwrap_or_default();
        serde_json::from_str(data).unwrap_or_else(|error| panic!("SSE data is not JSON ({error}): {data:?}"))
    }

    pub fn has_message(&self) -> bool {
        self.data.as_deref().is_some_and(|data| !data.is_empty())
    }
}

/// An SSE response body, read event by event.
pub struct Sse {
    pub body: Incoming,
    pub buffer: Vec<u8>,
    pub ended: bool,
    /// How long [`next`](Self::next) waits for an event: [`WAIT`] unless [`patient`](Self::patient).
    pub wait: Duration,
    pub _connection: Option<Connection>,
}

impl Sse {
    /// The next event (comments such as keep-alives skipped), or `None` when
    /// the stream ended. Fails after [`WAIT`] without one.
    pub async fn next(&mut self) -> Option<Event> {
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
            match tokio::time::timeout(self.wait, self.body.frame()).await {
                Err(_) => panic!(
                    "no SSE event (nor the end of the stream) within {:?}; buffered: {:?}",
                    self.wait,
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
    pub async fn next_message(&mut self) -> Option<Value> {
        loop {
            let event = self.next().await?;
            if event.has_message() {
                assert_eq!(event.event.as_deref().unwrap_or("message"), "message", "{event:?}");
                return Some(event.message());
            }
        }
    }

    /// This stream, read without the per-event timeout (for a reader in the
    /// background, whose test bounds its own waits).
    pub fn patient(mut self) -> Sse {
        self.wait = Duration::from_secs(3600);
        self
    }

    /// Every remaining event, to the end of the stream.
    pub async fn rest(mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Some(event) = self.next().await {
            events.push(event);
        }
        events
    }
}

pub fn parse_event(block: &str) -> Option<Event> {
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

/// Asserts an HTTP error: `status`, a JSON body holding a JSON-RPC error with
/// `code` and id `id`, valid for `version`. Returns the message.
pub async fn expect_error(
    response: Response,
    status: StatusCode,
    code: i64,
    id: Value,
    version: ProtocolVersion,
) -> Value {
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

pub fn initialize_request(version: ProtocolVersion) -> Value {
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

pub fn request(id: impl Into<Value>, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id.into(), "method": method, "params": params})
}

/// A legacy session: the id from `initialize`, and the version negotiated.
pub struct Session {
    pub addr: SocketAddr,
    pub id: String,
    pub version: ProtocolVersion,
}

/// Initializes a session of `version` (and sends `notifications/initialized`).
pub async fn open_session(addr: SocketAddr, version: ProtocolVersion) -> Session {
    open_session_on(&mut KeptAlive::connect(addr).await, addr, version).await
}

/// [`open_session`] on a kept-alive connection.
pub async fn open_session_on(connection: &mut KeptAlive, addr: SocketAddr, version: ProtocolVersion) -> Session {
    let response = connection.send(&post(addr).json(&initialize_request(version))).await;
    assert_eq!(response.status, StatusCode::OK);
    let id = response.header("mcp-session-id").expect("an Mcp-Session-Id header").to_owned();
    let message = response.json().await;
    check_result(version, "InitializeResult", &message);
    let session = Session { addr, id, version };
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = connection.send(&session.post().json(&initialized)).await;
    assert_eq!(response.status, StatusCode::ACCEPTED);
    response.bytes().await;
    session
}

impl Session {
    /// A POST in this session: `Mcp-Session-Id`, and `MCP-Protocol-Version`
    /// from 2025-06-18 on.
    pub fn post(&self) -> Call {
        let call = post(self.addr).header("Mcp-Session-Id", &self.id);
        if self.version >= V2025_06 { call.header("MCP-Protocol-Version", self.version.as_str()) } else { call }
    }

    /// The DELETE that ends this session.
    pub fn delete(&self) -> Call {
        delete(self.addr).header("Mcp-Session-Id", &self.id)
    }

    pub fn get(&self) -> Call {
        let call = get(self.addr).header("Mcp-Session-Id", &self.id);
        if self.version >= V2025_06 { call.header("MCP-Protocol-Version", self.version.as_str()) } else { call }
    }

    /// Sends a request accepting JSON only; asserts a 200 with a valid result.
    pub async fn call(&self, id: i64, method: &str, params: Value, definition: &str) -> Value {
        let response = self.post().header("accept", "application/json").json(&request(id, method, params)).send().await;
        assert_eq!(response.status, StatusCode::OK, "{method}");
        let message = response.json().await;
        assert_eq!(message["id"], id);
        check_result(self.version, definition, &message);
        message
    }
}

pub fn tool_names(listing: &Value) -> Vec<&str> {
    listing["result"]["tools"].as_array().expect("tools").iter().map(|tool| tool["name"].as_str().unwrap()).collect()
}

/// The text of a tool result's first content block.
pub fn first_text(message: &Value) -> &str {
    message["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("a text block: {message}"))
}

// ---------------------------------------------------------------------------
// Modern requests
// ---------------------------------------------------------------------------

pub fn modern_meta() -> Value {
    json!({
        PROTOCOL_VERSION_KEY: "2026-07-28",
        CLIENT_CAPABILITIES_KEY: {},
        CLIENT_INFO_KEY: {"name": "http-test-client", "version": "1.0.0"},
    })
}

/// A 2026-07-28 request: `params` with the required `_meta` keys added (to
/// any `_meta` keys given, such as a progress token).
pub fn modern(id: impl Into<Value>, method: &str, params: Value) -> Value {
    let mut params = params;
    let meta = params.as_object_mut().expect("params object").entry("_meta").or_insert_with(|| json!({}));
    let Value::Object(required) = modern_meta() else { unreachable!() };
    meta.as_object_mut().expect("a _meta object").extend(required);
    request(id, method, params)
}

/// A POST of a modern request with the headers mirroring its body:
/// `MCP-Protocol-Version`, `Mcp-Method` and, where required, `Mcp-Name`.
pub fn modern_post(addr: SocketAddr, message: &Value) -> Call {
    let method = message["method"].as_str().expect("a method");
    let version = message["params"]["_meta"][PROTOCOL_VERSION_KEY].as_str().unwrap_or("2026-07-28");
    let mut call = post(addr).header("MCP-Protocol-Version", version).header("Mcp-Method", method).json(message);
    let name = match method {
        "tools/call" | "prompts/get" => message["params"]["name"].as_str(),
        "resources/read" => message["params"]["uri"].as_str(),
        "tasks/get" | "tasks/update" | "tasks/cancel" => message["params"]["taskId"].as_str(),
        _ => None,
    };
    if let Some(name) = name {
        call = call.header("Mcp-Name", name);
    }
    call
}

/// Sends a modern request; asserts a 200 whose response (JSON or SSE) is a
/// valid `definition` result, and returns it.
pub async fn modern_ok(addr: SocketAddr, message: &Value, definition: &str) -> Value {
    let response = modern_post(addr, message).send().await;
    assert_eq!(response.status, StatusCode::OK, "{}", message["method"]);
    assert!(response.header("mcp-session-id").is_none(), "2026-07-28 never mints session ids");
    let (notes, response) = response.exchange().await;
    assert!(notes.is_empty(), "no notifications were asked for: {notes:?}");
    assert_eq!(response["id"], message["id"]);
    check_result(V2026, definition, &response);
    response
}
