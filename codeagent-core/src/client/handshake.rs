//! Settling the protocol version: 2026-07-28 first (`server/discover`), the
//! legacy `initialize` handshake when the server does not speak it, or the
//! one version the application asked for.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::ClientError;
use super::session::{Negotiated, RequestOptions, Session};
use crate::log_text::escaped;
use crate::mcp::codes::UNSUPPORTED_PROTOCOL_VERSION;
use crate::mcp::meta::SERVER_INFO_KEY;
use crate::mcp::{Implementation, ProtocolVersion, ServerCapabilities};

/// How long a server gets to answer `server/discover` before it is taken
/// for one that ignores what it does not know.
const DISCOVER_TIMEOUT: Duration = Duration::from_secs(10);

/// Which protocol version a client speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Protocol {
    /// 2026-07-28 when the server speaks it (`server/discover`), else the
    /// newest legacy version it answers `initialize` with.
    #[default]
    Negotiate,
    /// This version only: `server/discover` for 2026-07-28, `initialize` for
    /// a legacy one, which the server must answer with the same version.
    Only(ProtocolVersion),
}

/// Settles the version with the server behind `session`.
pub(crate) async fn handshake(session: &Arc<Session>, protocol: Protocol) -> Result<Negotiated, ClientError> {
    let negotiated = match protocol {
        Protocol::Only(version) if version.is_modern() => match discover(session, None).await {
            // Refused with 2026-07-28 among the versions it supports: once more.
            Err(error) if offered(&error).is_some_and(|offered| offered.contains(&version)) => {
                discover(session, None).await?
            }
            outcome => outcome?,
        },
        Protocol::Only(version) => initialize(session, version, true).await?,
        Protocol::Negotiate => match discover(session, Some(DISCOVER_TIMEOUT.min(session.settings.timeout))).await {
            Ok(negotiated) => negotiated,
            Err(error) if offered(&error).is_some() => {
                let offered = offered(&error).unwrap_or_default();
                match offered.iter().max() {
                    Some(version) if version.is_modern() => discover(session, None).await?,
                    Some(version) => initialize(session, *version, false).await?,
                    None => return Err(error),
                }
            }
            Err(error) if speaks_only_legacy(&error) => {
                tracing::debug!("the server does not speak 2026-07-28 ({}); initializing", escaped(&error.to_string()));
                initialize(session, ProtocolVersion::LATEST_LEGACY, false).await?
            }
            Err(ClientError::Version(newest)) => {
                let version = newest.parse().unwrap_or(ProtocolVersion::LATEST_LEGACY);
                initialize(session, version, false).await?
            }
            Err(error) => return Err(error),
        },
    };
    Ok(negotiated)
}

/// The versions a `-32022` (unsupported protocol version) error says the
/// server supports, those this client speaks: `None` for any other error.
fn offered(error: &ClientError) -> Option<Vec<ProtocolVersion>> {
    let ClientError::Rpc { code: UNSUPPORTED_PROTOCOL_VERSION, data, .. } = error else { return None };
    let supported = data.as_ref()?.get("supported")?.as_array()?;
    Some(supported.iter().filter_map(Value::as_str).filter_map(|version| version.parse().ok()).collect())
}

/// Whether `error`, the answer to `server/discover`, says the server is a
/// legacy one: any JSON-RPC error, an HTTP 4xx, or silence.
fn speaks_only_legacy(error: &ClientError) -> bool {
    match error {
        ClientError::Rpc { .. } | ClientError::Timeout { .. } => true,
        ClientError::Http { status, .. } => (400..500).contains(status),
        _ => false,
    }
}

async fn discover(session: &Arc<Session>, timeout: Option<Duration>) -> Result<Negotiated, ClientError> {
    let options = RequestOptions { version: Some(ProtocolVersion::LATEST), timeout, ..RequestOptions::default() };
    let result = session.request("server/discover", Map::new(), options).await?;
    let supported: Vec<&str> = result
        .get("supportedVersions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    if !supported.contains(&ProtocolVersion::LATEST.as_str()) {
        // The newest legacy version both speak, for the fallback.
        let legacy = ProtocolVersion::ALL.iter().rev().find(|version| supported.contains(&version.as_str()));
        return Err(ClientError::Version(match legacy {
            Some(version) => version.as_str().to_owned(),
            None => format!("the server supports {supported:?}, none of which this client speaks"),
        }));
    }
    Ok(Negotiated {
        version: ProtocolVersion::LATEST,
        capabilities: capabilities_of(&result)?,
        server_info: server_info_of(result.get("_meta").and_then(|meta| meta.get(SERVER_INFO_KEY)), SERVER_INFO_KEY)?,
        instructions: result.get("instructions").and_then(Value::as_str).map(str::to_owned),
    })
}

async fn initialize(session: &Arc<Session>, version: ProtocolVersion, exact: bool) -> Result<Negotiated, ClientError> {
    let mut capabilities = session.capabilities();
    if let Some(elicitation) = capabilities.get_mut("elicitation").filter(|_| version < ProtocolVersion::V2025_11_25) {
        *elicitation = json!({});
    }
    let mut params = Map::new();
    params.insert("protocolVersion".into(), Value::from(version.as_str()));
    params.insert("capabilities".into(), capabilities);
    params.insert("clientInfo".into(), session.settings.client_info.clone());
    let result = session.request("initialize", params, RequestOptions::default()).await?;
    let answered = result.get("protocolVersion").and_then(Value::as_str).unwrap_or_default();
    let answered: ProtocolVersion = answered.parse().map_err(|_| {
        ClientError::Version(format!(
            "the server answered initialize with version `{answered}`, which this client does not speak"
        ))
    })?;
    if answered.is_modern() || (exact && answered != version) {
        return Err(ClientError::Version(format!("asked for {version}, the server answered {answered}")));
    }
    let negotiated = Negotiated {
        version: answered,
        capabilities: capabilities_of(&result)?,
        server_info: server_info_of(result.get("serverInfo"), "serverInfo")?,
        instructions: result.get("instructions").and_then(Value::as_str).map(str::to_owned),
    };
    // Later requests (and their HTTP headers) speak the answered version.
    let _ = session.negotiated.set(negotiated.clone());
    session.notify("notifications/initialized", Map::new())?;
    Ok(negotiated)
}

/// The server's capabilities in a handshake's `result` (none: it offers
/// nothing); malformed ones are an error naming the field.
fn capabilities_of(result: &Value) -> Result<ServerCapabilities, ClientError> {
    match result.get("capabilities") {
        None | Some(Value::Null) => Ok(ServerCapabilities::default()),
        Some(capabilities) => serde_path_to_error::deserialize(capabilities).map_err(|error| {
            ClientError::Malformed(format!(
                "the server's `capabilities.{}` is malformed: {}",
                error.path(),
                error.inner()
            ))
        }),
    }
}

/// The server's `Implementation` at `key` of a handshake (none when it sent
/// none); a malformed one is an error naming the field.
fn server_info_of(info: Option<&Value>, key: &str) -> Result<Option<Implementation>, ClientError> {
    match info {
        None | Some(Value::Null) => Ok(None),
        Some(info) => serde_path_to_error::deserialize(info).map(Some).map_err(|error| {
            ClientError::Malformed(format!("the server's `{key}.{}` is malformed: {}", error.path(), error.inner()))
        }),
    }
}
