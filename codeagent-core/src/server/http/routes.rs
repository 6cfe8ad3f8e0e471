//! The MCP endpoint's POST, GET and DELETE handlers.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use super::Http;
use super::exchange::{Channel, Out, Reply, answer, sse};
use super::guard::unauthorized;
use super::headers;
use super::respond::{accepted, json, rpc_error};
use super::resume::resume;
use super::session::HttpSession;
use crate::mcp::ProtocolVersion;
use crate::server::engine::{Era, PROTOCOL_VERSION_KEY, Session, is_modern_request};
use crate::server::jsonrpc::{INVALID_REQUEST, Incoming, PARSE_ERROR, RpcError, classify, notification_message};
use crate::toolbox::{Cancellation, Context, RequestInfo};

const SESSION_HEADER: &str = "mcp-session-id";

/// The refusal of a request by the Host/Origin checks or the authorisation
/// hook, for every method.
fn refusal(http: &Http, headers: &HeaderMap) -> Option<Response> {
    if let Some(refusal) = http.allow.refusal(headers) {
        return Some(refusal);
    }
    let authorizer = http.options.authorizer.as_ref()?;
    authorizer.authorize(headers).err().map(|refusal| unauthorized(&refusal))
}

fn bad_request(message: impl Into<String>) -> Response {
    rpc_error(StatusCode::BAD_REQUEST, &Value::Null, &RpcError::new(INVALID_REQUEST, message))
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

/// POST: one JSON-RPC message (or a 2025-03-26 batch).
pub(crate) async fn post(State(http): State<Arc<Http>>, headers: HeaderMap, body: Body) -> Response {
    if let Some(refusal) = refusal(&http, &headers) {
        return refusal;
    }
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or_default();
    if !content_type.starts_with("application/json") {
        let error = RpcError::new(INVALID_REQUEST, "Unsupported Media Type: send the message as application/json");
        return rpc_error(StatusCode::UNSUPPORTED_MEDIA_TYPE, &Value::Null, &error);
    }
    let limit = http.options.body_limit;
    let bytes = match tokio::time::timeout(http.options.request_timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            let error = RpcError::new(INVALID_REQUEST, format!("Payload Too Large: the body exceeds {limit} bytes"));
            return rpc_error(StatusCode::PAYLOAD_TOO_LARGE, &Value::Null, &error);
        }
        Err(_) => {
            let error = RpcError::new(INVALID_REQUEST, "Request Timeout: the body did not arrive in time");
            return rpc_error(StatusCode::REQUEST_TIMEOUT, &Value::Null, &error);
        }
    };
    let message: Value = match serde_json::from_slice(&bytes) {
        Ok(message) => message,
        Err(error) => {
            let error = RpcError::new(PARSE_ERROR, format!("Parse error: {error}"));
            return rpc_error(StatusCode::BAD_REQUEST, &Value::Null, &error);
        }
    };
    if let Value::Array(batch) = message {
        return post_batch(http, &headers, batch).await;
    }
    match classify(message) {
        Incoming::Request { id, method, params } => {
            // A request is modern when its body or its version header says so.
            let header_modern = headers
                .get("mcp-protocol-version")
                .and_then(|value| value.to_str().ok())
                .and_then(|version| version.trim().parse::<ProtocolVersion>().ok())
                .is_some_and(ProtocolVersion::is_modern);
            if header_modern || is_modern_request(&method, &params) {
                modern_request(http, &headers, id, method, params).await
            } else {
                legacy_request(http, &headers, id, method, params).await
            }
        }
        Incoming::Notification { method, params } => {
            if let Some(session) = session_id(&headers).and_then(|id| http.sessions.get(id)) {
                if method == "notifications/cancelled"
                    && let Some(request) = params.get("requestId")
                {
                    session.cancel(request);
                }
                http.engine.notify(&session.session, &method);
            }
            accepted()
        }
        Incoming::Response => accepted(),
        Incoming::Invalid { id, error } => rpc_error(StatusCode::BAD_REQUEST, &id, &error),
    }
}

/// A 2026-07-28 request: stateless, headers checked against the body.
async fn modern_request(
    http: Arc<Http>,
    headers: &HeaderMap,
    id: Value,
    method: String,
    params: Map<String, Value>,
) -> Response {
    // The version header must mirror the body before the version is judged.
    let claimed = params.get("_meta").and_then(|meta| meta.get(PROTOCOL_VERSION_KEY)).and_then(Value::as_str);
    if let Some(claimed) = claimed
        && let Err(error) = headers::require(headers, "mcp-protocol-version", claimed)
    {
        return rpc_error(StatusCode::BAD_REQUEST, &id, &error);
    }
    let stateless = Session::default();
    let era = match http.engine.modern_era(&params) {
        Ok(era) => era,
        Err(error) => return rpc_error(StatusCode::BAD_REQUEST, &id, &error),
    };
    let tool = (method == "tools/call")
        .then(|| params.get("name").and_then(Value::as_str).and_then(|name| http.engine.toolbox.get(name)))
        .flatten();
    let mirrored = tool.as_ref().map_or(&[][..], |tool| tool.spec().header_params());
    if let Err(error) = headers::check(headers, era.version.as_str(), &method, &params, mirrored) {
        return rpc_error(StatusCode::BAD_REQUEST, &id, &error);
    }
    let reply = http.reply(id, era, headers, true);
    dispatch(http, stateless, reply, method, params, || {}).await
}

/// A legacy request: `initialize` opens a session; everything else needs one.
async fn legacy_request(
    http: Arc<Http>,
    headers: &HeaderMap,
    id: Value,
    method: String,
    params: Map<String, Value>,
) -> Response {
    if let Some(version) = headers.get("mcp-protocol-version").and_then(|value| value.to_str().ok())
        && version.trim().parse::<ProtocolVersion>().is_err()
    {
        let error = RpcError::new(
            INVALID_REQUEST,
            format!("Bad Request: unsupported MCP-Protocol-Version `{}`", version.trim()),
        );
        return rpc_error(StatusCode::BAD_REQUEST, &id, &error);
    }
    if method == "initialize" {
        let (session_id, session) = http.sessions.create();
        let era = match http.engine.era(&session.session, &method, &params) {
            Ok(era) => era,
            Err(error) => return rpc_error(StatusCode::BAD_REQUEST, &id, &error),
        };
        let reply = http.reply(id, era, headers, false);
        let mut response = dispatch_in(Arc::clone(&http), &session, reply, method, params).await;
        if let Ok(value) = HeaderValue::from_str(&session_id) {
            response.headers_mut().insert(SESSION_HEADER, value);
        }
        return response;
    }
    let Some(session_id) = session_id(headers) else {
        let error = RpcError::new(
            INVALID_REQUEST,
            "Bad Request: send the Mcp-Session-Id from the initialize response, or initialize first",
        );
        return rpc_error(StatusCode::BAD_REQUEST, &id, &error);
    };
    let Some(session) = http.sessions.get(session_id) else {
        let error = RpcError::new(INVALID_REQUEST, "Not Found: no such session; initialize again");
        return rpc_error(StatusCode::NOT_FOUND, &id, &error);
    };
    let era = match http.engine.era(&session.session, &method, &params) {
        Ok(era) => era,
        Err(error) => return rpc_error(StatusCode::BAD_REQUEST, &id, &error),
    };
    let mut reply = http.reply(id, era, headers, false);
    if era.version >= ProtocolVersion::V2025_11_25 {
        reply.logs = Some(Arc::clone(&session));
    }
    dispatch_in(http, &session, reply, method, params).await
}

/// [`dispatch`] within a legacy session, whose client may cancel the request.
async fn dispatch_in(
    http: Arc<Http>,
    session: &Arc<HttpSession>,
    reply: Reply,
    method: String,
    params: Map<String, Value>,
) -> Response {
    let tracked = Arc::clone(session);
    let id = reply.id.clone();
    let cancellation = Cancellation::new();
    session.track(&id, cancellation.clone());
    let untrack_id = id.clone();
    dispatch_with(http, &session.session, reply, method, params, cancellation, move || tracked.untrack(&untrack_id))
        .await
}

async fn dispatch(
    http: Arc<Http>,
    session: Session,
    reply: Reply,
    method: String,
    params: Map<String, Value>,
    finished: impl FnOnce() + Send + 'static,
) -> Response {
    dispatch_with(http, &session, reply, method, params, Cancellation::new(), finished).await
}

async fn dispatch_with(
    http: Arc<Http>,
    session: &Session,
    reply: Reply,
    method: String,
    params: Map<String, Value>,
    cancellation: Cancellation,
    finished: impl FnOnce() + Send + 'static,
) -> Response {
    let channel = Channel::new();
    let meta = params.get("_meta").and_then(Value::as_object).cloned().unwrap_or_default();
    let notifier = channel.notifier(&cancellation);
    let era = reply.era;
    let request_id = reply.id.clone();
    let context_cancellation = cancellation.clone();
    let action = http.engine.act(session, era, &method, params, move || {
        Context::new(RequestInfo {
            request_id: Some(request_id),
            meta,
            cancellation: context_cancellation,
            notifier: Some(notifier),
            log_level: era.log_level,
            protocol_version: Some(era.version),
        })
    });
    answer(Arc::clone(&http.engine), action, reply, channel, cancellation, finished).await
}

/// A JSON-RPC batch (2025-03-26 sessions only), answered with one JSON array.
async fn post_batch(http: Arc<Http>, headers: &HeaderMap, batch: Vec<Value>) -> Response {
    let Some(session) = session_id(headers).and_then(|id| http.sessions.get(id)) else {
        return bad_request("Bad Request: a batch needs a session that negotiated protocol version 2025-03-26");
    };
    if batch.is_empty() || !session.session.negotiated().is_some_and(ProtocolVersion::has_batches) {
        return bad_request(
            "Invalid request: JSON-RPC batches exist only in protocol version 2025-03-26, and not empty",
        );
    }
    let mut responses = Vec::new();
    for message in batch {
        match classify(message) {
            Incoming::Request { id, method, .. } if method == "initialize" => {
                let error = RpcError::new(INVALID_REQUEST, "Invalid request: initialize cannot be part of a batch");
                responses.push(crate::server::jsonrpc::error_message(&id, &error));
            }
            Incoming::Request { id, method, params } => {
                let era = match http.engine.era(&session.session, &method, &params) {
                    Ok(era) => era,
                    Err(error) => {
                        responses.push(crate::server::jsonrpc::error_message(&id, &error));
                        continue;
                    }
                };
                let mut reply = http.reply(id, era, headers, false);
                reply.sse = false;
                let response = dispatch_in(Arc::clone(&http), &session, reply, method, params).await;
                let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap_or_default();
                if let Ok(message) = serde_json::from_slice::<Value>(&body) {
                    responses.push(message);
                }
            }
            Incoming::Notification { method, params } => {
                if method == "notifications/cancelled"
                    && let Some(request) = params.get("requestId")
                {
                    session.cancel(request);
                }
                http.engine.notify(&session.session, &method);
            }
            Incoming::Response => {}
            Incoming::Invalid { id, error } => responses.push(crate::server::jsonrpc::error_message(&id, &error)),
        }
    }
    if responses.is_empty() { accepted() } else { json(StatusCode::OK, &Value::Array(responses)) }
}

/// GET: the stream of a legacy session's server-initiated messages.
pub(crate) async fn get(State(http): State<Arc<Http>>, headers: HeaderMap) -> Response {
    if let Some(refusal) = refusal(&http, &headers) {
        return refusal;
    }
    let Some(id) = session_id(&headers) else {
        return method_not_allowed("GET opens a legacy session's stream: send the Mcp-Session-Id header");
    };
    let Some(session) = http.sessions.get(id) else {
        return rpc_error(
            StatusCode::NOT_FOUND,
            &Value::Null,
            &RpcError::new(INVALID_REQUEST, "Not Found: no such session"),
        );
    };
    if !accepts_sse(&headers) {
        let error = RpcError::new(INVALID_REQUEST, "Not Acceptable: the GET stream is text/event-stream");
        return rpc_error(StatusCode::NOT_ACCEPTABLE, &Value::Null, &error);
    }
    if let Some(last) = headers.get("last-event-id").and_then(|value| value.to_str().ok())
        && let Some(response) = resume(&session.logs, last, http.options.keep_alive)
    {
        return response;
    }
    let closer = session.stream_closer();
    let mut changes = http.engine.toolbox.changes();
    changes.borrow_and_update();
    let channel = Channel::new();
    let out = channel.sender.clone();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = out.closed() => return,
                () = closer.cancelled() => return,
                changed = changes.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    let note = notification_message("notifications/tools/list_changed", json!({}));
                    if out.send(Out::Note(note)).await.is_err() {
                        return;
                    }
                }
            }
        }
    });
    sse(channel.receiver, http.options.keep_alive)
}

/// DELETE: ends a legacy session.
pub(crate) async fn delete(State(http): State<Arc<Http>>, headers: HeaderMap) -> Response {
    if let Some(refusal) = refusal(&http, &headers) {
        return refusal;
    }
    let Some(id) = session_id(&headers) else {
        return method_not_allowed("DELETE ends a legacy session: send the Mcp-Session-Id header");
    };
    if http.sessions.remove(id) {
        StatusCode::OK.into_response()
    } else {
        rpc_error(StatusCode::NOT_FOUND, &Value::Null, &RpcError::new(INVALID_REQUEST, "Not Found: no such session"))
    }
}

fn method_not_allowed(message: &str) -> Response {
    let mut response =
        rpc_error(StatusCode::METHOD_NOT_ALLOWED, &Value::Null, &RpcError::new(INVALID_REQUEST, message));
    response.headers_mut().insert(header::ALLOW, HeaderValue::from_static("POST"));
    response
}

impl Http {
    fn reply(&self, id: Value, era: Era, headers: &HeaderMap, disconnect_cancels: bool) -> Reply {
        Reply {
            id,
            era,
            sse: accepts_sse(headers),
            disconnect_cancels,
            timeout: self.options.request_timeout,
            keep_alive: self.options.keep_alive,
            logs: None,
        }
    }
}
