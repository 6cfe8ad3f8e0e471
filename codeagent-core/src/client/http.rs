//! The Streamable HTTP transport: each request a POST whose answer is JSON or
//! an event stream (resumed with `Last-Event-ID` when it breaks off before
//! the response); the legacy session's id on every request after
//! `initialize`; the version headers of each era; the legacy GET stream of
//! server-initiated messages.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use bytes::Bytes;
use futures_util::StreamExt;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderName, HeaderValue, WWW_AUTHENTICATE};
use hyper::{Method as HttpMethod, Request, Response, StatusCode, Uri};
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

use tokio::sync::{mpsc, oneshot};
use tokio::task::{AbortHandle, JoinHandle};

use super::ClientError;
use super::oauth::{Audience, Challenge, OAuth, Presented, discovery_client};
use super::wire::{Acting, Inbound, Outgoing, Wire};
use crate::mcp::ProtocolVersion;
use crate::net::{HAS_TLS, HttpClient, describe, http_client};

/// How long to wait for a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait before resuming a stream when the server gave no `retry`.
const DEFAULT_RETRY: Duration = Duration::from_secs(1);
/// How many times a broken response stream is resumed.
const RESUMPTIONS: usize = 5;
/// How long opening the event stream may take before the client goes on without it.
const OPEN_TIMEOUT: Duration = Duration::from_secs(5);
/// The session header of the legacy era.
const SESSION_HEADER: &str = "mcp-session-id";
/// How many times one request is authorized before it fails.
const AUTHORIZATIONS: usize = 3;

/// Streamable HTTP to one endpoint.
pub(crate) struct Http {
    shared: Arc<Shared>,
}

/// What the transport may do: the limits and the reach of discovery.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HttpLimits {
    /// The largest JSON answer, and the largest event of a stream, in bytes.
    pub(crate) message: usize,
    /// Whether OAuth discovery may reach internal addresses for a server on a public one.
    pub(crate) private_discovery: bool,
}

struct Shared {
    url: String,
    uri: Uri,
    client: HttpClient,
    headers: Vec<(HeaderName, HeaderValue)>,
    oauth: Option<OAuth>,
    /// The audience (issuer, resource) this server's discovery named: only
    /// its token is attached.
    audience: Mutex<Option<Audience>>,
    /// The client of the OAuth requests, made at the first challenge.
    discovery: tokio::sync::OnceCell<HttpClient>,
    limits: HttpLimits,
    session: Mutex<Option<HeaderValue>>,
    inbox: mpsc::UnboundedSender<Inbound>,
    exchanges: Mutex<HashMap<u64, AbortHandle>>,
    events: Mutex<Option<JoinHandle<()>>>,
}

impl Http {
    /// A transport to `url`, sending `headers` with every request and
    /// authorizing with `oauth` when the server asks.
    pub(crate) fn new(
        url: &str,
        headers: &[(String, String)],
        oauth: Option<OAuth>,
        limits: HttpLimits,
        inbox: mpsc::UnboundedSender<Inbound>,
    ) -> Result<Http, ClientError> {
        let bad = |reason: String| ClientError::BadUrl { url: url.to_owned(), reason };
        let uri: Uri = url.parse().map_err(|error| bad(format!("{error}")))?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") if HAS_TLS => {}
            Some("https") => return Err(bad("`https://` needs codeagent's `tls` feature".into())),
            _ => return Err(bad("the scheme must be http or https".into())),
        }
        let headers = headers
            .iter()
            .map(|(name, value)| {
                let name =
                    HeaderName::try_from(name.as_str()).map_err(|_| bad(format!("`{name}` is not a header name")))?;
                let value = HeaderValue::try_from(value.as_str())
                    .map_err(|_| bad(format!("the value of `{name}` is not valid")))?;
                Ok((name, value))
            })
            .collect::<Result<_, ClientError>>()?;
        let shared = Shared {
            url: url.to_owned(),
            uri,
            client: http_client(CONNECT_TIMEOUT),
            headers,
            oauth,
            audience: Mutex::new(None),
            discovery: tokio::sync::OnceCell::new(),
            limits,
            session: Mutex::new(None),
            inbox,
            exchanges: Mutex::new(HashMap::new()),
            events: Mutex::new(None),
        };
        Ok(Http { shared: Arc::new(shared) })
    }
}

impl Wire for Http {
    fn send(&self, outgoing: Outgoing) -> Result<(), ClientError> {
        let shared = Arc::clone(&self.shared);
        let id = outgoing.id;
        let task = tokio::spawn(async move {
            let id = outgoing.id;
            shared.exchange(outgoing).await;
            if let Some(id) = id {
                shared.exchanges.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
            }
        });
        if let Some(id) = id {
            self.shared.exchanges.lock().unwrap_or_else(PoisonError::into_inner).insert(id, task.abort_handle());
        }
        Ok(())
    }

    fn abandon(&self, id: u64) {
        if let Some(task) = self.shared.exchanges.lock().unwrap_or_else(PoisonError::into_inner).remove(&id) {
            task.abort();
        }
    }

    fn open_events(&self, version: ProtocolVersion) -> Pin<Box<dyn Future<Output = bool> + Send + '_>> {
        let mut events = self.shared.events.lock().unwrap_or_else(PoisonError::into_inner);
        if events.as_ref().is_some_and(|task| !task.is_finished()) {
            return Box::pin(std::future::ready(true));
        }
        let shared = Arc::clone(&self.shared);
        let (opened, answer) = oneshot::channel();
        *events = Some(tokio::spawn(async move { shared.follow_events(version, opened).await }));
        Box::pin(async move { matches!(tokio::time::timeout(OPEN_TIMEOUT, answer).await, Ok(Ok(true))) })
    }

    fn mirrors_arguments(&self) -> bool {
        true
    }

    fn close(&self) {
        for (_, task) in self.shared.exchanges.lock().unwrap_or_else(PoisonError::into_inner).drain() {
            task.abort();
        }
        if let Some(task) = self.shared.events.lock().unwrap_or_else(PoisonError::into_inner).take() {
            task.abort();
        }
        let session = self.shared.session.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let (Some(session), Ok(runtime)) = (session, tokio::runtime::Handle::try_current()) {
            let shared = Arc::clone(&self.shared);
            runtime.spawn(async move {
                let request = Request::delete(shared.uri.clone()).header(SESSION_HEADER, session);
                if let Ok(request) = request.body(Full::new(Bytes::new())) {
                    let _ = tokio::time::timeout(Duration::from_secs(5), shared.client.request(request)).await;
                }
            });
        }
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        self.close();
    }
}

/// The method of a message and the name its `Mcp-Name` header carries.
fn method_and_name(message: &Value) -> (Option<&str>, Option<&str>) {
    let method = message["method"].as_str();
    let param = method.and_then(crate::mcp::Method::from_name).and_then(crate::mcp::Method::name_param);
    (method, param.and_then(|param| message["params"][param].as_str()))
}

/// Whether `message` answers request `id`.
fn answers(message: &Value, id: u64) -> bool {
    message.get("method").is_none() && message.get("id").and_then(Value::as_u64) == Some(id)
}

impl Shared {
    /// The token of this server's audience, once it has one.
    fn bearer(&self) -> Option<Presented> {
        let audience = self.audience.lock().unwrap_or_else(PoisonError::into_inner).clone()?;
        self.oauth.as_ref()?.token_for(&audience)
    }

    /// Keeps the DPoP nonce `response` gives (RFC 9449 §9); whether it is new.
    fn keep_nonce(&self, response: &Response<Incoming>) -> bool {
        let nonce = response.headers().get("dpop-nonce").and_then(|value| value.to_str().ok());
        match (&self.oauth, nonce) {
            (Some(oauth), Some(nonce)) => oauth.remember_nonce(&self.url, nonce),
            _ => false,
        }
    }

    fn send_inbound(&self, inbound: Inbound) {
        let _ = self.inbox.send(inbound);
    }

    /// Fails request `id` (if it is one) with `error`; reports it otherwise.
    fn fail(&self, id: Option<u64>, error: ClientError) {
        match id {
            Some(id) => self.send_inbound(Inbound::Failed { id, error }),
            None => self.send_inbound(Inbound::Problem(error.to_string())),
        }
    }

    /// A request to the server with the client's own token (if it has one).
    fn request(&self, method: HttpMethod, version: Option<ProtocolVersion>) -> hyper::http::request::Builder {
        self.request_with(method, version, self.bearer())
    }

    /// A request to the server presenting `presented`.
    fn request_with(
        &self,
        method: HttpMethod,
        version: Option<ProtocolVersion>,
        presented: Option<Presented>,
    ) -> hyper::http::request::Builder {
        let mut request = Request::builder().method(method.clone()).uri(self.uri.clone());
        for (name, value) in &self.headers {
            request = request.header(name, value);
        }
        if let Some(session) = self.session.lock().unwrap_or_else(PoisonError::into_inner).clone() {
            request = request.header(SESSION_HEADER, session);
        }
        match (presented, &self.oauth) {
            (Some(Presented { token, dpop: true }), Some(oauth)) => {
                // A proof per request: this method, this URL, a fresh jti, the token's hash.
                match oauth.proof(method.as_str(), &self.url, &token) {
                    Ok(proof) => request = request.header("dpop", proof),
                    Err(error) => tracing::warn!("no DPoP proof for {}: {}", self.url, error),
                }
                request = request.header(AUTHORIZATION, format!("DPoP {token}"));
            }
            (Some(Presented { token, .. }), _) => request = request.header(AUTHORIZATION, format!("Bearer {token}")),
            (None, _) => {}
        }
        if let Some(version) = version {
            request = request.header("mcp-protocol-version", version.as_str());
        }
        request
    }

    /// The POST of `outgoing` with `body`, presenting `presented`.
    fn post(
        &self,
        outgoing: &Outgoing,
        body: Bytes,
        presented: Option<Presented>,
    ) -> Result<Request<Full<Bytes>>, ClientError> {
        let (method, name) = method_and_name(&outgoing.message);
        let mut request = self
            .request_with(HttpMethod::POST, outgoing.version, presented)
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream");
        if outgoing.version.is_some_and(ProtocolVersion::is_modern) {
            if let Some(method) = method {
                request = request.header("mcp-method", method);
            }
            if let Some(name) = name {
                request = request.header("mcp-name", header_text(name));
            }
        }
        for (name, value) in &outgoing.headers {
            request = request.header(name.as_str(), value.as_str());
        }
        request.body(Full::new(body)).map_err(|error| ClientError::Invalid(format!("a header is not valid: {error}")))
    }

    async fn exchange(&self, outgoing: Outgoing) {
        let id = outgoing.id;
        let (method, _) = method_and_name(&outgoing.message);
        let method_text = method.unwrap_or("a response").to_owned();
        let body = match serde_json::to_vec(&outgoing.message) {
            Ok(body) => Bytes::from(body),
            Err(error) => return self.fail(id, ClientError::Invalid(error.to_string())),
        };
        let mut authorizations = 0;
        let mut nonce_retried = false;
        // Made for a caller, with token exchange: the caller's exchanged token, never the client's own.
        let acting = match (&outgoing.acting, &self.oauth) {
            (Some(Acting(caller)), Some(oauth)) if oauth.exchanges() => Some((oauth, caller.as_ref())),
            _ => None,
        };
        let mut for_caller = None;
        if let Some((oauth, caller)) = acting {
            match self.exchanged(oauth, caller, false).await {
                Ok(presented) => for_caller = Some(presented),
                Err(error) => return self.fail(id, error),
            }
        }
        let mut exchanged_again = false;
        let response = loop {
            let presented = if acting.is_some() { for_caller.clone() } else { self.bearer() };
            let sent = presented.as_ref().map(|presented| presented.token.clone());
            let request = match self.post(&outgoing, body.clone(), presented) {
                Ok(request) => request,
                Err(error) => return self.fail(id, error),
            };
            let response = match self.client.request(request).await {
                Ok(response) => response,
                Err(error) => {
                    return self.fail(id, ClientError::Unreachable { url: self.url.clone(), reason: describe(&error) });
                }
            };
            let fresh_nonce = self.keep_nonce(&response);
            let Some((oauth, challenge, forbidden)) = self.challenge(&response) else { break response };
            if challenge.error.as_deref() == Some("use_dpop_nonce") && fresh_nonce && !nonce_retried {
                // The server wants its nonce in the proof (RFC 9449 §9): once more, with it.
                nonce_retried = true;
                continue;
            }
            if let Some((oauth, caller)) = acting {
                if exchanged_again || forbidden {
                    let reason = format!(
                        "{method_text} was refused (HTTP {}) with the token exchanged for the caller",
                        response.status().as_u16()
                    );
                    return self.fail(id, ClientError::Unauthorized { url: self.url.clone(), reason });
                }
                // The token kept for the caller may be revoked: exchange once more.
                exchanged_again = true;
                match self.exchanged(oauth, caller, true).await {
                    Ok(presented) => for_caller = Some(presented),
                    Err(error) => return self.fail(id, error),
                }
                continue;
            }
            if authorizations == AUTHORIZATIONS {
                let reason = format!(
                    "{method_text} was refused (HTTP {}) after {AUTHORIZATIONS} authorizations",
                    response.status().as_u16()
                );
                return self.fail(id, ClientError::Unauthorized { url: self.url.clone(), reason });
            }
            authorizations += 1;
            let discovery =
                self.discovery.get_or_init(|| discovery_client(&self.uri, self.limits.private_discovery)).await;
            let bound = self.audience.lock().unwrap_or_else(PoisonError::into_inner).clone();
            match oauth.answer(discovery, &self.url, &challenge, forbidden, sent.as_deref(), bound.as_ref()).await {
                Ok(audience) => *self.audience.lock().unwrap_or_else(PoisonError::into_inner) = Some(audience),
                Err(reason) => return self.fail(id, ClientError::Unauthorized { url: self.url.clone(), reason }),
            }
        };
        if response.status() == StatusCode::UNAUTHORIZED && self.oauth.is_none() {
            let reason =
                format!("it answered {method_text} with HTTP 401, and this client has no OAuth to authorize with");
            return self.fail(id, ClientError::Unauthorized { url: self.url.clone(), reason });
        }
        if let Some(session) = response.headers().get(SESSION_HEADER).filter(|_| method == Some("initialize")) {
            *self.session.lock().unwrap_or_else(PoisonError::into_inner) = Some(session.clone());
        }
        self.receive(response, id, &method_text, outgoing.version).await;
    }

    /// The token exchanged for `caller` (see [`OAuth::token_exchange`]); a
    /// new one when `fresh`.
    async fn exchanged(
        &self,
        oauth: &OAuth,
        caller: Option<&crate::toolbox::Caller>,
        fresh: bool,
    ) -> Result<Presented, ClientError> {
        let discovery = self.discovery.get_or_init(|| discovery_client(&self.uri, self.limits.private_discovery)).await;
        oauth
            .for_caller(discovery, &self.url, caller, fresh)
            .await
            .map_err(|reason| ClientError::Unauthorized { url: self.url.clone(), reason })
    }

    /// The authorization `response` asks for, when this client can answer
    /// it: a `401`, or a `403` for `insufficient_scope`, with a `Bearer`
    /// challenge (or none, on a `401`).
    fn challenge(&self, response: &Response<Incoming>) -> Option<(&OAuth, Challenge, bool)> {
        let oauth = self.oauth.as_ref()?;
        let header = response.headers().get(WWW_AUTHENTICATE).and_then(|value| value.to_str().ok());
        match response.status() {
            StatusCode::UNAUTHORIZED => Some((oauth, header.and_then(Challenge::parse).unwrap_or_default(), false)),
            StatusCode::FORBIDDEN => {
                let challenge = header.and_then(Challenge::parse)?;
                (challenge.error.as_deref() == Some("insufficient_scope")).then_some((oauth, challenge, true))
            }
            _ => None,
        }
    }

    /// Reads the answer to a POST: JSON, an event stream, or nothing (202).
    async fn receive(
        &self,
        response: Response<Incoming>,
        id: Option<u64>,
        method: &str,
        version: Option<ProtocolVersion>,
    ) {
        let status = response.status();
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        if status == StatusCode::ACCEPTED || status == StatusCode::NO_CONTENT {
            if id.is_some() {
                let error =
                    ClientError::Malformed(format!("the server answered {method} with HTTP {status} and no response"));
                self.fail(id, error);
            }
            return;
        }
        if content_type.starts_with("text/event-stream") && status.is_success() {
            return self.read_stream(response, id, method, version).await;
        }
        let limit = self.limits.message;
        let body = match Limited::new(response.into_body(), limit).collect().await {
            Ok(body) => body.to_bytes(),
            Err(error) if error.is::<http_body_util::LengthLimitError>() => {
                let what = format!("the answer to {method}");
                return self.fail(id, ClientError::TooLarge { what, limit });
            }
            Err(error) => {
                let reason = format!("reading the answer to {method}: {}", describe(&*error));
                return self.fail(id, ClientError::Unreachable { url: self.url.clone(), reason });
            }
        };
        let json = serde_json::from_slice::<Value>(&body).ok();
        // A JSON-RPC error in an error status is the answer itself.
        let is_rpc = |message: &Value| {
            message.get("jsonrpc").is_some() && (message.get("result").is_some() || message.get("error").is_some())
        };
        match json {
            Some(Value::Array(batch)) if status.is_success() => {
                for message in batch {
                    self.send_inbound(Inbound::Message(message));
                }
            }
            Some(message) if status.is_success() || is_rpc(&message) => {
                let message = match (id, &message["id"]) {
                    // An error answering no id (a refused request) belongs to this request.
                    (Some(id), Value::Null) if message.get("error").is_some() => {
                        let mut message = message;
                        message["id"] = Value::from(id);
                        message
                    }
                    _ => message,
                };
                self.send_inbound(Inbound::Message(message));
            }
            _ if status.is_success() => {
                let error = ClientError::Malformed(format!(
                    "the answer to {method} is neither JSON nor an event stream (content type `{content_type}`)"
                ));
                self.fail(id, error);
            }
            _ => {
                let text = String::from_utf8_lossy(&body);
                let body = text.split_whitespace().collect::<Vec<_>>().join(" ").chars().take(500).collect();
                let error = ClientError::Http {
                    url: self.url.clone(),
                    method: method.to_owned(),
                    status: status.as_u16(),
                    body,
                };
                self.fail(id, error);
            }
        }
    }

    /// Reads an event stream until request `id` is answered, resuming it with
    /// `Last-Event-ID` if it breaks off first.
    async fn read_stream(
        &self,
        response: Response<Incoming>,
        id: Option<u64>,
        method: &str,
        version: Option<ProtocolVersion>,
    ) {
        let mut response = response;
        let mut last_event = None;
        let mut retry = DEFAULT_RETRY;
        for resumption in 0..=RESUMPTIONS {
            let (answered, broke) = match self.read_events(response, id, &mut last_event, &mut retry).await {
                Ok(read) => read,
                // An event past the limit: the stream is dropped (closed), never resumed.
                Err(error) => return self.fail(id, error),
            };
            if answered || id.is_none() {
                return;
            }
            let Some(event_id) = last_event.clone() else {
                let reason = broke.unwrap_or_else(|| "the stream ended".into());
                let reason = format!("the answer to {method} ended before its response: {reason}");
                return self.fail(id, ClientError::Closed { reason });
            };
            if resumption == RESUMPTIONS {
                break;
            }
            tokio::time::sleep(retry).await;
            let request = self
                .request(HttpMethod::GET, version)
                .header(ACCEPT, "text/event-stream")
                .header("last-event-id", event_id)
                .body(Full::new(Bytes::new()));
            let Ok(request) = request else { break };
            response = match self.client.request(request).await {
                Ok(response) if response.status().is_success() => response,
                Ok(response) => {
                    let reason = format!("resuming the answer to {method} got HTTP {}", response.status());
                    return self.fail(id, ClientError::Closed { reason });
                }
                Err(error) => {
                    return self.fail(id, ClientError::Unreachable { url: self.url.clone(), reason: describe(&error) });
                }
            };
        }
        let reason = format!("the answer to {method} broke off {RESUMPTIONS} times before its response");
        self.fail(id, ClientError::Closed { reason });
    }

    /// Reads the events of one stream into the inbox: whether request `id`
    /// was answered, and what broke the stream, if something did; an event
    /// larger than the message limit is an error, and the stream is dropped.
    async fn read_events(
        &self,
        response: Response<Incoming>,
        id: Option<u64>,
        last_event: &mut Option<String>,
        retry: &mut Duration,
    ) -> Result<(bool, Option<String>), ClientError> {
        use eventsource_stream::{EventStreamError, Eventsource};
        let limit = self.limits.message;
        let mut sizes = EventSizes::new(limit);
        let data = response.into_body().into_data_stream().map(move |chunk| match chunk {
            Ok(bytes) if !sizes.within(&bytes) => Err(StreamError::TooLarge),
            Ok(bytes) => Ok(bytes),
            Err(error) => Err(StreamError::Body(error)),
        });
        let mut events = data.eventsource();
        while let Some(event) = events.next().await {
            let event = match event {
                Ok(event) => event,
                Err(EventStreamError::Transport(StreamError::TooLarge)) => {
                    let what = "an event of the server's stream".to_owned();
                    return Err(ClientError::TooLarge { what, limit });
                }
                Err(error) => return Ok((false, Some(error.to_string()))),
            };
            if !event.id.is_empty() {
                *last_event = Some(event.id.clone());
            }
            if let Some(wait) = event.retry {
                *retry = wait;
            }
            if event.data.trim().is_empty() {
                continue;
            }
            let message = match serde_json::from_str::<Value>(&event.data) {
                Ok(message) => message,
                Err(error) => {
                    let start: String = event.data.chars().take(120).collect();
                    self.send_inbound(Inbound::Problem(format!("an event is not JSON ({error}): {start}")));
                    continue;
                }
            };
            let answered = id.is_some_and(|id| answers(&message, id));
            self.send_inbound(Inbound::Message(message));
            if answered {
                return Ok((true, None));
            }
        }
        Ok((false, None))
    }

    /// Follows the legacy GET stream of server-initiated messages, reopening
    /// it when it ends, until the server refuses it or the client closes.
    async fn follow_events(&self, version: ProtocolVersion, opened: oneshot::Sender<bool>) {
        let mut opened = Some(opened);
        let mut tell = |answer: bool| {
            if let Some(opened) = opened.take() {
                let _ = opened.send(answer);
            }
        };
        let mut last_event = None;
        let mut retry = DEFAULT_RETRY;
        loop {
            let mut request = self.request(HttpMethod::GET, Some(version)).header(ACCEPT, "text/event-stream");
            if let Some(event) = &last_event {
                request = request.header("last-event-id", event as &str);
            }
            let Ok(request) = request.body(Full::new(Bytes::new())) else { return };
            match self.client.request(request).await {
                Ok(response) if response.status().is_success() => {
                    tell(true);
                    if let Err(error) = self.read_events(response, None, &mut last_event, &mut retry).await {
                        // Dropped, and not reopened: the server sends events this client will not hold.
                        return self.send_inbound(Inbound::Problem(format!("the event stream is closed: {error}")));
                    }
                }
                // The server offers no stream (405), or none here (404, 400): no problem.
                Ok(response) => {
                    tell(false);
                    return tracing::debug!("the server offers no event stream (HTTP {})", response.status());
                }
                Err(error) => {
                    tell(false);
                    self.send_inbound(Inbound::Problem(format!("the event stream broke: {}", describe(&error))));
                }
            }
            tokio::time::sleep(retry).await;
        }
    }
}

/// What breaks the bytes of an event stream.
#[derive(Debug)]
enum StreamError {
    /// The connection.
    Body(hyper::Error),
    /// One event grew past the limit.
    TooLarge,
}

impl std::fmt::Display for StreamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StreamError::Body(error) => write!(f, "{}", describe(error)),
            StreamError::TooLarge => f.write_str("an event is larger than the limit"),
        }
    }
}

impl std::error::Error for StreamError {}

/// Counts the bytes of the event being read (those between two blank lines,
/// line ends not counted), so that one endless event cannot grow the
/// client's memory: the event stream's parser holds at most one event.
struct EventSizes {
    limit: usize,
    current: usize,
    line_start: bool,
    after_cr: bool,
}

impl EventSizes {
    fn new(limit: usize) -> EventSizes {
        EventSizes { limit, current: 0, line_start: true, after_cr: false }
    }

    /// Whether the event being read is still within the limit after `chunk`.
    fn within(&mut self, chunk: &[u8]) -> bool {
        for &byte in chunk {
            match byte {
                // The LF of a CRLF: the CR ended the line.
                b'\n' if self.after_cr => self.after_cr = false,
                b'\n' | b'\r' => {
                    if self.line_start {
                        self.current = 0; // a blank line: the event ends
                    }
                    self.line_start = true;
                    self.after_cr = byte == b'\r';
                }
                _ => {
                    self.after_cr = false;
                    self.line_start = false;
                    self.current += 1;
                    if self.current > self.limit {
                        return false;
                    }
                }
            }
        }
        true
    }
}

/// `text` as a header value: as it is when it is visible ASCII without
/// surrounding spaces, else as `=?base64?…?=` (2026-07-28 Streamable HTTP).
pub(crate) fn header_text(text: &str) -> String {
    use base64::Engine as _;
    let plain = text.bytes().all(|byte| byte == b' ' || byte.is_ascii_graphic())
        && !text.starts_with(' ')
        && !text.ends_with(' ');
    if plain {
        text.to_owned()
    } else {
        format!("=?base64?{}?=", base64::engine::general_purpose::STANDARD.encode(text))
    }
}

#[cfg(test)]
mod tests {
    use super::EventSizes;

    #[test]
    fn an_event_is_counted_until_a_blank_line() {
        let mut sizes = EventSizes::new(10);
        assert!(sizes.within(b"data: 1234\n\n"));
        assert!(sizes.within(b"data: 1234\r\n\r\ndata: 5678\r\rdata:"));
        assert!(!sizes.within(b" 12345"), "11 bytes in one event");
        let mut sizes = EventSizes::new(10);
        assert!(sizes.within(b"data: 1\ndat"), "10 bytes over two lines");
        assert!(!sizes.within(b":"), "the 11th byte of one event, across lines and chunks");
        let mut endless = EventSizes::new(1024);
        let chunk = [b'x'; 100];
        assert!((0..10).all(|_| endless.within(&chunk)));
        assert!(!endless.within(&chunk), "an event with no end is refused once past the limit");
    }
}
