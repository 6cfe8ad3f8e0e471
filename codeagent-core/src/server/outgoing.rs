//! A JSON-RPC message on its way to the client. A success response stays
//! its id and its result until it is written: the transports write the
//! envelope around the result, with no tree of its own, and a tool's result
//! whose large data was written to JSON text when the tool's output was read
//! (see `raw_json`) gets that text copied in as it is.

use serde_json::{Map, Value};

use crate::raw_json::{RawParts, TREE_HINT};

/// A message to send.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// A success response: `{"jsonrpc": "2.0", "id": id, "result": result}`,
    /// `result` holding markers of `parts`.
    Result { id: Value, result: Value, parts: RawParts },
    /// Any other message (an error response, a notification), as a tree.
    Tree(Value),
    /// A message written already: the compact JSON of a batch's array.
    Written(Vec<u8>),
}

impl From<Value> for Outgoing {
    fn from(message: Value) -> Outgoing {
        Outgoing::Tree(message)
    }
}

impl Outgoing {
    /// Appends the message's compact JSON to `bytes`.
    pub(crate) fn write_to(&self, bytes: &mut Vec<u8>) {
        // Writing into memory cannot fail.
        match self {
            Outgoing::Result { id, result, parts } => {
                // Room for the whole message, so a large one is not copied
                // as the buffer grows.
                bytes.reserve(parts.len_hint() + TREE_HINT);
                bytes.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
                let _ = serde_json::to_writer(&mut *bytes, id);
                bytes.extend_from_slice(br#","result":"#);
                let _ = parts.write(result, bytes);
                bytes.push(b'}');
            }
            Outgoing::Tree(message) => {
                let _ = serde_json::to_writer(&mut *bytes, message);
            }
            Outgoing::Written(written) => bytes.extend_from_slice(written),
        }
    }

    /// The message's compact JSON.
    pub(crate) fn to_vec(&self) -> Vec<u8> {
        let capacity = match self {
            Outgoing::Result { parts, .. } => parts.len_hint() + TREE_HINT,
            Outgoing::Tree(_) => 128,
            Outgoing::Written(written) => written.len(),
        };
        let mut bytes = Vec::with_capacity(capacity);
        self.write_to(&mut bytes);
        bytes
    }

    /// The message's compact JSON followed by a newline.
    pub(crate) fn into_line(self) -> Vec<u8> {
        let mut bytes = match self {
            Outgoing::Written(written) => written,
            message => message.to_vec(),
        };
        bytes.push(b'\n');
        bytes
    }

    /// The message's compact JSON, as a string.
    #[cfg(feature = "http")]
    pub(crate) fn into_string(self) -> String {
        let bytes = match self {
            Outgoing::Written(written) => written,
            message => message.to_vec(),
        };
        // Written by serde_json, or copied from its output: UTF-8.
        String::from_utf8(bytes).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
    }

    /// The message as a tree, every marker replaced by its value.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Outgoing::Result { id, mut result, parts } => {
                parts.materialise(&mut result);
                let mut message = Map::with_capacity(3);
                message.insert("jsonrpc".into(), Value::from("2.0"));
                message.insert("id".into(), id);
                message.insert("result".into(), result);
                Value::Object(message)
            }
            Outgoing::Tree(message) => message,
            Outgoing::Written(written) => serde_json::from_slice(&written).unwrap_or(Value::Null),
        }
    }

    /// The code of the message's `error`, when it is an error response.
    #[cfg(feature = "http")]
    pub(crate) fn error_code(&self) -> Option<i64> {
        match self {
            Outgoing::Tree(message) => message.get("error")?.get("code")?.as_i64(),
            Outgoing::Result { .. } | Outgoing::Written(_) => None,
        }
    }

    /// Whether the message is one object (not a batch's array).
    #[cfg(feature = "http")]
    pub(crate) fn is_object(&self) -> bool {
        match self {
            Outgoing::Result { .. } => true,
            Outgoing::Tree(message) => message.is_object(),
            Outgoing::Written(written) => written.first() == Some(&b'{'),
        }
    }

    /// The array of a batch's responses, in order.
    pub(crate) fn batch(messages: Vec<Outgoing>) -> Outgoing {
        let mut bytes = vec![b'['];
        for (position, message) in messages.iter().enumerate() {
            if position > 0 {
                bytes.push(b',');
            }
            message.write_to(&mut bytes);
        }
        bytes.push(b']');
        Outgoing::Written(bytes)
    }
}
