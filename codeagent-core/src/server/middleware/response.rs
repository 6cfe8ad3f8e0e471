//! What comes back through the middleware: the handler's result or error.

use serde_json::Value;

use super::Request;
use crate::mcp::ProtocolVersion;
use crate::output::call_error;
use crate::server::jsonrpc::RpcError;
use crate::server::outgoing::Outgoing;

/// The answer to a request: a result, a JSON-RPC error, or none (the
/// request was cancelled, or the client went away, so nothing is sent).
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    outcome: Option<Result<Value, RpcError>>,
}

/// The keys of the arrays a listing returns.
const LISTED: [&str; 4] = ["tools", "resources", "resourceTemplates", "prompts"];

impl Response {
    /// A result, sent as the JSON-RPC `result` (shaped for the request's
    /// protocol version by whoever built it).
    pub fn result(result: Value) -> Self {
        Response { outcome: Some(Ok(result)) }
    }

    /// A JSON-RPC error.
    pub fn error(error: RpcError) -> Self {
        Response { outcome: Some(Err(error)) }
    }

    /// No response: nothing is sent.
    pub fn none() -> Self {
        Response { outcome: None }
    }

    /// A tool's error result (`isError: true`) with `message`, as the
    /// request's protocol version states it: what a middleware answers a
    /// `tools/call` with when the model should read why it failed.
    pub fn tool_error(request: &Request, message: impl Into<String>) -> Self {
        Response::tool_error_in(request.protocol_version(), message)
    }

    /// A tool's error result with `message`, as `version` states it.
    pub(crate) fn tool_error_in(version: ProtocolVersion, message: impl Into<String>) -> Self {
        Response::result(call_error(message).into_call_result().into_wire(version, None))
    }

    /// The result, unless the response is an error or none.
    pub fn as_result(&self) -> Option<&Value> {
        self.outcome.as_ref()?.as_ref().ok()
    }

    /// The result, to change it.
    pub fn result_mut(&mut self) -> Option<&mut Value> {
        self.outcome.as_mut()?.as_mut().ok()
    }

    /// The error, when the response is one.
    pub fn as_error(&self) -> Option<&RpcError> {
        self.outcome.as_ref()?.as_ref().err()
    }

    /// Whether the response is a JSON-RPC error.
    pub fn is_error(&self) -> bool {
        self.as_error().is_some()
    }

    /// Whether the response is a tool's error result (`isError: true`).
    pub fn is_tool_error(&self) -> bool {
        self.as_result().and_then(|result| result.get("isError")).and_then(Value::as_bool) == Some(true)
    }

    /// Whether there is no response (the request was cancelled).
    pub fn is_none(&self) -> bool {
        self.outcome.is_none()
    }

    /// A word for how the request ended: `ok`, `tool_error`, `error` or `none`.
    pub fn outcome(&self) -> &'static str {
        match &self.outcome {
            None => "none",
            Some(Err(_)) => "error",
            Some(Ok(_)) if self.is_tool_error() => "tool_error",
            Some(Ok(_)) => "ok",
        }
    }

    /// Keeps only the listed items (`tools`, `resources`,
    /// `resourceTemplates` or `prompts` of a listing's result) for which
    /// `keep` is true; a response that lists nothing is left alone.
    pub fn retain_listed(&mut self, mut keep: impl FnMut(&Value) -> bool) {
        let Some(Value::Object(result)) = self.result_mut() else { return };
        for key in LISTED {
            if let Some(Value::Array(items)) = result.get_mut(key) {
                items.retain(&mut keep);
            }
        }
    }

    /// The result or the error; `None` when there is no response.
    pub fn into_outcome(self) -> Option<Result<Value, RpcError>> {
        self.outcome
    }

    /// The response a JSON-RPC message carries (`result` or `error`).
    /// Large data written once (see `raw_json`) is read back, so middleware
    /// sees the whole result as a tree.
    pub(crate) fn from_message(message: Option<Outgoing>) -> Self {
        let message = match message {
            Some(Outgoing::Result { mut result, parts, .. }) => {
                parts.materialise(&mut result);
                return Response::result(result);
            }
            Some(message) => message.into_value(),
            None => return Response::none(),
        };
        let Value::Object(mut message) = message else { return Response::none() };
        if let Some(result) = message.remove("result") {
            return Response::result(result);
        }
        let error = message.remove("error").unwrap_or_default();
        let code = error.get("code").and_then(Value::as_i64).unwrap_or(crate::server::jsonrpc::INTERNAL_ERROR);
        let text = error.get("message").and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut error_value = RpcError::new(code, text);
        error_value.data = error.get("data").cloned();
        Response::error(error_value)
    }
}
