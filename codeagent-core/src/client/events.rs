//! What a server tells a client unasked: list changes, resource updates, log
//! messages, and any other notification.

use serde_json::{Map, Value};

/// A notification from the server that is not about one request's progress.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ServerEvent {
    /// The server's tools changed: list them again.
    ToolsChanged,
    /// The server's resources changed.
    ResourcesChanged,
    /// The server's prompts changed.
    PromptsChanged,
    /// A resource the client subscribed to changed.
    ResourceUpdated {
        /// The resource's URI.
        uri: String,
    },
    /// A log message (`notifications/message`).
    Log {
        /// Its level (`debug` … `emergency`).
        level: String,
        /// The logger's name, if given.
        logger: Option<String>,
        /// The message.
        data: Value,
    },
    /// Any other notification.
    Other {
        /// Its method.
        method: String,
        /// Its parameters.
        params: Map<String, Value>,
    },
}

impl ServerEvent {
    /// The event a notification `method` with `params` makes.
    pub(crate) fn from_notification(method: &str, params: Map<String, Value>) -> ServerEvent {
        match method {
            "notifications/tools/list_changed" => ServerEvent::ToolsChanged,
            "notifications/resources/list_changed" => ServerEvent::ResourcesChanged,
            "notifications/prompts/list_changed" => ServerEvent::PromptsChanged,
            "notifications/resources/updated" => match params.get("uri").and_then(Value::as_str) {
                Some(uri) => ServerEvent::ResourceUpdated { uri: uri.to_owned() },
                None => ServerEvent::Other { method: method.to_owned(), params },
            },
            "notifications/message" => ServerEvent::Log {
                level: params.get("level").and_then(Value::as_str).unwrap_or("info").to_owned(),
                logger: params.get("logger").and_then(Value::as_str).map(str::to_owned),
                data: params.get("data").cloned().unwrap_or(Value::Null),
            },
            _ => ServerEvent::Other { method: method.to_owned(), params },
        }
    }
}

/// One `notifications/progress` of a call.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// How far along (grows with each notification).
    pub progress: f64,
    /// Out of how much, when known.
    pub total: Option<f64>,
    /// What is happening, when said.
    pub message: Option<String>,
}

impl Progress {
    pub(crate) fn from_params(params: &Map<String, Value>) -> Option<Progress> {
        Some(Progress {
            progress: params.get("progress")?.as_f64()?,
            total: params.get("total").and_then(Value::as_f64),
            message: params.get("message").and_then(Value::as_str).map(str::to_owned),
        })
    }
}
