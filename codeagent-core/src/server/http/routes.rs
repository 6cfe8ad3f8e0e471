//! The MCP endpoint's POST, GET and DELETE handlers: HTTP framing only
//! (sessions, headers, status codes); the engine answers the messages.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::Http;
use super::answer::{Answering, answer, sse};
use super::channel::{StreamOutlet, stream};
use super::forward::forward;
use super::guard::unauthorized;
use super::headers;
use super::respond::{accepted, rpc_error};
use super::resume::resume;
use super::session::{HttpSession, Refused};
use crate::mcp::meta::PROTOCOL_VERSION_KEY;
use crate::mcp::{Method, ProtocolVersion};
use crate::server::era::{Era, is_modern_request};
use crate::server::jsonrpc::{INTERNAL_ERROR, INVALID_REQUEST, Incoming, METHOD_NOT_FOUND, Request, RpcError, read};
use crate::server::peer::Peer;
use crate::server::store::StoreError;

const SESSION_HEADER: &str = "mcp-session-id";
const VERSION_HEADER: &str = "mcp-protocol-version";

/// The refusal of a request by the Host/Origin checks or the authorisation
/// hook, for every method.
fn refusal(http: &Http, headers: &HeaderMap) -> Option<Response> {
    if let Some(refusal) = http.allow.refusal(headers) {
        return Some(refusal);
    }
    let authorizer = http.options.authorizer.as_ref()?;
    authorizer.authorize(headers).err().map(|refusal| unauthorized(&refusal))
}

/// Whom a request speaks for: the caller its access token names, where the
/// endpoint is a resource server (`None` elsewhere); or its refusal.
///
/// `method` and `uri` are the request's: a DPoP proof is checked against
/// them (its `htu` against the resource identifier's origin and `uri`'s path).
async fn admit(http: &Http, headers: &HeaderMap, method: &axum::http::Method, uri: &Uri) -> Result<Admitted, Response> {
    if let Some(refusal) = refusal(http, headers) {
        return Err(refusal);
    }
    #[cfg(feature = "auth")]
    if let Some(resource_server) = &http.options.resource_server {
        return match resource_server.admit(headers, method.as_str(), uri.path()).await {
            Ok(caller) => Ok(Some(caller)),
            Err(refusal) => Err(auth_refusal(&refusal)),
        };
    }
    #[cfg(not(feature = "auth"))]
    let _ = (method, uri);
    Ok(None)
}

/// Who a request speaks for, where its token was checked.
type Admitted = Option<crate::toolbox::Caller>;

/// The response to a refusal of the resource server: a `WWW-Authenticate`
/// header per challenge, and `DPoP-Nonce` when it hands one out.
#[cfg(feature = "auth")]
fn auth_refusal(refusal: &crate::server::auth::Refusal) -> Response {
    let refused = super::guard::Unauthorized {
        status: refusal.status,
        message: refusal.message.clone(),
        challenge: refusal.challenges.first().cloned(),
    };
    let mut response = unauthorized(&refused);
    for challenge in refusal.challenges.iter().skip(1) {
        if let Ok(value) = HeaderValue::from_str(challenge) {
            response.headers_mut().append(header::WWW_AUTHENTICATE, value);
        }
    }
    if let Some(value) = refusal.nonce.as_deref().and_then(|nonce| HeaderValue::from_str(nonce).ok()) {
        response.headers_mut().insert("dpop-nonce", value);
    }
    response
}

/// `response` with a fresh `DPoP-Nonce` (for a resource server that hands
/// nonces out), unless it carries one already.
#[cfg(feature = "auth")]
pub(crate) async fn with_dpop_nonce(
    State(resource_server): State<crate::server::auth::ResourceServer>,
    mut response: Response,
) -> Response {
    if !response.headers().contains_key("dpop-nonce")
        && let Some(value) = resource_server.next_nonce().await.and_then(|nonce| HeaderValue::from_str(&nonce).ok())
    {
        response.headers_mut().insert("dpop-nonce", value);
    }
    response
}

/// The `403` for a single request whose token lacks the scopes of the
/// tool, resource or prompt it names: the status and challenge the
/// authorization spec asks for. (The engine refuses it anyway; this only
/// says it in HTTP's terms.)
#[cfg(feature = "auth")]
fn forbidden_scope(http: &Http, caller: &Admitted, request: &Request) -> Option<Response> {
    let resource_server = http.options.resource_server.as_ref()?;
    let needed = crate::server::scopes::needed(&http.engine.toolbox, &request.method, &request.params);
    let missing = crate::server::scopes::missing(&needed, caller.as_ref(), true);
    resource_server.forbid(&needed, &missing, caller.as_ref()).map(|refusal| auth_refusal(&refusal))
}

/// Without the `auth` feature no scope is checked.
#[cfg(not(feature = "auth"))]
fn forbidden_scope(_: &Http, _: &Admitted, _: &Request) -> Option<Response> {
    None
}

/// GET of the protected resource metadata (RFC 9728), readable from any origin.
#[cfg(feature = "auth")]
pub(crate) async fn resource_metadata(State(http): State<Arc<Http>>) -> Response {
    let Some(resource_server) = &http.options.resource_server else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let body = resource_server.metadata().to_string();
    (StatusCode::OK, [(header::CONTENT_TYPE, "application/json"), (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*")], body)
        .into_response()
}

fn refuse(status: StatusCode, id: &Value, message: impl Into<String>) -> Response {
    rpc_error(status, id, &RpcError::new(INVALID_REQUEST, message))
}

fn accepts_sse(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.contains("text/event-stream"))
}

fn session_id(headers: &HeaderMap) -> Option<&str> {
    headers.get(SESSION_HEADER).and_then(|value| value.to_str().ok())
}

/// The protocol version the request's header names, if it names one.
fn header_version(headers: &HeaderMap) -> Option<Result<ProtocolVersion, String>> {
    let text = headers.get(VERSION_HEADER)?.to_str().unwrap_or_default().trim();
    Some(text.parse::<ProtocolVersion>().map_err(|_| text.to_owned()))
}

/// POST: one JSON-RPC message (or a 2025-03-26 batch).
pub(crate) async fn post(
    State(http): State<Arc<Http>>,
    connection: Option<axum::Extension<ConnectInfo<SocketAddr>>>,
    method: axum::http::Method,
    uri: Uri,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let caller = match admit(&http, &headers, &method, &uri).await {
        Ok(caller) => caller,
        Err(refusal) => return refusal,
    };
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or_default();
    if !content_type.starts_with("application/json") {
        let message = "Unsupported Media Type: send the message as application/json";
        return refuse(StatusCode::UNSUPPORTED_MEDIA_TYPE, &Value::Null, message);
    }
    let limit = http.options.body_limit;
    let declared =
        headers.get(header::CONTENT_LENGTH).and_then(|value| value.to_str().ok()?.trim().parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        // Refused before the body is read: a client that sent
        // `Expect: 100-continue` gets no `100 Continue`, and nothing is buffered.
        let message = format!("Payload Too Large: the body exceeds {limit} bytes");
        return refuse(StatusCode::PAYLOAD_TOO_LARGE, &Value::Null, message);
    }
    let bytes = match tokio::time::timeout(http.options.body_timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            let message = format!("Payload Too Large: the body exceeds {limit} bytes");
            return refuse(StatusCode::PAYLOAD_TOO_LARGE, &Value::Null, message);
        }
        Err(_) => {
            let message = "Request Timeout: the body did not arrive in time";
            return refuse(StatusCode::REQUEST_TIMEOUT, &Value::Null, message);
        }
    };
    let header_modern = matches!(header_version(&headers), Some(Ok(version)) if version.is_modern());
    let incoming = read(&bytes);
    if let Incoming::Request(request) = &incoming
        && let Some(refusal) = forbidden_scope(&http, &caller, request)
    {
        return refusal;
    }
    match incoming {
        Incoming::Invalid { id, error } => rpc_error(StatusCode::BAD_REQUEST, &id, &error),
        Incoming::Request(request)
            if header_modern || is_modern_request(Method::from_name(&request.method), &request.params) =>
        {
            modern_request(&http, &headers, &caller, request).await
        }
        Incoming::Request(request) => {
            let address = connection.map(|axum::Extension(ConnectInfo(address))| address);
            legacy_request(&http, &headers, &caller, address, request).await
        }
        // A 2026-07-28 client has nothing to notify or answer outside a request.
        Incoming::Notification { .. } | Incoming::Response { .. }
            if header_modern && session_id(&headers).is_none() =>
        {
            accepted()
        }
        message => {
            let batch = matches!(message, Incoming::Batch(_));
            let session = match session(&http, &headers, &caller, &Value::Null).await {
                Ok(session) => session,
                Err(refusal) => return *refusal,
            };
            let message = match forward(http.sessions.shared(), &session, message).await {
                Ok(Some(message)) => message,
                Ok(None) => return accepted(),
                Err(error) => return store_failed(&Value::Null, &error),
            };
            let how = Answering { batch, ..http.answering(&headers, &caller, false, false, None) };
            let response = answer(&http.engine, &session.peer, message, how).await;
            persisted(&http, &session, &Value::Null, response).await
        }
    }
}

/// The legacy session a request names: 400 without the header, 404 when the
/// session is unknown, expired or another caller's, 503 when the shared
/// store cannot say.
async fn session(
    http: &Http,
    headers: &HeaderMap,
    caller: &Admitted,
    id: &Value,
) -> Result<Arc<HttpSession>, Box<Response>> {
    let Some(session_id) = session_id(headers) else {
        let message = "Bad Request: send the Mcp-Session-Id from the initialize response, or initialize first";
        return Err(Box::new(refuse(StatusCode::BAD_REQUEST, id, message)));
    };
    match http.sessions.find(session_id).await {
        Ok(Some(session)) if session.owner() == owner(http, headers, caller) => Ok(session),
        Ok(Some(_)) => {
            tracing::warn!("a request for a session another caller opened was refused");
            Err(Box::new(no_such_session(id)))
        }
        Ok(None) => Err(Box::new(no_such_session(id))),
        Err(error) => Err(Box::new(store_failed(id, &error))),
    }
}

/// 404: the session is unknown (or not the caller's, which is not told apart).
fn no_such_session(id: &Value) -> Response {
    refuse(StatusCode::NOT_FOUND, id, "Not Found: no such session; initialize again")
}

/// Whom a legacy session opened by this request belongs to: the caller its
/// token names, or, behind an [`Authorize`](super::Authorize) hook, the
/// credentials it let through (as a digest); nobody where nothing
/// authenticates.
fn owner(http: &Http, headers: &HeaderMap, caller: &Admitted) -> Option<String> {
    if let Some(caller) = caller {
        return Some(caller.identity());
    }
    http.options.authorizer.as_ref()?;
    let credentials = headers.get(header::AUTHORIZATION).map_or(&[][..], HeaderValue::as_bytes);
    let digest = hmac_sha256::Hash::hash(credentials);
    Some(format!("credentials:{}", crate::lower_hex::lower_hex(&digest)))
}

/// 503: the shared store failed, so the request cannot be served now.
fn store_failed(id: &Value, error: &StoreError) -> Response {
    tracing::warn!("the session store failed: {error}");
    let error = RpcError::new(INTERNAL_ERROR, format!("Service Unavailable: the session store failed: {error}"));
    rpc_error(StatusCode::SERVICE_UNAVAILABLE, id, &error)
}

/// `response`, once the session's record in the shared store is up to date
/// (else 503: a change the store did not take would be lost on the next
/// instance).
async fn persisted(http: &Http, session: &HttpSession, id: &Value, response: Response) -> Response {
    match http.sessions.persist(session).await {
        Ok(()) => response,
        Err(error) => store_failed(id, &error),
    }
}

/// A 2026-07-28 request: stateless, headers checked against the body.
async fn modern_request(http: &Arc<Http>, headers: &HeaderMap, caller: &Admitted, request: Request) -> Response {
    let id = request.id.clone();
    // The version header must mirror the body before the version is judged.
    let claimed = request.params.get("_meta").and_then(|meta| meta.get(PROTOCOL_VERSION_KEY)).and_then(Value::as_str);
    if let Some(claimed) = claimed
        && let Err(error) = headers::require(headers, VERSION_HEADER, claimed)
    {
        return rpc_error(StatusCode::BAD_REQUEST, &id, &error);
    }
    let method = Method::from_name(&request.method);
    // A method the modern era does not have (`initialize`, `ping`...) is
    // unknown there, whatever else the request says.
    if method.is_some_and(|method| !method.exists_in(ProtocolVersion::LATEST)) {
        let error = RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {}", request.method));
        return rpc_error(StatusCode::NOT_FOUND, &id, &error);
    }
    let era = match Era::modern(&request.params) {
        Ok(era) => era,
        Err(error) => return rpc_error(StatusCode::BAD_REQUEST, &id, &error),
    };
    let tool = (method == Some(Method::ToolsCall))
        .then(|| {
            request.params.get("name").and_then(Value::as_str).and_then(|name| http.engine.toolbox.tools().find(name))
        })
        .flatten();
    let mirrored = tool.as_ref().map_or(&[][..], |tool| tool.spec().header_params());
    if let Err(error) = headers::check(headers, era.version.as_str(), &request.method, &request.params, mirrored) {
        return rpc_error(StatusCode::BAD_REQUEST, &id, &error);
    }
    let sse = accepts_sse(headers) || method == Some(Method::SubscriptionsListen);
    let peer = Peer::new();
    answer(&http.engine, &peer, Incoming::Request(request), http.answering(headers, caller, sse, true, None)).await
}

/// A legacy request: `initialize` opens a session; everything else needs one.
async fn legacy_request(
    http: &Arc<Http>,
    headers: &HeaderMap,
    caller: &Admitted,
    address: Option<SocketAddr>,
    request: Request,
) -> Response {
    if let Some(Err(version)) = header_version(headers) {
        let message = format!("Bad Request: unsupported MCP-Protocol-Version `{version}`");
        return refuse(StatusCode::BAD_REQUEST, &request.id, message);
    }
    let sse = accepts_sse(headers);
    if request.method == Method::Initialize.name() {
        let header = http.options.client_address_header.as_deref();
        let client = super::client::key(caller.as_ref(), address, headers, header);
        let (session_id, session) = match http.sessions.create(client.as_deref()) {
            Ok(created) => created,
            Err(Refused::TooMany { limit }) => return super::client::too_many_sessions(&request.id, limit),
            Err(Refused::NoRandomness) => {
                let error = RpcError::new(INTERNAL_ERROR, "Internal error: no session id could be made");
                return rpc_error(StatusCode::INTERNAL_SERVER_ERROR, &request.id, &error);
            }
        };
        session.bind(owner(http, headers, caller));
        let id = request.id.clone();
        let message = Incoming::Request(request);
        let mut response =
            answer(&http.engine, &session.peer, message, http.answering(headers, caller, sse, false, None)).await;
        if let Err(error) = http.sessions.persist(&session).await {
            // A session other instances cannot find is no session: refused whole.
            let _ = http.sessions.end(&session_id).await;
            return store_failed(&id, &error);
        }
        if let Ok(value) = HeaderValue::from_str(&session_id) {
            response.headers_mut().insert(SESSION_HEADER, value);
        }
        return response;
    }
    let session = match session(http, headers, caller, &request.id).await {
        Ok(session) => session,
        Err(refusal) => return *refusal,
    };
    // Streams of 2025-11-25 sessions are resumable (SEP-1699).
    let resumable = session.peer.negotiated().version.is_some_and(|version| version >= ProtocolVersion::V2025_11_25);
    let logs = resumable.then_some(&session.logs);
    let id = request.id.clone();
    let response = answer(
        &http.engine,
        &session.peer,
        Incoming::Request(request),
        http.answering(headers, caller, sse, false, logs),
    )
    .await;
    persisted(http, &session, &id, response).await
}

/// GET: the stream of a legacy session's server-initiated messages.
pub(crate) async fn get(
    State(http): State<Arc<Http>>,
    method: axum::http::Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let caller = match admit(&http, &headers, &method, &uri).await {
        Ok(caller) => caller,
        Err(refusal) => return refusal,
    };
    if session_id(&headers).is_none() {
        return method_not_allowed("GET opens a legacy session's stream: send the Mcp-Session-Id header");
    }
    let session = match session(&http, &headers, &caller, &Value::Null).await {
        Ok(session) => session,
        Err(refusal) => return *refusal,
    };
    if !accepts_sse(&headers) {
        let message = "Not Acceptable: the GET stream is text/event-stream";
        return refuse(StatusCode::NOT_ACCEPTABLE, &Value::Null, message);
    }
    if let Some(last) = headers.get("last-event-id") {
        return resume(&session.logs, last.to_str().unwrap_or_default(), http.options.keep_alive).await;
    }
    let (sender, receiver) = stream();
    let engine = Arc::clone(&http.engine);
    let mut changes = engine.list_changes();
    if let Some(shared) = http.sessions.shared() {
        changes = changes.with_remote(shared.remote_changes.subscribe());
    }
    tokio::spawn(async move {
        let outlet = StreamOutlet(sender);
        engine.announce_list_changes(&session.peer, &outlet, changes).await;
    });
    sse(receiver, http.options.keep_alive)
}

/// DELETE: ends a legacy session.
pub(crate) async fn delete(
    State(http): State<Arc<Http>>,
    method: axum::http::Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let caller = match admit(&http, &headers, &method, &uri).await {
        Ok(caller) => caller,
        Err(refusal) => return refusal,
    };
    let Some(id) = session_id(&headers) else {
        return method_not_allowed("DELETE ends a legacy session: send the Mcp-Session-Id header");
    };
    // Only its owner ends a session: anyone else is told it does not exist.
    if let Err(refusal) = session(&http, &headers, &caller, &Value::Null).await {
        return *refusal;
    }
    match http.sessions.end(id).await {
        Ok(true) => StatusCode::OK.into_response(),
        Ok(false) => refuse(StatusCode::NOT_FOUND, &Value::Null, "Not Found: no such session"),
        Err(error) => store_failed(&Value::Null, &error),
    }
}

fn method_not_allowed(message: &str) -> Response {
    let mut response = refuse(StatusCode::METHOD_NOT_ALLOWED, &Value::Null, message);
    response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
    response
}

impl Http {
    fn answering<'a>(
        &self,
        headers: &HeaderMap,
        caller: &Admitted,
        sse: bool,
        modern: bool,
        logs: Option<&'a super::resume::StreamLogs>,
    ) -> Answering<'a> {
        Answering {
            sse,
            batch: false,
            hangup_stops: modern,
            modern,
            deadline: self.options.request_timeout,
            keep_alive: self.options.keep_alive,
            logs,
            remote_changes: self.sessions.shared().map(|shared| shared.remote_changes.clone()),
            headers: (!self.engine.middleware.is_empty()).then(|| Arc::new(headers.clone())),
            caller: caller.clone(),
            caller_required: self.caller_required(),
        }
    }

    /// Whether every request here must come from a caller a token named.
    fn caller_required(&self) -> bool {
        #[cfg(feature = "auth")]
        return self.options.resource_server.is_some();
        #[cfg(not(feature = "auth"))]
        false
    }
}
