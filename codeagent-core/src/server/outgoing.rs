//! A JSON-RPC message on its way to the client: a JSON tree, or the bytes of
//! a tool's result written already (its large data written as JSON text once,
//! when the tool's rows were read, and copied into the message as it is; see
//! `raw_json`). The transports write either the same way.

use serde_json::Value;

use crate::raw_json::RawParts;

/// A message to send.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// A message as a JSON tree, written when it is sent.
    Tree(Value),
    /// A message written: the compact JSON of one object (or of a batch's array).
    Written(Vec<u8>),
}

impl From<Value> for Outgoing {
    fn from(message: Value) -> Outgoing {
        Outgoing::Tree(message)
    }
}

impl Outgoing {
    /// Message `message` (a tree that may hold markers of `parts`), written
    /// now when it holds any.
    pub(crate) fn with_parts(message: Value, parts: &RawParts) -> Outgoing {
        if parts.is_empty() { Outgoing::Tree(message) } else { Outgoing::Written(parts.to_vec(&message)) }
    }

    /// Appends the message's compact JSON to `bytes`.
    pub(crate) fn write_to(&self, bytes: &mut Vec<u8>) {
        match self {
            // Writing a `Value` into memory cannot fail.
            Outgoing::Tree(message) => {
                let _ = serde_json::to_writer(&mut *bytes, message);
            }
            Outgoing::Written(written) => bytes.extend_from_slice(written),
        }
    }

    /// The message's compact JSON followed by a newline, the message moved
    /// rather than copied when it is written already.
    pub(crate) fn into_line(self) -> Vec<u8> {
        let mut bytes = match self {
            Outgoing::Written(written) => written,
            tree => {
                let mut bytes = Vec::with_capacity(128);
                tree.write_to(&mut bytes);
                bytes
            }
        };
        bytes.push(b'\n');
        bytes
    }

    /// The message's compact JSON.
    pub(crate) fn into_string(self) -> String {
        match self {
            Outgoing::Tree(message) => message.to_string(),
            // Written by serde_json, so UTF-8.
            Outgoing::Written(written) => String::from_utf8(written)
                .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()),
        }
    }

    /// The message as a tree, parsed when it is written already.
    pub(crate) fn into_value(self) -> Value {
        match self {
            Outgoing::Tree(message) => message,
            Outgoing::Written(written) => serde_json::from_slice(&written).unwrap_or(Value::Null),
        }
    }

    /// The code of the message's `error`, when it is an error response (a
    /// written message is always a result or a batch).
    pub(crate) fn error_code(&self) -> Option<i64> {
        match self {
            Outgoing::Tree(message) => message.get("error")?.get("code")?.as_i64(),
            Outgoing::Written(_) => None,
        }
    }

    /// Whether the message is one object (not a batch's array).
    pub(crate) fn is_object(&self) -> bool {
        match self {
            Outgoing::Tree(message) => message.is_object(),
            Outgoing::Written(written) => written.first() == Some(&b'{'),
        }
    }

    /// The array of a batch's responses, in order.
    pub(crate) fn batch(messages: Vec<Outgoing>) -> Outgoing {
        if messages.iter().all(|message| matches!(message, Outgoing::Tree(_))) {
            let trees = messages.into_iter().map(Outgoing::into_value).collect();
            return Outgoing::Tree(Value::Array(trees));
        }
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
