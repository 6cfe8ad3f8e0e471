//! An MCP client: use any server's tools, resources and prompts (feature `client`).
//!
//! A [`Client`] connects over stdio (a child process, its stderr kept), over
//! Streamable HTTP, or over any byte stream pair (an in-process server), and
//! speaks either era: 2026-07-28 when the server answers `server/discover`,
//! else the legacy `initialize` handshake, or the one version asked for
//! ([`Protocol`]). Listings come back whole (every page), calls as
//! [`CallOutput`] (the raw `CallToolResult`, and the three-channel
//! [`ToolResult`](crate::ToolResult)), with progress and cancellation:
//! dropping a call's future cancels it on the server. The server's questions
//! (elicitation, sampling, roots) are answered by the [`Handlers`] the
//! application gives, both as legacy server-to-client requests and as the
//! rounds of a 2026-07-28 `input_required` result.
//!
//! ```no_run
//! # async fn example() -> Result<(), codeagent_core::client::ClientError> {
//! use codeagent_core::client::Client;
//! use serde_json::json;
//!
//! let mut command = tokio::process::Command::new("npx");
//! command.args(["-y", "@modelcontextprotocol/server-everything"]);
//! let client = Client::builder().stdio(command).await?;
//! for tool in client.list_tools().await? {
//!     println!("{}: {}", tool.name, tool.description.unwrap_or_default());
//! }
//! let output = client.call("echo", json!({"message": "hi"})).await?;
//! assert_eq!(output.text(), "Echo: hi");
//! # Ok(()) }
//! ```

mod builder;
mod call;
mod error;
mod events;
mod handlers;
mod handshake;
mod http;
mod lines;
mod listen;
mod mount;
mod oauth;
mod session;
mod task;
mod wire;

use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value, json};
use tokio::sync::broadcast;

pub use builder::{ClientBuilder, DEFAULT_INPUT_ROUNDS, DEFAULT_MAX_MESSAGE_SIZE, DEFAULT_TIMEOUT};
pub use call::{CallOutput, CallRequest};
pub use error::ClientError;
pub use events::{Progress, ServerEvent};
pub use handlers::{ElicitAnswer, ElicitationRequest, HandlerFuture, Handlers, Root, SamplingRequest};
pub use handshake::Protocol;
pub use lines::INHERITED_ENV;
pub use listen::{Listen, Listening};
pub use mount::{Mount, MountError};
pub use oauth::{Assertion, ClientKey, Credential, IdentityProvider, KeyError, OAuth};

use crate::log_text::escaped;
use crate::mcp::{
    GetPromptResult, Implementation, PromptDefinition, ProtocolVersion, ReadResourceResult, ResourceDefinition,
    ResourceTemplateDefinition, ServerCapabilities, ToolDefinition,
};
use crate::schema::{HeaderParam, header_params, header_problems};
use crate::toolbox::LogLevel;
use session::{RequestOptions, Session};

/// A connection to one MCP server. Cheap to clone; the connection closes
/// (the process is stopped, the HTTP session ended) when the last clone is
/// dropped, or on [`close`](Client::close).
#[derive(Clone)]
pub struct Client {
    inner: Arc<Connection>,
}

struct Connection {
    session: Arc<Session>,
    /// The `x-mcp-header` arguments of each tool listed so far.
    header_params: Mutex<std::collections::HashMap<String, Vec<HeaderParam>>>,
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.session.shut();
    }
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("server", &self.server_name())
            .field("protocol_version", &self.protocol_version())
            .finish()
    }
}

impl Client {
    /// A builder: the transport, the protocol, the handlers, the timeouts.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::new()
    }

    fn from_session(session: Arc<Session>) -> Client {
        Client { inner: Arc::new(Connection { session, header_params: Mutex::new(Default::default()) }) }
    }

    pub(crate) fn session(&self) -> &Arc<Session> {
        &self.inner.session
    }

    fn negotiated(&self) -> &session::Negotiated {
        self.session().negotiated.get().expect("a client exists only once its handshake is done")
    }

    /// The protocol version spoken.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.negotiated().version
    }

    /// The server's `Implementation` (`name`, `version`, …): `None` when
    /// it sent none (a 2026-07-28 server need not).
    pub fn server_info(&self) -> Option<&Implementation> {
        self.negotiated().server_info.as_ref()
    }

    /// The server's name (empty when it sent none).
    pub fn server_name(&self) -> &str {
        self.server_info().map_or("", |info| info.name.as_str())
    }

    /// The server's capabilities.
    pub fn server_capabilities(&self) -> &ServerCapabilities {
        &self.negotiated().capabilities
    }

    /// The server's instructions, if it gave any.
    pub fn instructions(&self) -> Option<&str> {
        self.negotiated().instructions.as_deref()
    }

    /// The server's notifications from now on: list changes, resource
    /// updates, log messages (see [`listen`](Client::listen) to ask for them).
    pub fn events(&self) -> broadcast::Receiver<ServerEvent> {
        self.session().subscribe_events()
    }

    /// The end of the server process's standard error (stdio only).
    pub fn stderr(&self) -> Option<String> {
        self.session().wire().stderr()
    }

    /// Why the connection is closed, if it is.
    pub fn closed(&self) -> Option<String> {
        self.session().closed()
    }

    /// Closes the connection now, for every clone.
    pub fn close(&self) {
        self.session().shut();
    }

    /// Sends any request and returns its result: the way to methods this
    /// client has no function for. `params` must be an object (or null).
    pub async fn request(&self, method: &str, params: Value) -> Result<Value, ClientError> {
        let params = match params {
            Value::Null => Map::new(),
            Value::Object(params) => params,
            other => {
                return Err(ClientError::Invalid(format!("the params of {method} must be an object, not {other}")));
            }
        };
        self.session().request(method, params, RequestOptions::default()).await
    }

    /// Sends request `method` with `params` (an object), made for a caller
    /// when `acting` says (the caller of a mounted resource or prompt): see
    /// [`OAuth::token_exchange`].
    async fn request_for(
        &self,
        method: &str,
        params: Value,
        acting: Option<wire::Acting>,
    ) -> Result<Value, ClientError> {
        let Value::Object(params) = params else {
            return Err(ClientError::Invalid(format!("the params of {method} must be an object")));
        };
        let options = RequestOptions { acting, ..RequestOptions::default() };
        self.session().request(method, params, options).await
    }

    /// `ping`.
    pub async fn ping(&self) -> Result<(), ClientError> {
        self.request("ping", Value::Null).await.map(drop)
    }

    /// Every item of a paginated listing: `key` of each page of `method`.
    /// Every item of list `method` (all pages), each read as `T`; an item
    /// that does not fit is an error naming it.
    async fn list_typed<T: serde::de::DeserializeOwned>(&self, method: &str, key: &str) -> Result<Vec<T>, ClientError> {
        let listed = self.list_all(method, key).await?;
        listed
            .into_iter()
            .enumerate()
            .map(|(index, item)| {
                serde_path_to_error::deserialize(item).map_err(|error| {
                    ClientError::Malformed(format!(
                        "the result of {method}: `{key}[{index}].{}` is malformed: {}",
                        error.path(),
                        error.inner()
                    ))
                })
            })
            .collect()
    }

    async fn list_all(&self, method: &str, key: &str) -> Result<Vec<Value>, ClientError> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        // A server whose cursors never end is stopped after this many pages.
        for _ in 0..10_000 {
            let params = match &cursor {
                Some(cursor) => json!({ "cursor": cursor }),
                None => Value::Null,
            };
            let page = self.request(method, params).await?;
            match page.get(key) {
                Some(Value::Array(found)) => items.extend(found.iter().cloned()),
                _ => return Err(ClientError::Malformed(format!("the result of {method} has no `{key}` array"))),
            }
            match page.get("nextCursor") {
                Some(Value::String(next)) if Some(next) != cursor.as_ref() => cursor = Some(next.clone()),
                Some(Value::String(_)) => {
                    return Err(ClientError::Malformed(format!("{method} gave the same cursor twice")));
                }
                _ => return Ok(items),
            }
        }
        Err(ClientError::Malformed(format!("{method} did not end after 10000 pages")))
    }

    /// Every tool of the server (all pages), but those whose `x-mcp-header`
    /// annotations are invalid ([`header_problems`]), which
    /// cannot be called as their schema says.
    pub async fn list_tools(&self) -> Result<Vec<ToolDefinition>, ClientError> {
        let listed = self.list_all("tools/list", "tools").await?;
        let mut tools = Vec::with_capacity(listed.len());
        let mut headers = std::collections::HashMap::new();
        for tool in listed {
            let definition = parse_tool(tool)?;
            let problems = header_problems(&definition.input_schema);
            if !problems.is_empty() {
                // A tool whose headers cannot be sent as its schema says is not offered (2026-07-28).
                tracing::warn!(
                    "the server's tool `{}` is left out: {}",
                    escaped(&definition.name),
                    escaped(&problems.join("; "))
                );
                continue;
            }
            headers.insert(definition.name.clone(), header_params(&definition.input_schema));
            tools.push(definition);
        }
        *self.inner.header_params.lock().unwrap_or_else(PoisonError::into_inner) = headers;
        Ok(tools)
    }

    /// Calls tool `name` with `arguments` (a JSON object): `.await` it, or
    /// set progress, a timeout or `_meta` first ([`CallRequest`]).
    pub fn call(&self, name: impl Into<String>, arguments: Value) -> CallRequest<'_> {
        CallRequest::new(self, name.into(), arguments)
    }

    /// Whether a call of `name` needs the tool's listing first: its
    /// `x-mcp-header` arguments go into headers (2026-07-28 over HTTP).
    pub(crate) fn needs_listing(&self, name: &str) -> bool {
        self.protocol_version().is_modern()
            && self.session().wire().mirrors_arguments()
            && !self.inner.header_params.lock().unwrap_or_else(PoisonError::into_inner).contains_key(name)
    }

    /// The `Mcp-Param-*` headers of a call of `name` with `arguments`
    /// (2026-07-28 over HTTP), from its listed input schema.
    pub(crate) fn parameter_headers(&self, name: &str, arguments: &Value) -> Vec<(String, String)> {
        if !self.session().version().is_some_and(ProtocolVersion::is_modern) {
            return Vec::new();
        }
        let params = self.inner.header_params.lock().unwrap_or_else(PoisonError::into_inner);
        let Some(params) = params.get(name) else { return Vec::new() };
        params
            .iter()
            .filter_map(|param| {
                let (first, rest) = param.path.split_first()?;
                let value = rest.iter().try_fold(arguments.get(first)?, |value, key| value.get(key))?;
                let text = match value {
                    Value::String(text) => text.clone(),
                    Value::Bool(flag) => flag.to_string(),
                    Value::Number(number) => number.to_string(),
                    _ => return None,
                };
                Some((param.header.clone(), http::header_text(&text)))
            })
            .collect()
    }

    /// Every resource of the server (all pages).
    pub async fn list_resources(&self) -> Result<Vec<ResourceDefinition>, ClientError> {
        self.list_typed("resources/list", "resources").await
    }

    /// Every resource template of the server (all pages).
    pub async fn list_resource_templates(&self) -> Result<Vec<ResourceTemplateDefinition>, ClientError> {
        self.list_typed("resources/templates/list", "resourceTemplates").await
    }

    /// Reads resource `uri`: its contents.
    pub async fn read_resource(&self, uri: &str) -> Result<ReadResourceResult, ClientError> {
        self.read_resource_for(uri, None).await
    }

    /// [`read_resource`](Client::read_resource), made for a caller when `acting` says.
    pub(crate) async fn read_resource_for(
        &self,
        uri: &str,
        acting: Option<wire::Acting>,
    ) -> Result<ReadResourceResult, ClientError> {
        let result = self.request_for("resources/read", json!({ "uri": uri }), acting).await?;
        typed_result(result, &format!("reading {uri}"))
    }

    /// Every prompt of the server (all pages).
    pub async fn list_prompts(&self) -> Result<Vec<PromptDefinition>, ClientError> {
        self.list_typed("prompts/list", "prompts").await
    }

    /// Gets prompt `name` with `arguments` (strings by name): its messages.
    pub async fn get_prompt(&self, name: &str, arguments: Map<String, Value>) -> Result<GetPromptResult, ClientError> {
        self.get_prompt_for(name, arguments, None).await
    }

    /// [`get_prompt`](Client::get_prompt), made for a caller when `acting` says.
    pub(crate) async fn get_prompt_for(
        &self,
        name: &str,
        arguments: Map<String, Value>,
        acting: Option<wire::Acting>,
    ) -> Result<GetPromptResult, ClientError> {
        let params = json!({ "name": name, "arguments": arguments });
        let result = self.request_for("prompts/get", params, acting).await?;
        typed_result(result, &format!("prompts/get `{name}`"))
    }

    /// The completions of argument `argument` (typed so far: `value`) of
    /// `reference` (`{"type": "ref/prompt", "name": …}` or
    /// `{"type": "ref/resource", "uri": …}`).
    pub async fn complete(&self, reference: Value, argument: &str, value: &str) -> Result<Vec<String>, ClientError> {
        let params = json!({ "ref": reference, "argument": { "name": argument, "value": value } });
        let result = self.request("completion/complete", params).await?;
        let values = result.pointer("/completion/values").and_then(Value::as_array).ok_or_else(|| {
            ClientError::Malformed("the result of completion/complete has no `completion.values` array".into())
        })?;
        Ok(values.iter().filter_map(Value::as_str).map(str::to_owned).collect())
    }

    /// Sets the least severe level of the log messages the server sends
    /// (legacy: `logging/setLevel`; 2026-07-28 sends it with every request,
    /// so set it on the builder, [`ClientBuilder::log_level`]).
    pub async fn set_log_level(&self, level: LogLevel) -> Result<(), ClientError> {
        if self.protocol_version().is_modern() {
            return Err(ClientError::Invalid(
                "2026-07-28 has no logging/setLevel: give the level to ClientBuilder::log_level".into(),
            ));
        }
        self.request("logging/setLevel", json!({ "level": level.as_str() })).await.map(drop)
    }
}

/// The result of `what` read as `T`; a field that does not fit is an error
/// naming it.
fn typed_result<T: serde::de::DeserializeOwned>(result: Value, what: &str) -> Result<T, ClientError> {
    serde_path_to_error::deserialize(result).map_err(|error| {
        ClientError::Malformed(format!("the result of {what}: `{}` is malformed: {}", error.path(), error.inner()))
    })
}

/// A listed tool as a [`ToolDefinition`]; a tool whose icons or annotations
/// this crate cannot read keeps the rest.
fn parse_tool(tool: Value) -> Result<ToolDefinition, ClientError> {
    match serde_json::from_value::<ToolDefinition>(tool.clone()) {
        Ok(definition) => Ok(definition),
        Err(first) => {
            let mut lenient = tool;
            if let Some(object) = lenient.as_object_mut() {
                object.remove("icons");
                object.remove("annotations");
            }
            serde_json::from_value(lenient.clone()).map_err(|_| {
                ClientError::Malformed(format!("a listed tool is not a tool definition ({first}): {lenient}"))
            })
        }
    }
}
