//! Who the server says it is: the `Implementation` of `initialize` and of
//! every 2026-07-28 result's `_meta`.

use serde_json::{Map, Value, json};

use crate::mcp::{Icon, ProtocolVersion};

/// Who the server says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
