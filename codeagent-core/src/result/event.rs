//! The tool-result event that streaming callbacks receive.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ToolResult;
use crate::access::Channels;
use crate::artifact::{ArtifactRef, Versions};

/// A tool result as a streaming callback sees it.
///
/// It serialises with exactly the keys `id, name, display, value, is_error,
/// artifact`, in that order: `artifact` comes after the five original fields,
/// so positional consumers keep working. A custom UI normally reads only
/// `artifact`, `value` and `is_error`.
///
/// ```
/// use codeagent_core::{IntoToolResult, Text};
///
/// let event = Text::new("hi").into_tool_result().into_event("call-1", "greet");
/// let json = serde_json::to_string(&event).unwrap();
/// assert!(json.starts_with(r#"{"id":"call-1","name":"greet","display":null,"value":"hi","is_error":false,"artifact":{"#));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolResultEvent {
    /// The tool call's id.
    pub id: String,
    /// The tool's name.
    pub name: String,
    /// The presentation options, if any.
    pub display: Option<Value>,
    /// The portable text.
    pub value: String,
    /// Whether the tool failed.
    pub is_error: bool,
    /// The artifact, if any, exactly as the result carried it.
    pub artifact: Option<Value>,
}

impl ToolResultEvent {
    /// The event for `result`, the outcome of call `id` to tool `name`.
    pub fn from_result(id: impl Into<String>, name: impl Into<String>, result: ToolResult) -> Self {
        let (value, is_error, mut extra) = result.into_parts();
        let artifact = match extra.get_mut("codeagent") {
            Some(Value::Object(codeagent)) => codeagent.remove("artifact"),
            _ => None,
        };
        ToolResultEvent {
            id: id.into(),
            name: name.into(),
            display: extra.remove("display"),
            value,
            is_error,
            artifact,
        }
    }

    /// Reads a streaming event from untrusted or legacy JSON with the same rules
    /// as [`ToolResult::adapt`]. The `id` and `name` are kept (a numeric id as
    /// its decimal text).
    pub fn adapt(raw: &Value) -> ToolResultEvent {
        let id = match raw.get("id") {
            Some(Value::String(id)) => id.clone(),
            Some(Value::Number(id)) => id.to_string(),
            _ => String::new(),
        };
        let name = raw.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
        ToolResult::adapt(raw).into_event(id, name)
    }

    /// The version-1 artifact, when valid.
    pub fn artifact(&self) -> Option<ArtifactRef<'_>> {
        Channels::artifact(self)
    }

    /// The artifact, when valid and of a version `versions` accepts.
    pub fn artifact_in(&self, versions: &Versions) -> Option<ArtifactRef<'_>> {
        Channels::artifact_in(self, versions)
    }
}

impl Channels for ToolResultEvent {
    fn value_text(&self) -> Option<&str> {
        Some(&self.value)
    }

    fn raw_artifact(&self) -> Option<&Value> {
        self.artifact.as_ref().filter(|value| !value.is_null())
    }

    fn raw_display(&self) -> Option<&Value> {
        self.display.as_ref().filter(|value| !value.is_null())
    }

    fn reports_error(&self) -> bool {
        self.is_error
    }
}
