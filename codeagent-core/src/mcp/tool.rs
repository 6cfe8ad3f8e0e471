use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::wire::{object_property_schemas, output_schema_for};
use super::{Icon, ProtocolVersion};

/// Hints about a tool's behaviour, for clients deciding how to present or
/// confirm a call. They are hints, not guarantees.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolAnnotations {
    /// A display title (the tool's own `title` takes precedence from 2025-06-18).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy data (meaningful when not read-only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// It interacts with an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// No hints.
    pub fn new() -> Self {
        ToolAnnotations::default()
    }

    /// Sets the display title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets whether the tool does not modify its environment.
    #[must_use]
    pub fn with_read_only_hint(mut self, read_only: bool) -> Self {
        self.read_only_hint = Some(read_only);
        self
    }

    /// Sets whether the tool may destroy data.
    #[must_use]
    pub fn with_destructive_hint(mut self, destructive: bool) -> Self {
        self.destructive_hint = Some(destructive);
        self
    }

    /// Sets whether calling it again with the same arguments has no further effect.
    #[must_use]
    pub fn with_idempotent_hint(mut self, idempotent: bool) -> Self {
        self.idempotent_hint = Some(idempotent);
        self
    }

    /// Sets whether it interacts with an open world of external entities.
    #[must_use]
    pub fn with_open_world_hint(mut self, open_world: bool) -> Self {
        self.open_world_hint = Some(open_world);
        self
    }

    /// Whether no hint is set.
    pub fn is_empty(&self) -> bool {
        *self == ToolAnnotations::default()
    }
}

/// A tool as `tools/list` describes it.
///
/// ```
/// use codeagent_core::mcp::{ProtocolVersion, ToolDefinition};
/// use serde_json::json;
///
/// let tool = ToolDefinition::new("add", json!({"type": "object"})).with_title("Add");
/// assert_eq!(tool.to_wire(ProtocolVersion::V2025_06_18)["title"], "Add");
/// assert!(tool.to_wire(ProtocolVersion::V2024_11_05).get("title").is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ToolDefinition {
    /// The tool's unique name.
    pub name: String,
    /// A display title (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of its arguments, an object at the root.
    pub input_schema: Value,
    /// The JSON Schema of its structured output (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints (2025-03-26 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons (2025-11-25 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Metadata (2025-06-18 and later).
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl ToolDefinition {
    /// A tool called `name` taking arguments described by `input_schema`.
    pub fn new(name: impl Into<String>, input_schema: Value) -> Self {
        ToolDefinition {
            name: name.into(),
            title: None,
            description: None,
            input_schema,
            output_schema: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }

    /// Sets the title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the JSON Schema of the structured output.
    #[must_use]
    pub fn with_output_schema(mut self, output_schema: Value) -> Self {
        self.output_schema = Some(output_schema);
        self
    }

    /// Sets the behaviour hints.
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.annotations = Some(annotations);
        self
    }

    /// Adds an icon.
    #[must_use]
    pub fn with_icon(mut self, icon: Icon) -> Self {
        self.icons.get_or_insert_with(Vec::new).push(icon);
        self
    }

    /// Adds a `_meta` entry.
    #[must_use]
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.get_or_insert_with(Map::new).insert(key.into(), value);
        self
    }

    /// The tool as `version` lists it.
    ///
    /// The title moves into `annotations.title` for 2025-03-26 and is left out
    /// for 2024-11-05; boolean property schemas become objects for versions
    /// whose schema requires them; a non-object output schema is wrapped for
    /// 2025-06-18 and 2025-11-25 (see [`output_schema_for`]).
    pub fn to_wire(&self, version: ProtocolVersion) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), Value::from(self.name.as_str()));
        let modern = version.has_structured_content();
        if modern && let Some(title) = &self.title {
            map.insert("title".into(), Value::from(title.as_str()));
        }
        if let Some(description) = &self.description {
            map.insert("description".into(), Value::from(description.as_str()));
        }
        let input_schema = if version.has_result_type() {
            self.input_schema.clone()
        } else {
            object_property_schemas(self.input_schema.clone())
        };
        map.insert("inputSchema".into(), input_schema);
        if let Some(schema) = self.output_schema.as_ref().and_then(|schema| output_schema_for(schema, version)) {
            map.insert("outputSchema".into(), schema);
        }
        if version.has_tool_annotations() {
            let mut annotations = self.annotations.clone().unwrap_or_default();
            if !modern && annotations.title.is_none() {
                annotations.title.clone_from(&self.title);
            }
            if !annotations.is_empty() {
                map.insert("annotations".into(), json!(annotations));
            }
        }
        if version.has_icons()
            && let Some(icons) = self.icons.as_ref().filter(|icons| !icons.is_empty())
        {
            map.insert("icons".into(), json!(icons));
        }
        if modern && let Some(meta) = &self.meta {
            map.insert("_meta".into(), Value::Object(meta.clone()));
        }
        Value::Object(map)
    }
}
