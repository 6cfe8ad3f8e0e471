//! A transport-neutral MCP test client, for the behaviour suite: the same
//! test drives a server over stdio ([`Transport::Stdio`], in-memory pipes) or
//! over Streamable HTTP ([`Transport::Http`], a server on a loopback port).
//!
//! Every message is one JSON-RPC value; whatever arrives is validated against
//! the official schema of its era (the same [`Checks`] for both):
//!
//! - legacy era: `initialize` first. Over HTTP that opens a session
//!   (`Mcp-Session-Id`); every POST then carries it (and
//!   `MCP-Protocol-Version` from 2025-06-18), accepts
//!   `application/json, text/event-stream`, and the notifications of a
//!   request are read from its POST's SSE stream; after `initialize`, a GET
//!   stream carries the server-initiated ones (`tools/list_changed`).
//! - 2026-07-28: per-request `_meta`; over HTTP stateless POSTs with
//!   `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`.
//!
//! Over HTTP each POST runs in its own task and everything it receives goes
//! into one channel, so requests are in flight at once, as over stdio.

use std::collections::VecDeque;
use std::fmt;
use std::time::Duration;

use codeagent::server::SERVER_INFO_KEY;
use codeagent::server::http::HttpOptions;
use codeagent::{ProtocolVersion, Server, Toolbox};
use hyper::StatusCode;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::checks::{Checks, is_modern};
use super::http::{Endpoint, modern_post, post, start};
use super::stdio;
use super::tools::all_tools;
use super::{V2025_06, WAIT};

/// The transports a behaviour test runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// `Server::serve` over in-memory pipes (JSON lines).
    Stdio,
    /// `Server::http_router` on `127.0.0.1:0`.
    Http,
}

impl Transport {
    /// Both transports, in the order the tests run them.
    pub const ALL: [Transport; 2] = [Transport::Stdio, Transport::Http];
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        })
    }
}

/// The name and version the behaviour server reports (every 2026 result carries them).
pub const SERVER_NAME: &str = "behaviour-test";

/// The server of a behaviour test: every test tool, named [`SERVER_NAME`].
pub fn behaviour_server() -> Server {
    Server::new(all_tools()).with_name(SERVER_NAME).with_version("1.0.0")
}

/// What an HTTP exchange task delivers: a message, or why the exchange failed.
type Delivery = Result<Value, String>;

struct Http {
    endpoint: Endpoint,
    session: Option<String>,
    checks: Checks,
    sender: mpsc::UnboundedSender<Delivery>,
    receiver: mpsc::UnboundedReceiver<Delivery>,
    listening: bool,
}

enum Inner {
    Stdio(Box<stdio::Client>),
    Http(Box<Http>),
}

/// A client of either transport. See the module docs.
pub struct Client {
    /// The transport this client speaks.
    pub transport: Transport,
    inner: Inner,
    toolbox: Toolbox,
    /// Messages read while waiting for something else.
    pending: VecDeque<Value>,
}

impl Client {
    /// A client of [`behaviour_server`] over `transport`.
    pub async fn new(transport: Transport) -> Client {
        Client::start(transport, behaviour_server()).await
    }

    /// A client of `server` over `transport`.
    pub async fn start(transport: Transport, server: Server) -> Client {
        let toolbox = server.toolbox().clone();
        let inner = match transport {
            Transport::Stdio => Inner::Stdio(Box::new(stdio::Client::start(server))),
            Transport::Http => {
                let endpoint = start(server, HttpOptions::new()).await;
                let (sender, receiver) = mpsc::unbounded_channel();
                Inner::Http(Box::new(Http {
                    endpoint,
                    session: None,
                    checks: Checks::new(false),
                    sender,
                    receiver,
                    listening: false,
                }))
            }
        };
        Client { transport, inner, toolbox, pending: VecDeque::new() }
    }

    /// The served toolbox (add a tool to it to make the list change).
    pub fn toolbox(&self) -> &Toolbox {
        &self.toolbox
    }

    /// Sends one message (request, notification, batch, or anything at all)
    /// without waiting for an answer.
    pub async fn send_raw(&mut self, message: Value) {
        match &mut self.inner {
            Inner::Stdio(client) => client.send(message).await,
            Inner::Http(http) => http.send(message).await,
        }
    }

    /// Sends a request without waiting for its response.
    pub async fn send_request(&mut self, id: impl Into<Value>, method: &str, params: Value) {
        self.send_raw(json!({"jsonrpc": "2.0", "id": id.into(), "method": method, "params": params})).await;
    }

    /// Sends a notification.
    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send_raw(json!({"jsonrpc": "2.0", "method": method, "params": params})).await;
    }

    /// The next message received (validated), or `None` when nothing arrives `within`.
    pub async fn recv_within(&mut self, within: Duration) -> Option<Value> {
        if let Some(message) = self.pending.pop_front() {
            return Some(message);
        }
        match &mut self.inner {
            Inner::Stdio(client) => client.recv_within(within).await,
            Inner::Http(http) => match tokio::time::timeout(within, http.receiver.recv()).await {
                Err(_) => None,
                Ok(None) => panic!("the HTTP client's channel closed"),
                Ok(Some(Err(problem))) => panic!("{problem}"),
                Ok(Some(Ok(message))) => {
                    http.checks.validate(&message);
                    Some(message)
                }
            },
        }
    }

    /// The next message received; fails after [`WAIT`].
    pub async fn recv(&mut self) -> Value {
        match self.recv_within(WAIT).await {
            Some(message) => message,
            None => panic!("{}: no message from the server within {WAIT:?}", self.transport),
        }
    }

    /// Reads until the response with `id` (or the batch response holding
    /// it), returning the notifications read on the way; other responses are
    /// kept for later.
    pub async fn response_with_notes(&mut self, id: &Value) -> (Vec<Value>, Value) {
        let mut notes = Vec::new();
        let mut others = Vec::new();
        let found = loop {
            let message = self.recv().await;
            let answers = match &message {
                Value::Array(items) => items.iter().any(|item| item.get("id") == Some(id)),
                _ => message.get("method").is_none() && message.get("id") == Some(id),
            };
            if answers {
                break message;
            } else if message.get("method").is_some() {
                notes.push(message);
            } else {
                others.push(message);
            }
        };
        self.pending.extend(others);
        (notes, found)
    }

    /// Sends a request and returns its response; notifications read while
    /// waiting stay queued for [`next_notification`](Self::next_notification).
    pub async fn request(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let id = id.into();
        self.send_request(id.clone(), method, params).await;
        let (notes, response) = self.response_with_notes(&id).await;
        for note in notes.into_iter().rev() {
            self.pending.push_front(note);
        }
        response
    }

    /// [`request`](Self::request), asserting a result and returning it.
    pub async fn result(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let response = self.request(id, method, params).await;
        assert!(response.get("error").is_none(), "{}: expected a result, got {response}", self.transport);
        response["result"].clone()
    }

    /// [`request`](Self::request), asserting an error and returning its error object.
    pub async fn error(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let response = self.request(id, method, params).await;
        assert!(response.get("result").is_none(), "{}: expected an error, got {response}", self.transport);
        response["error"].clone()
    }

    /// The next notification; responses read on the way are kept for later.
    pub async fn next_notification(&mut self) -> Value {
        self.notifications_until(|_| true).await.pop().expect("one notification")
    }

    /// Notifications up to and including the first one `last` accepts;
    /// responses read on the way are kept for later. Fails after [`WAIT`]
    /// without a message.
    pub async fn notifications_until(&mut self, last: impl Fn(&Value) -> bool) -> Vec<Value> {
        let mut notes = Vec::new();
        let mut others = Vec::new();
        loop {
            let message = match self.pending.iter().position(|message| message.get("method").is_some()) {
                Some(index) => self.pending.remove(index).expect("an index in range"),
                None => match self.recv_direct().await {
                    Some(message) => message,
                    None => panic!("{}: no notification within {WAIT:?} (after {notes:?})", self.transport),
                },
            };
            if message.get("method").is_none() {
                others.push(message);
                continue;
            }
            let done = last(&message);
            notes.push(message);
            if done {
                break;
            }
        }
        self.pending.extend(others);
        notes
    }

    /// The next message from the transport itself (not the pending queue).
    async fn recv_direct(&mut self) -> Option<Value> {
        let pending = std::mem::take(&mut self.pending);
        let message = self.recv_within(WAIT).await;
        self.pending = pending;
        message
    }

    /// Asserts nothing arrives for `within` (and nothing is queued).
    pub async fn assert_quiet(&mut self, within: Duration) {
        assert!(self.pending.is_empty(), "{}: unread messages {:?}", self.transport, self.pending);
        if let Some(message) = self.recv_within(within).await {
            panic!("{}: expected no message, got {message}", self.transport);
        }
    }

    /// The legacy handshake at `version`: `initialize`, then
    /// `notifications/initialized`; over HTTP, then opens the GET stream.
    pub async fn initialize(&mut self, version: ProtocolVersion) -> Value {
        self.initialize_with(version, json!({})).await
    }

    /// [`initialize`](Client::initialize) declaring the client `capabilities`.
    pub async fn initialize_with(&mut self, version: ProtocolVersion, capabilities: Value) -> Value {
        let params = json!({
            "protocolVersion": version.as_str(),
            "capabilities": capabilities,
            "clientInfo": {"name": "behaviour-tests", "version": "1.0.0"},
        });
        let result = self.result("init", "initialize", params).await;
        self.notify("notifications/initialized", json!({})).await;
        if let Inner::Http(http) = &mut self.inner {
            http.listen().await;
        }
        result
    }
}

impl Http {
    fn version_header(&self) -> Option<&'static str> {
        (self.checks.legacy >= V2025_06).then(|| self.checks.legacy.as_str())
    }

    async fn send(&mut self, message: Value) {
        self.checks.register(&message);
        let addr = self.endpoint.addr;
        let modern = match &message {
            Value::Array(items) => items.first().is_some_and(is_modern),
            other => is_modern(other),
        };
        let call = if modern && message.get("method").and_then(Value::as_str).is_some() {
            modern_post(addr, &message)
        } else {
            let mut call = post(addr).json(&message);
            if let Some(session) = &self.session {
                call = call.header("Mcp-Session-Id", session);
                if let Some(version) = self.version_header() {
                    call = call.header("MCP-Protocol-Version", version);
                }
            }
            call
        };
        let initialize = message.get("method") == Some(&json!("initialize"));
        // A notification is answered at once (202): waiting for it keeps the
        // client's messages in order, as one connection would.
        let notification = message.get("method").is_some() && message.get("id").is_none();
        let sender = self.sender.clone();
        let failures = self.sender.clone();
        let exchange = async move {
            let response = call.send().await;
            let session = response.header("mcp-session-id").map(str::to_owned);
            if response.status == StatusCode::ACCEPTED {
                assert!(response.bytes().await.is_empty(), "a 202 has no body");
                return session;
            }
            if response.is_sse() {
                let mut stream = response.sse().patient();
                while let Some(message) = stream.next_message().await {
                    let _ = sender.send(Ok(message));
                }
            } else if response.content_type().starts_with("application/json") {
                let _ = sender.send(Ok(response.json().await));
            } else {
                let status = response.status;
                let body = response.bytes().await;
                let _ = sender.send(Err(format!(
                    "http: a {status} without a JSON-RPC message: {}",
                    String::from_utf8_lossy(&body)
                )));
            }
            session
        };
        if initialize {
            // The session id is needed before the next POST.
            let session = tokio::time::timeout(WAIT, exchange).await.expect("initialize answered in time");
            self.session = Some(session.expect("initialize opens a session (Mcp-Session-Id)"));
        } else if notification {
            tokio::time::timeout(WAIT, exchange).await.expect("a notification accepted in time");
        } else {
            tokio::spawn(async move {
                let task = tokio::spawn(exchange);
                if let Err(error) = task.await
                    && error.is_panic()
                {
                    let _ = failures.send(Err(format!("http: the exchange failed: {error:?}")));
                }
            });
        }
    }

    /// Opens the session's GET stream; its messages join the others.
    async fn listen(&mut self) {
        if self.listening {
            return;
        }
        self.listening = true;
        let mut call =
            super::http::get(self.endpoint.addr).header("Mcp-Session-Id", self.session.as_deref().expect("a session"));
        if let Some(version) = self.version_header() {
            call = call.header("MCP-Protocol-Version", version);
        }
        let mut stream = call.send().await.sse().patient();
        let sender = self.sender.clone();
        tokio::spawn(async move {
            while let Some(message) = stream.next_message().await {
                if sender.send(Ok(message)).is_err() {
                    break;
                }
            }
        });
    }
}

/// Every 2026-07-28 result of the behaviour server names it.
#[track_caller]
pub fn assert_names_the_server(result: &Value) {
    assert_eq!(result["_meta"][SERVER_INFO_KEY], json!({"name": SERVER_NAME, "version": "1.0.0"}), "{result}");
}
