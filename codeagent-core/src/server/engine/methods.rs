//! The methods answered at once: the handshake, discovery, log levels and
//! tool listings.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::Engine;
use super::resources::cursor_param;
use crate::mcp::ProtocolVersion;
use crate::server::apps;
use crate::server::era::{Era, supported_versions};
use crate::server::jsonrpc::{INVALID_PARAMS, RpcError};
use crate::server::peer::{Declared, Peer};
use crate::toolbox::LogLevel;

impl Engine {
    /// What the server offers `version`: tools and logging always; resources,
    /// prompts and completion when it has them (completion from 2025-03-26);
    /// resources too when results over budget are kept to be read back.
    fn capabilities(&self, version: ProtocolVersion, apps: bool) -> Value {
        let mut capabilities = Map::new();
        capabilities.insert("tools".into(), json!({ "listChanged": true }));
        if !self.toolbox.resources().is_empty() {
            capabilities.insert("resources".into(), json!({ "subscribe": true, "listChanged": true }));
        } else if self.keeps_results() {
            // Results over budget are read back as resources (not listed).
            capabilities.insert("resources".into(), json!({}));
        }
        if !self.toolbox.prompts().is_empty() {
            capabilities.insert("prompts".into(), json!({ "listChanged": true }));
        }
        if self.toolbox.has_completions() && version >= ProtocolVersion::V2025_03_26 {
            capabilities.insert("completions".into(), json!({}));
        }
        capabilities.insert("logging".into(), json!({}));
        if apps {
            apps::advertise(&mut capabilities);
        }
        self.advertise_skills(&mut capabilities);
        #[cfg(feature = "tasks")]
        self.advertise_tasks(&mut capabilities);
        Value::Object(capabilities)
    }

    /// `initialize`: echoes a supported legacy version, else the latest legacy one.
    pub(super) fn initialize(&self, peer: &Peer, params: &Map<String, Value>) -> Value {
        let requested = params.get("protocolVersion").and_then(Value::as_str).and_then(|text| text.parse().ok());
        let version = match requested {
            Some(version) if !ProtocolVersion::is_modern(version) => version,
            _ => ProtocolVersion::LATEST_LEGACY,
        };
        let apps = version.has_meta() && apps::declared(params.get("capabilities"));
        peer.set_capabilities(
            params.get("capabilities").filter(|value| value.is_object()).cloned().unwrap_or_default(),
        );
        let declared = |key: &str| params.get(key).filter(|value| value.is_object()).cloned().map(Arc::new);
        peer.set_declared(Declared { info: declared("clientInfo"), capabilities: declared("capabilities") });
        peer.update(|negotiated| {
            negotiated.version = Some(version);
            negotiated.initialized = false;
            negotiated.apps = apps;
        });
        let mut result = Map::new();
        result.insert("protocolVersion".into(), Value::from(version.as_str()));
        result.insert("capabilities".into(), self.capabilities(version, apps));
        result.insert("serverInfo".into(), self.info.to_wire(version));
        if let Some(instructions) = &self.instructions {
            result.insert("instructions".into(), Value::from(instructions.as_str()));
        }
        Value::Object(result)
    }

    /// `server/discover` (2026-07-28).
    pub(super) fn discover(&self, era: Era) -> Value {
        let mut result = Map::new();
        result.insert("supportedVersions".into(), json!(supported_versions()));
        result.insert("capabilities".into(), self.capabilities(ProtocolVersion::LATEST, era.apps));
        if let Some(instructions) = &self.instructions {
            result.insert("instructions".into(), Value::from(instructions.as_str()));
        }
        let ttl = u64::try_from(self.discover_ttl.as_millis()).unwrap_or(u64::MAX);
        result.insert("ttlMs".into(), Value::from(ttl));
        result.insert("cacheScope".into(), Value::from("public"));
        Value::Object(result)
    }

    /// `logging/setLevel` (legacy era).
    pub(super) fn set_level(&self, peer: &Peer, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let level = params.get("level").and_then(Value::as_str).and_then(LogLevel::from_name).ok_or_else(|| {
            RpcError::new(
                INVALID_PARAMS,
                "Invalid params: `level` must be one of debug, info, notice, warning, error, critical, alert, emergency",
            )
        })?;
        peer.update(|negotiated| negotiated.log_level = Some(level));
        Ok(Value::Object(Map::new()))
    }

    /// `tools/list`, one page from the request's cursor.
    pub(super) fn list(&self, era: Era, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let cursor = cursor_param(params)?;
        let mut page = self
            .toolbox
            .tools()
            .wire_page(era.version, cursor)
            .map_err(|error| RpcError::new(INVALID_PARAMS, error.to_string()))?;
        if era.apps {
            apps::point_tools_at_views(&mut page, &self.toolbox);
        }
        Ok(page)
    }
}
