//! One way to read the channels of a result, an event or raw JSON.

use serde_json::Value;

use crate::artifact::{ArtifactRef, Versions};
use crate::mcp::ARTIFACT_META_KEY;

/// Reads the three channels wherever they come from: a [`ToolResult`](crate::ToolResult),
/// a [`ToolResultEvent`](crate::ToolResultEvent), or a `serde_json::Value` received
/// from a wire in either shape (or an MCP `CallToolResult`, whose artifact rides in
/// `_meta`).
///
/// Nothing here panics or trusts its input: a malformed or unsupported artifact
/// reads as `None`, and the host falls back to [`value_text`](Channels::value_text).
///
/// ```
/// use codeagent_core::Channels;
/// use serde_json::json;
///
/// let event = json!({"id": "1", "name": "summarise", "display": null, "value": "3 rows",
///     "is_error": false, "artifact": {"schema": "codeagent.tool-artifact", "version": 2,
///     "kind": "chart", "status": "success", "icon": null, "title": null, "payload": {}}});
/// assert!(event.artifact().is_none()); // a v1 host falls back to text
/// assert_eq!(event.artifact_in(&codeagent_core::artifact::Versions::Any).unwrap().version(), 2);
/// assert_eq!(event.value_text(), Some("3 rows"));
/// ```
pub trait Channels {
    /// The portable text, when there is one.
    fn value_text(&self) -> Option<&str>;

    /// The artifact exactly as stored, unvalidated.
    fn raw_artifact(&self) -> Option<&Value>;

    /// The presentation options exactly as stored, unvalidated.
    fn raw_display(&self) -> Option<&Value>;

    /// Whether the result reports an error.
    fn reports_error(&self) -> bool;

    /// Whether the display was set in this process from trusted HTML.
    fn display_is_trusted(&self) -> bool {
        false
    }

    /// The version-1 artifact, when valid.
    fn artifact(&self) -> Option<ArtifactRef<'_>> {
        self.artifact_in(&Versions::V1)
    }

    /// The artifact, when valid and of a version `versions` accepts.
    fn artifact_in(&self, versions: &Versions) -> Option<ArtifactRef<'_>> {
        ArtifactRef::parse(self.raw_artifact()?, versions)
    }
}

/// A raw value is read in the shape it has: a result (it has `extra`), an
/// MCP `CallToolResult` (it has `content`), or a streaming event.
impl Channels for Value {
    fn value_text(&self) -> Option<&str> {
        if let Some(value) = self.get("value") {
            return value.as_str();
        }
        self.get("content")?
            .as_array()?
            .iter()
            .find(|block| block.get("type").and_then(Value::as_str) == Some("text"))?
            .get("text")?
            .as_str()
    }

    fn raw_artifact(&self) -> Option<&Value> {
        if let Some(extra) = self.get("extra").filter(|extra| extra.is_object()) {
            return present(extra.get("codeagent")?.get("artifact"));
        }
        if self.get("content").is_some() {
            return present(self.get("_meta")?.get(ARTIFACT_META_KEY));
        }
        present(self.get("artifact"))
    }

    fn raw_display(&self) -> Option<&Value> {
        if let Some(extra) = self.get("extra").filter(|extra| extra.is_object()) {
            return present(extra.get("display"));
        }
        present(self.get("display"))
    }

    fn reports_error(&self) -> bool {
        let flag = |key: &str| self.get(key).and_then(Value::as_bool).unwrap_or(false);
        flag("is_error")
            || flag("isError")
            || !matches!(self.get("error"), None | Some(Value::Null | Value::Bool(false)))
    }
}

fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|value| !value.is_null())
}
