//! The three-channel tool result.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::access::Channels;
use crate::artifact::{Artifact, ArtifactRef, Versions};
use crate::display::Display;
use crate::event::ToolResultEvent;

/// What a tool returns, in three deliberately separate channels:
///
/// ```text
/// ToolResult
/// ├── value                      portable text for the model, and the last-resort UI fallback
/// ├── extra.codeagent.artifact   versioned, UI-neutral structured data (Artifact v1)
/// └── extra.display              optional presentation options for an HTML card
/// ```
///
/// plus `is_error` and any other metadata, which is preserved: other `extra`
/// keys, and top-level keys such as `request` or `error` when the result was
/// read from JSON. It serialises as
/// `{"value", "is_error", "extra": {"codeagent": {"artifact"}, "display", ...}}`.
///
/// Tools rarely build one by hand: return a typed output ([`Text`](crate::Text),
/// [`Table`](crate::Table), ...) and it is lowered through
/// [`IntoToolResult`](crate::IntoToolResult). Read results with the [`Channels`]
/// accessors rather than reaching into `extra`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    value: String,
    #[serde(default)]
    is_error: bool,
    #[serde(default)]
    extra: Map<String, Value>,
    #[serde(flatten)]
    metadata: Map<String, Value>,
    #[serde(skip)]
    display_trusted: bool,
}

impl ToolResult {
    /// A successful result with only a portable value.
    pub fn new(value: impl Into<String>) -> Self {
        ToolResult {
            value: value.into(),
            is_error: false,
            extra: Map::new(),
            metadata: Map::new(),
            display_trusted: false,
        }
    }

    /// Sets the artifact at `extra.codeagent.artifact`. An artifact whose status
    /// is `error` also marks the result as an error.
    #[must_use]
    pub fn with_artifact(mut self, artifact: Artifact) -> Self {
        if artifact.status().as_str() == "error" {
            self.is_error = true;
        }
        self.set_raw_artifact(artifact.into_value());
        self
    }

    /// Sets the presentation options at `extra.display`.
    #[must_use]
    pub fn with_display(mut self, display: Display) -> Self {
        self.display_trusted = display.is_trusted();
        self.extra.insert("display".into(), display.to_value());
        self
    }

    /// Marks the result as an error (or not).
    #[must_use]
    pub fn with_error(mut self, is_error: bool) -> Self {
        self.is_error = is_error;
        self
    }

    /// Adds a key to `extra`. The keys `codeagent` and `display` belong to the
    /// artifact and presentation channels; use the dedicated setters for them.
    #[must_use]
    pub fn with_extra(mut self, key: impl Into<String>, value: Value) -> Self {
        let key = key.into();
        if key == "display" {
            self.display_trusted = false;
        }
        self.extra.insert(key, value);
        self
    }

    /// The portable text.
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Whether the tool failed.
    pub fn is_error(&self) -> bool {
        self.is_error
    }

    /// The version-1 artifact, when valid.
    pub fn artifact(&self) -> Option<ArtifactRef<'_>> {
        Channels::artifact(self)
    }

    /// The artifact, when valid and of a version `versions` accepts.
    pub fn artifact_in(&self, versions: &Versions) -> Option<ArtifactRef<'_>> {
        Channels::artifact_in(self, versions)
    }

    /// The presentation options, when present and well formed.
    pub fn display(&self) -> Option<Display> {
        self.raw_display().and_then(Display::from_value)
    }

    /// All of `extra`.
    pub fn extra(&self) -> &Map<String, Value> {
        &self.extra
    }

    /// All of `extra`, to add or change metadata. A display set from trusted
    /// HTML loses its trust: what is written here is treated as untrusted.
    pub fn extra_mut(&mut self) -> &mut Map<String, Value> {
        self.display_trusted = false;
        &mut self.extra
    }

    /// Top-level metadata other than the three channels, such as the `request`
    /// or `error` of a result read from JSON.
    pub fn metadata(&self) -> &Map<String, Value> {
        &self.metadata
    }

    /// The streaming event for this result, as tool call `id` of tool `name`.
    pub fn into_event(self, id: impl Into<String>, name: impl Into<String>) -> ToolResultEvent {
        ToolResultEvent::from_result(id, name, self)
    }

    /// Splits the result into its value, error flag and `extra`.
    pub fn into_parts(self) -> (String, bool, Map<String, Value>) {
        (self.value, self.is_error, self.extra)
    }

    pub(crate) fn from_parts(
        value: String,
        is_error: bool,
        extra: Map<String, Value>,
        metadata: Map<String, Value>,
    ) -> Self {
        ToolResult { value, is_error, extra, metadata, display_trusted: false }
    }

    pub(crate) fn set_raw_artifact(&mut self, artifact: Value) {
        let codeagent = self.extra.entry("codeagent").or_insert_with(|| Value::Object(Map::new()));
        if !codeagent.is_object() {
            *codeagent = Value::Object(Map::new());
        }
        if let Value::Object(codeagent) = codeagent {
            codeagent.insert("artifact".into(), artifact);
        }
    }
}

impl Channels for ToolResult {
    fn value_text(&self) -> Option<&str> {
        Some(&self.value)
    }

    fn raw_artifact(&self) -> Option<&Value> {
        self.extra.get("codeagent")?.get("artifact").filter(|value| !value.is_null())
    }

    fn raw_display(&self) -> Option<&Value> {
        self.extra.get("display").filter(|value| !value.is_null())
    }

    fn reports_error(&self) -> bool {
        self.is_error
    }

    fn display_is_trusted(&self) -> bool {
        self.display_trusted
    }
}
