//! The protocol, independent of transport: which era a request belongs to,
//! and what each method answers.

use std::sync::Mutex;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::jsonrpc::{INVALID_PARAMS, METHOD_NOT_FOUND, RpcError, UNSUPPORTED_PROTOCOL_VERSION};
use crate::mcp::{Icon, ProtocolVersion};
use crate::toolbox::{CallError, Context, LogLevel, Tool, ToolFuture, Toolbox};
use std::sync::Arc;

/// The `_meta` key of the protocol version of a modern request.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of a modern request's client capabilities.
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// The `_meta` key of a modern request's client identity.
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// The `_meta` key of a modern request's log level.
pub const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
/// The result `_meta` key of the server's identity (2026-07-28).
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// The notification `_meta` key of a subscription's id (2026-07-28).
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";

/// Who the server says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerInfo {
    /// The programmatic name.
    pub name: String,
    /// The version.
    pub version: String,
    /// A display title (2025-06-18 and later).
    pub title: Option<String>,
    /// What the server does (2025-11-25 and later).
    pub description: Option<String>,
    /// Its website (2025-11-25 and later).
    pub website_url: Option<String>,
    /// Icons (2025-11-25 and later).
    pub icons: Vec<Icon>,
}

impl ServerInfo {
    /// The identity as `version` states an `Implementation`.
    pub(crate) fn to_wire(&self, version: ProtocolVersion) -> Value {
        let mut info = Map::new();
        info.insert("name".into(), Value::from(self.name.as_str()));
        info.insert("version".into(), Value::from(self.version.as_str()));
        if version.has_structured_content()
            && let Some(title) = &self.title
        {
            info.insert("title".into(), Value::from(title.as_str()));
        }
        if version.has_icons() {
            if let Some(description) = &self.description {
                info.insert("description".into(), Value::from(description.as_str()));
            }
            if let Some(url) = &self.website_url {
                info.insert("websiteUrl".into(), Value::from(url.as_str()));
            }
            if !self.icons.is_empty() {
                info.insert("icons".into(), json!(self.icons));
            }
        }
        Value::Object(info)
    }
}

/// What a server serves and how it describes itself.
#[derive(Clone)]
pub(crate) struct Engine {
    pub(crate) toolbox: Toolbox,
    pub(crate) info: ServerInfo,
    /// `info` as 2026-07-28 states it, built once for every modern result.
    pub(crate) modern_info: Value,
    pub(crate) instructions: Option<String>,
    pub(crate) discover_ttl: Duration,
}

/// The legacy-era state of one connection (stdio) or session (HTTP).
#[derive(Debug, Default)]
pub(crate) struct Session {
    state: Mutex<SessionState>,
}

#[derive(Debug, Default, Clone, Copy)]
struct SessionState {
    version: Option<ProtocolVersion>,
    initialized: bool,
    log_level: Option<LogLevel>,
}

impl Session {
    fn state(&self) -> SessionState {
        *self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn update(&self, change: impl FnOnce(&mut SessionState)) {
        change(&mut self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
    }

    /// The version negotiated with `initialize`, if any.
    pub(crate) fn negotiated(&self) -> Option<ProtocolVersion> {
        self.state().version
    }

    /// Whether the client finished the legacy handshake.
    pub(crate) fn is_initialized(&self) -> bool {
        self.state().initialized
    }
}

/// The era a request is served in, decided from the request alone.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Era {
    /// The protocol version the answer is shaped for.
    pub(crate) version: ProtocolVersion,
    /// The least severe log level this request may receive messages at.
    pub(crate) log_level: Option<LogLevel>,
}

impl Era {
    pub(crate) fn is_modern(self) -> bool {
        self.version.is_modern()
    }
}

/// What to do with a request.
pub(crate) enum Action {
    /// Answer at once with this result or error.
    Reply(Result<Value, RpcError>),
    /// Run a tool; answer when it finishes.
    Call(PendingCall),
    /// Open a `subscriptions/listen` stream for tool list changes.
    Listen { tools: bool },
}

/// A tool call under way.
pub(crate) struct PendingCall {
    pub(crate) future: ToolFuture,
    pub(crate) tool: Arc<dyn Tool>,
}

impl Engine {
    /// The era of a request with `method` and `params`: modern when its
    /// `_meta` names a protocol version, legacy otherwise (`initialize` always).
    pub(crate) fn era(&self, session: &Session, method: &str, params: &Map<String, Value>) -> Result<Era, RpcError> {
        if is_modern_request(method, params) || matches!(method, "server/discover" | "subscriptions/listen") {
            return self.modern_era(params);
        }
        let state = session.state();
        Ok(Era {
            version: state.version.unwrap_or(ProtocolVersion::LATEST_LEGACY),
            log_level: state.log_level.or(Some(LogLevel::Info)),
        })
    }

    /// The era of a request that must be modern: its `_meta` must carry a
    /// supported version and the client's capabilities.
    pub(crate) fn modern_era(&self, params: &Map<String, Value>) -> Result<Era, RpcError> {
        let Some(meta) = params.get("_meta").and_then(Value::as_object) else {
            return Err(missing_meta("_meta"));
        };
        let requested = match meta.get(PROTOCOL_VERSION_KEY) {
            None => return Err(missing_meta(PROTOCOL_VERSION_KEY)),
            Some(Value::String(requested)) => requested.as_str(),
            Some(_) => {
                return Err(RpcError::new(
                    INVALID_PARAMS,
                    format!("Invalid params: `_meta.{PROTOCOL_VERSION_KEY}` must be a string"),
                ));
            }
        };
        if !meta.get(CLIENT_CAPABILITIES_KEY).is_some_and(Value::is_object) {
            return Err(missing_meta(CLIENT_CAPABILITIES_KEY));
        }
        let version = match requested.parse::<ProtocolVersion>() {
            Ok(version) if version.is_modern() => version,
            _ => return Err(unsupported_version(requested)),
        };
        let log_level = match meta.get(LOG_LEVEL_KEY) {
            None | Some(Value::Null) => None,
            Some(level) => Some(level.as_str().and_then(LogLevel::from_name).ok_or_else(|| {
                RpcError::new(
                    INVALID_PARAMS,
                    format!("Invalid params: `_meta.{LOG_LEVEL_KEY}` is not a log level: {level}"),
                )
            })?),
        };
        Ok(Era { version, log_level })
    }

    /// Decides what to do with request `method`.
    pub(crate) fn act(
        &self,
        session: &Session,
        era: Era,
        method: &str,
        params: Map<String, Value>,
        context: impl FnOnce() -> Context,
    ) -> Action {
        let reply = match (method, era.is_modern()) {
            ("initialize", false) => Ok(self.initialize(session, &params)),
            ("ping", false) => Ok(json!({})),
            ("logging/setLevel", false) => self.set_level(session, &params),
            ("server/discover", true) => Ok(self.discover()),
            ("subscriptions/listen", true) => {
                let filter = params.get("notifications").and_then(Value::as_object);
                let Some(filter) = filter else {
                    return Action::Reply(Err(RpcError::new(
                        INVALID_PARAMS,
                        "Invalid params: subscriptions/listen needs a `notifications` filter object",
                    )));
                };
                return Action::Listen { tools: filter.get("toolsListChanged").and_then(Value::as_bool) == Some(true) };
            }
            ("tools/list", _) => self.list(era, &params),
            ("tools/call", _) => return self.call(params, context),
            (method, _) => Err(RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method}"))),
        };
        Action::Reply(reply.map(|result| self.finish(era, result)))
    }

    /// Handles a notification from the client (cancellation is the transport's).
    pub(crate) fn notify(&self, session: &Session, method: &str) {
        if method == "notifications/initialized" {
            session.update(|state| state.initialized = true);
        }
    }

    /// Adds what every result of the era carries: in 2026-07-28, `resultType`
    /// and the server's identity in `_meta`.
    pub(crate) fn finish(&self, era: Era, mut result: Value) -> Value {
        if era.is_modern()
            && let Value::Object(object) = &mut result
        {
            object.entry("resultType").or_insert_with(|| Value::from("complete"));
            let meta = object.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(meta) = meta {
                meta.insert(SERVER_INFO_KEY.into(), self.modern_info.clone());
            }
        }
        result
    }

    fn capabilities(&self) -> Value {
        json!({ "tools": { "listChanged": true }, "logging": {} })
    }

    fn initialize(&self, session: &Session, params: &Map<String, Value>) -> Value {
        let requested = params.get("protocolVersion").and_then(Value::as_str).and_then(|text| text.parse().ok());
        let version = match requested {
            Some(version) if !ProtocolVersion::is_modern(version) => version,
            _ => ProtocolVersion::LATEST_LEGACY,
        };
        session.update(|state| {
            state.version = Some(version);
            state.initialized = false;
        });
        let mut result = Map::new();
        result.insert("protocolVersion".into(), Value::from(version.as_str()));
        result.insert("capabilities".into(), self.capabilities());
        result.insert("serverInfo".into(), self.info.to_wire(version));
        if let Some(instructions) = &self.instructions {
            result.insert("instructions".into(), Value::from(instructions.as_str()));
        }
        Value::Object(result)
    }

    fn discover(&self) -> Value {
        let supported: Vec<&str> = ProtocolVersion::ALL.iter().rev().map(|version| version.as_str()).collect();
        let mut result = Map::new();
        result.insert("supportedVersions".into(), json!(supported));
        result.insert("capabilities".into(), self.capabilities());
        if let Some(instructions) = &self.instructions {
            result.insert("instructions".into(), Value::from(instructions.as_str()));
        }
        let ttl = u64::try_from(self.discover_ttl.as_millis()).unwrap_or(u64::MAX);
        result.insert("ttlMs".into(), Value::from(ttl));
        result.insert("cacheScope".into(), Value::from("public"));
        Value::Object(result)
    }

    fn set_level(&self, session: &Session, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let level = params.get("level").and_then(Value::as_str).and_then(LogLevel::from_name).ok_or_else(|| {
            RpcError::new(
                INVALID_PARAMS,
                "Invalid params: `level` must be one of debug, info, notice, warning, error, critical, alert, emergency",
            )
        })?;
        session.update(|state| state.log_level = Some(level));
        Ok(json!({}))
    }

    fn list(&self, era: Era, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let cursor = match params.get("cursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(cursor)) => Some(cursor.as_str()),
            Some(_) => return Err(RpcError::new(INVALID_PARAMS, "Invalid params: `cursor` must be a string")),
        };
        self.toolbox.list_tools(era.version, cursor).map_err(|error| RpcError::new(INVALID_PARAMS, error.to_string()))
    }

    fn call(&self, mut params: Map<String, Value>, context: impl FnOnce() -> Context) -> Action {
        let name = match params.remove("name") {
            Some(Value::String(name)) => name,
            _ => {
                return Action::Reply(Err(RpcError::new(
                    INVALID_PARAMS,
                    "Invalid params: tools/call needs a `name` string",
                )));
            }
        };
        match self.toolbox.start(&name, params.remove("arguments"), context()) {
            Ok((future, tool)) => Action::Call(PendingCall { future, tool }),
            Err(error @ (CallError::UnknownTool(_) | CallError::ArgumentsNotAnObject { .. })) => {
                Action::Reply(Err(RpcError::new(INVALID_PARAMS, error.to_string())))
            }
        }
    }

    /// The response to a finished tool call.
    pub(crate) fn call_result(&self, era: Era, tool: &Arc<dyn Tool>, result: crate::ToolResult) -> Value {
        let schema = tool.spec().definition().output_schema.as_ref();
        self.finish(era, result.into_call_result().into_wire(era.version, schema))
    }
}

/// Whether a request is in the modern era: its `_meta` names a protocol
/// version (`initialize` is always legacy).
pub(crate) fn is_modern_request(method: &str, params: &Map<String, Value>) -> bool {
    method != "initialize"
        && params.get("_meta").and_then(Value::as_object).is_some_and(|meta| meta.contains_key(PROTOCOL_VERSION_KEY))
}

fn missing_meta(key: &str) -> RpcError {
    RpcError::new(
        INVALID_PARAMS,
        format!(
            "Invalid params: a 2026-07-28 request needs `_meta` with `{PROTOCOL_VERSION_KEY}` and `{CLIENT_CAPABILITIES_KEY}`; `{key}` is missing"
        ),
    )
}

/// The `-32022` error for a version this server does not serve.
pub(crate) fn unsupported_version(requested: &str) -> RpcError {
    let supported: Vec<&str> = ProtocolVersion::ALL.iter().rev().map(|version| version.as_str()).collect();
    RpcError::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
        .with_data(json!({ "supported": supported, "requested": requested }))
}
