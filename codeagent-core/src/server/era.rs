//! Which era a request belongs to, decided from the request alone: modern
//! (2026-07-28) when its `_meta` names a protocol version, legacy otherwise.

use serde_json::{Map, Value, json};

use super::apps;
use super::jsonrpc::{INVALID_PARAMS, RpcError, UNSUPPORTED_PROTOCOL_VERSION};
use super::peer::Peer;
use crate::mcp::meta::{CLIENT_CAPABILITIES_KEY, LOG_LEVEL_KEY, PROTOCOL_VERSION_KEY};
use crate::mcp::{Method, ProtocolVersion};
use crate::toolbox::LogLevel;

/// The era a request is served in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Era {
    /// The protocol version the answer is shaped for.
    pub(crate) version: ProtocolVersion,
    /// The least severe log level this request may receive messages at.
    pub(crate) log_level: Option<LogLevel>,
    /// Whether the client declared the MCP Apps extension (at `initialize`,
    /// or in this request's capabilities).
    pub(crate) apps: bool,
}

impl Era {
    pub(crate) fn is_modern(self) -> bool {
        self.version.is_modern()
    }

    /// The era of a request of `method` (`None` when unknown) with `params`
    /// from `peer`.
    pub(crate) fn of(peer: &Peer, method: Option<Method>, params: &Map<String, Value>) -> Result<Era, RpcError> {
        if is_modern_request(method, params) || method.is_some_and(Method::is_modern_only) {
            return Era::modern(params);
        }
        let negotiated = peer.negotiated();
        Ok(Era {
            version: negotiated.version.unwrap_or(ProtocolVersion::LATEST_LEGACY),
            log_level: negotiated.log_level.or(Some(LogLevel::Info)),
            apps: negotiated.apps,
        })
    }

    /// The era of a request that must be modern: its `_meta` must carry a
    /// supported version and the client's capabilities.
    pub(crate) fn modern(params: &Map<String, Value>) -> Result<Era, RpcError> {
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
        let capabilities = meta.get(CLIENT_CAPABILITIES_KEY).filter(|capabilities| capabilities.is_object());
        let Some(capabilities) = capabilities else {
            return Err(missing_meta(CLIENT_CAPABILITIES_KEY));
        };
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
        Ok(Era { version, log_level, apps: apps::declared(Some(capabilities)) })
    }
}

/// Whether a request is in the modern era: its `_meta` names a protocol
/// version (`initialize` is always legacy).
pub(crate) fn is_modern_request(method: Option<Method>, params: &Map<String, Value>) -> bool {
    method != Some(Method::Initialize)
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

/// The versions a server supports, newest first, as the wire lists them.
pub(crate) fn supported_versions() -> Vec<&'static str> {
    ProtocolVersion::ALL.iter().rev().map(|version| version.as_str()).collect()
}

/// The `-32022` error for a version this server does not serve.
pub(crate) fn unsupported_version(requested: &str) -> RpcError {
    RpcError::new(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version")
        .with_data(json!({ "supported": supported_versions(), "requested": requested }))
}
