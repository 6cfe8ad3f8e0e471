//! JSON-RPC 2.0 messages as MCP uses them.

use serde_json::{Map, Value};

use super::outgoing::Outgoing;
use crate::mcp::message_member::MessageMember;
use crate::raw_json::RawParts;

pub use crate::mcp::codes::{
    HEADER_MISMATCH, INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, MISSING_CLIENT_CAPABILITY,
    PARSE_ERROR, RESOURCE_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION,
};

/// A JSON-RPC error object.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{message} ({code})")]
#[non_exhaustive]
pub struct RpcError {
    /// The error code.
    pub code: i64,
    /// A short description.
    pub message: String,
    /// Details, when there are any.
    pub data: Option<Value>,
}

impl RpcError {
    /// An error with `code` and `message`.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError { code, message: message.into(), data: None }
    }

    /// Adds `data`.
    #[must_use]
    pub fn with_data(mut self, data: Value) -> Self {
        self.data = Some(data);
        self
    }

    /// The error object as JSON.
    pub fn to_value(&self) -> Value {
        let mut error = Map::new();
        error.insert("code".into(), Value::from(self.code));
        error.insert("message".into(), Value::from(self.message.as_str()));
        if let Some(data) = &self.data {
            error.insert("data".into(), data.clone());
        }
        Value::Object(error)
    }
}

/// A request from the client.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) id: Value,
    pub(crate) method: String,
    pub(crate) params: Map<String, Value>,
}

/// One message from the client, classified.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A request, to be answered.
    Request(Request),
    /// A notification, never answered.
    Notification { method: String, params: Map<String, Value> },
    /// A response to a request of ours (a question a tool asked): its id
    /// and its result, or its error object.
    Response { id: Value, outcome: Result<Value, Value> },
    /// Not a valid message; answered with `error`, with `id` when it could be read.
    Invalid { id: Value, error: RpcError },
    /// A JSON-RPC batch, not yet looked into.
    Batch(Vec<Value>),
}

/// Reads one message from its bytes: invalid JSON is a parse error.
///
/// An object is read straight into its members, without a map of its own;
/// every member is still parsed as JSON, so what is a parse error is exactly
/// what [`serde_json::Value`] would refuse.
pub(crate) fn read(bytes: &[u8]) -> Incoming {
    match serde_json::from_slice(bytes) {
        Ok(Parsed::Message(members)) => members.classify(),
        Ok(Parsed::Batch(batch)) => Incoming::Batch(batch),
        Ok(Parsed::Other) => not_an_object(),
        Err(error) => {
            Incoming::Invalid { id: Value::Null, error: RpcError::new(PARSE_ERROR, format!("Parse error: {error}")) }
        }
    }
}

/// A message as read: an object's members, a batch, or any other JSON.
// It lives on the stack for one parse; boxing the members would cost an
// allocation per message.
#[allow(clippy::large_enum_variant)]
enum Parsed {
    Message(Members),
    Batch(Vec<Value>),
    Other,
}

/// The members of a message object that JSON-RPC looks at; a member present
/// with `null` is `Some(Value::Null)`. Others are parsed and dropped.
#[derive(Default)]
struct Members {
    jsonrpc: Option<Value>,
    id: Option<Value>,
    method: Option<Value>,
    params: Option<Value>,
    result: Option<Value>,
    error: Option<Value>,
}

impl<'de> serde::Deserialize<'de> for Parsed {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Message;
        impl<'de> serde::de::Visitor<'de> for Message {
            type Value = Parsed;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Parsed, A::Error> {
                let mut members = Members::default();
                // A repeated member keeps its last value, as in a `Value` object.
                while let Some(member) = map.next_key::<MessageMember>()? {
                    let value = Some(map.next_value::<Value>()?);
                    match member {
                        MessageMember::Jsonrpc => members.jsonrpc = value,
                        MessageMember::Id => members.id = value,
                        MessageMember::Method => members.method = value,
                        MessageMember::Params => members.params = value,
                        MessageMember::Result => members.result = value,
                        MessageMember::Error => members.error = value,
                        MessageMember::Other => {}
                    }
                }
                Ok(Parsed::Message(members))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Parsed, A::Error> {
                let mut batch = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(message) = seq.next_element::<Value>()? {
                    batch.push(message);
                }
                Ok(Parsed::Batch(batch))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Parsed, E> {
                Ok(Parsed::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Parsed, E> {
                Ok(Parsed::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Parsed, E> {
                Ok(Parsed::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Parsed, E> {
                Ok(Parsed::Other)
            }
            fn visit_str<E>(self, _: &str) -> Result<Parsed, E> {
                Ok(Parsed::Other)
            }
            fn visit_unit<E>(self) -> Result<Parsed, E> {
                Ok(Parsed::Other)
            }
        }
        deserializer.deserialize_any(Message)
    }
}

fn not_an_object() -> Incoming {
    Incoming::Invalid {
        id: Value::Null,
        error: RpcError::new(INVALID_REQUEST, "Invalid request: a JSON-RPC message must be an object"),
    }
}

/// Classifies one JSON-RPC message.
pub(crate) fn classify(message: Value) -> Incoming {
    let mut object = match message {
        Value::Object(object) => object,
        Value::Array(batch) => return Incoming::Batch(batch),
        _ => return not_an_object(),
    };
    Members {
        jsonrpc: object.remove("jsonrpc"),
        id: object.remove("id"),
        method: object.remove("method"),
        params: object.remove("params"),
        result: object.remove("result"),
        error: object.remove("error"),
    }
    .classify()
}

impl Members {
    fn classify(self) -> Incoming {
        let Members { jsonrpc, id, method, params, result, error } = self;
        // MCP request ids are strings or integers.
        let valid = |id: &Value| id.is_string() || id.is_i64() || id.is_u64();
        let usable_id = match &id {
            Some(id) if valid(id) => id.clone(),
            _ => Value::Null,
        };
        let invalid = |message: &str| Incoming::Invalid {
            id: usable_id.clone(),
            error: RpcError::new(INVALID_REQUEST, format!("Invalid request: {message}")),
        };
        if jsonrpc.as_ref().and_then(Value::as_str) != Some("2.0") {
            return invalid("`jsonrpc` must be \"2.0\"");
        }
        let method = match method {
            Some(Value::String(method)) => method,
            Some(_) => return invalid("`method` must be a string"),
            None if result.is_some() || error.is_some() => {
                let outcome = match (result, error) {
                    (Some(result), None) => Ok(result),
                    (None, Some(error)) => Err(error),
                    _ => return invalid("a response has a `result` or an `error`, not both"),
                };
                return Incoming::Response { id: id.unwrap_or(Value::Null), outcome };
            }
            None => return invalid("a message needs a `method` (or a `result` or `error`, for a response)"),
        };
        let params = match params {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(params)) => params,
            Some(_) => {
                return Incoming::Invalid {
                    id: usable_id,
                    error: RpcError::new(INVALID_PARAMS, "Invalid params: `params` must be an object"),
                };
            }
        };
        match id {
            None => Incoming::Notification { method, params },
            Some(id) if valid(&id) => Incoming::Request(Request { id: usable_id, method, params }),
            Some(_) => invalid("`id` must be a string or an integer"),
        }
    }
}

/// A JSON-RPC envelope around `key: value`, moving `value` in rather than
/// copying it (`json!` would serialise it again).
fn envelope(id: Option<&Value>, key: &str, value: Value) -> Value {
    let mut message = Map::with_capacity(3);
    message.insert("jsonrpc".into(), Value::from("2.0"));
    if let Some(id) = id {
        message.insert("id".into(), id.clone());
    }
    message.insert(key.into(), value);
    Value::Object(message)
}

/// A success response.
pub(crate) fn result_message(id: &Value, result: Value) -> Outgoing {
    Outgoing::Result { id: id.clone(), result, parts: RawParts::default() }
}

/// A success response whose result holds markers of `parts` (a tool's
/// result with large data written once, see `raw_json`).
pub(crate) fn raw_result_message(id: &Value, result: Value, parts: RawParts) -> Outgoing {
    Outgoing::Result { id: id.clone(), result, parts }
}

/// An error response.
pub(crate) fn error_message(id: &Value, error: &RpcError) -> Outgoing {
    Outgoing::Tree(envelope(Some(id), "error", error.to_value()))
}

/// A notification.
pub(crate) fn notification_message(method: &str, params: Value) -> Value {
    let mut message = envelope(None, "method", Value::from(method));
    if let Value::Object(map) = &mut message {
        map.insert("params".into(), params);
    }
    message
}
