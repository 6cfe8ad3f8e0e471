//! HTTP responses carrying JSON-RPC messages.

use axum::body::Body;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::server::jsonrpc::{RpcError, error_message};
use crate::server::outgoing::Outgoing;

/// A JSON body with `status`.
pub(crate) fn json(status: StatusCode, message: Outgoing) -> Response {
    let body = match message {
        Outgoing::Written(written) => Body::from(written),
        message => Body::from(message.to_vec()),
    };
    let mut response = (status, body).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// A JSON-RPC error with `status`.
pub(crate) fn rpc_error(status: StatusCode, id: &Value, error: &RpcError) -> Response {
    json(status, error_message(id, error))
}

/// 202 Accepted, no body: a notification or response was received.
pub(crate) fn accepted() -> Response {
    StatusCode::ACCEPTED.into_response()
}
