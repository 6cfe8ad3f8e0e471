//! A tool call: its options, its progress, and what it gives back.

use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};

use super::events::Progress;
use super::session::RequestOptions;
use super::{Client, ClientError};
use crate::mcp::CallToolResult;
use crate::mcp::meta::SERVER_INFO_KEY;
use crate::result::ToolResult;

/// A server's answer to `tools/call`.
#[derive(Clone, Debug, PartialEq)]
pub struct CallOutput {
    raw: Value,
}

impl CallOutput {
    pub(crate) fn new(raw: Value) -> CallOutput {
        CallOutput { raw }
    }

    /// The `CallToolResult` exactly as the server sent it.
    pub fn raw(&self) -> &Value {
        &self.raw
    }

    /// The answer as a [`CallToolResult`]; an error when it is not one.
    pub fn call_result(&self) -> Result<CallToolResult, serde_json::Error> {
        serde_json::from_value(self.raw.clone())
    }

    /// The answer as a three-channel result: value for a model, artifact for
    /// a host, display (see [`ToolResult::from_mcp`]).
    pub fn result(&self) -> ToolResult {
        let mut raw = self.raw.clone();
        if let Some(object) = raw.as_object_mut() {
            // The 2026-07-28 envelope is the connection's, not the result's.
            object.remove("resultType");
            let meta = object.get_mut("_meta").and_then(Value::as_object_mut);
            if let Some(meta) = meta {
                meta.remove(SERVER_INFO_KEY);
                if meta.is_empty() {
                    object.remove("_meta");
                }
            }
        }
        ToolResult::from_mcp(&raw)
    }

    /// Whether the tool failed (`isError`).
    pub fn is_error(&self) -> bool {
        self.raw.get("isError").and_then(Value::as_bool).unwrap_or(false)
    }

    /// The structured content, if there is some.
    pub fn structured(&self) -> Option<&Value> {
        self.raw.get("structuredContent")
    }

    /// The text of the text blocks, one per line.
    pub fn text(&self) -> String {
        let blocks = self.raw.get("content").and_then(Value::as_array).into_iter().flatten();
        let texts: Vec<&str> =
            blocks.filter(|block| block["type"] == "text").filter_map(|block| block["text"].as_str()).collect();
        texts.join("\n")
    }

    /// The raw answer.
    pub fn into_raw(self) -> Value {
        self.raw
    }
}

/// A `tools/call` about to be sent: `.await` it. Dropping it (or its future)
/// before the answer cancels the call on the server.
///
/// ```no_run
/// # async fn example(client: codeagent_core::client::Client) -> Result<(), codeagent_core::client::ClientError> {
/// use serde_json::json;
/// use std::time::Duration;
///
/// let output = client
///     .call("long-running-operation", json!({"duration": 2, "steps": 4}))
///     .on_progress(|progress| eprintln!("{} of {:?}", progress.progress, progress.total))
///     .timeout(Duration::from_secs(30))
///     .await?;
/// println!("{}", output.result().value());
/// # Ok(()) }
/// ```
#[must_use = "a call does nothing until awaited"]
pub struct CallRequest<'a> {
    client: &'a Client,
    name: String,
    arguments: Value,
    options: RequestOptions,
    meta: Map<String, Value>,
}

impl<'a> CallRequest<'a> {
    pub(crate) fn new(client: &'a Client, name: String, arguments: Value) -> Self {
        CallRequest { client, name, arguments, options: RequestOptions::default(), meta: Map::new() }
    }

    /// Sends a progress token, and gives each progress notification to `sink`.
    pub fn on_progress(mut self, sink: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.options.progress = Some(Arc::new(sink));
        self
    }

    /// Made for `caller` (the caller of a mounted tool): with a client that
    /// uses [`OAuth::token_exchange`](super::OAuth::token_exchange), it
    /// carries a token exchanged for that caller.
    pub(crate) fn acting_for(mut self, caller: Option<crate::toolbox::Caller>) -> Self {
        self.options.acting = Some(super::wire::Acting(caller));
        self
    }

    /// Waits at most `timeout` for the answer (in place of the client's).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.options.timeout = Some(timeout);
        self
    }

    /// Adds a `_meta` entry to the request.
    pub fn meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.insert(key.into(), value);
        self
    }
}

impl<'a> IntoFuture for CallRequest<'a> {
    type Output = Result<CallOutput, ClientError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let CallRequest { client, name, arguments, mut options, meta } = self;
            let arguments = match arguments {
                Value::Null => Value::Object(Map::new()),
                Value::Object(arguments) => Value::Object(arguments),
                other => {
                    return Err(ClientError::Invalid(format!(
                        "the arguments of `{name}` must be a JSON object, not {other}"
                    )));
                }
            };
            if client.needs_listing(&name) {
                // A tool not listed yet: its listing says which arguments are mirrored.
                // Boxed: a rare path, kept out of every call's future.
                Box::pin(client.list_tools()).await?;
            }
            options.headers = client.parameter_headers(&name, &arguments);
            let mut params = Map::new();
            params.insert("name".into(), Value::from(name));
            params.insert("arguments".into(), arguments);
            if !meta.is_empty() {
                params.insert("_meta".into(), Value::Object(meta));
            }
            let raw = client.session().request("tools/call", params, options).await?;
            if !raw.get("content").is_some_and(Value::is_array) {
                return Err(ClientError::Malformed(format!("the result of tools/call has no `content` array: {raw}")));
            }
            Ok(CallOutput::new(raw))
        })
    }
}
