//! The three-channel tool result, [`ToolResult`], and the streaming event a
//! callback receives for it, [`ToolResultEvent`].
//!
//! Every method of both types is defined here, in `mod.rs` and `event.rs`;
//! the private submodules hold only the helper functions behind two of them:
//! `adapt` the adaptation rules of [`ToolResult::adapt`], `lower` the
//! conversions of [`ToolResult::into_call_result`] and [`ToolResult::from_mcp`].

mod adapt;
mod event;
mod extra;
mod lower;

pub use event::ToolResultEvent;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::access::Channels;
use crate::artifact::{Artifact, ArtifactRef, Versions};
use crate::display::Display;
use crate::mcp::{CallToolResult, ProtocolVersion};
use crate::raw_json::RawParts;
use extra::Extra;

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
    extra: Extra,
    #[serde(flatten)]
    metadata: Map<String, Value>,
    #[serde(skip)]
    display_trusted: bool,
    /// Whether the artifact is a code artifact whose text is the structured
    /// content pretty-printed, and the value that content's compact JSON (as
    /// [`Json`](crate::Json) builds them), so that MCP can send that content
    /// once and take the text block's JSON from the value.
    #[serde(skip)]
    text_from_structured: bool,
    /// What the tool panicked with, when the result stands for a panic.
    #[serde(skip)]
    panicked: Option<String>,
}

impl ToolResult {
    /// A successful result with only a portable value.
    pub fn new(value: impl Into<String>) -> Self {
        ToolResult {
            value: value.into(),
            is_error: false,
            extra: Extra::default(),
            metadata: Map::new(),
            display_trusted: false,
            text_from_structured: false,
            panicked: None,
        }
    }

    /// Marks the result as standing for a tool that panicked with `message`.
    pub(crate) fn with_panic(mut self, message: String) -> Self {
        self.panicked = Some(message);
        self
    }

    /// What the tool panicked with, when the result stands for a panic (a
    /// task ends `failed` then, rather than `completed`).
    #[cfg(feature = "tasks")]
    pub(crate) fn panic_message(&self) -> Option<&str> {
        self.panicked.as_deref()
    }

    /// Sets the artifact at `extra.codeagent.artifact`. An artifact whose status
    /// is `error` also marks the result as an error.
    #[must_use]
    pub fn with_artifact(mut self, artifact: Artifact) -> Self {
        if artifact.status().as_str() == "error" {
            self.is_error = true;
        }
        self.text_from_structured = false;
        self.set_raw_artifact(artifact.into_value());
        self
    }

    /// Sets the presentation options at `extra.display`.
    #[must_use]
    pub fn with_display(mut self, display: Display) -> Self {
        self.display_trusted = display.is_trusted();
        self.extra.entries_mut().insert("display".into(), display.to_value());
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
        if key == "codeagent" || key == crate::mcp::NATIVE_EXTRA_KEY {
            self.text_from_structured = false;
        }
        self.extra.entries_mut().insert(key, value);
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
        self.extra.get()
    }

    /// All of `extra`, to add or change metadata. A display set from trusted
    /// HTML loses its trust: what is written here is treated as untrusted.
    pub fn extra_mut(&mut self) -> &mut Map<String, Value> {
        self.display_trusted = false;
        self.text_from_structured = false;
        self.extra.get_mut()
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

    /// Reads a result from untrusted or legacy JSON. Never panics; the returned
    /// result always has a valid artifact.
    ///
    /// This is adaptation at the trust boundary: artifact data, display
    /// metadata from elsewhere and restored session metadata are untrusted.
    /// Any JSON becomes a well-formed result by these rules:
    ///
    /// - the portable value is kept exactly (a non-string value becomes its JSON text);
    /// - a valid artifact of a future version travels unchanged;
    /// - a valid v1 artifact is kept, with `status = "error"` forced when its kind
    ///   is `error` or the result reports a tool or provider error (`is_error`,
    ///   `isError`, or a non-null top-level `error`), even for an image or diff kind;
    /// - an unversioned legacy artifact (a `kind` and a `payload`, no `version`) is
    ///   upgraded to v1;
    /// - malformed metadata is never taken for a future version: it is replaced by a
    ///   value-backed v1 artifact, and the original is kept under
    ///   `extra.codeagent.rejected` so nothing is lost;
    /// - legacy display cards (`display.toolcard`, `display.right_output`) are
    ///   promoted to presentation options on a copy; a malformed display falls back
    ///   to options taken from the artifact;
    /// - every other key, at the top level (`request`, `error`, provenance, provider
    ///   data) or in `extra`, survives; the input itself is never modified.
    ///
    /// A streaming event (`value`, `is_error`, `artifact` and `display` at the
    /// top level, no `extra`) is read in its own shape;
    /// [`ToolResultEvent::adapt`] applies the same rules and keeps the event's
    /// `id` and `name`.
    ///
    /// ```
    /// use codeagent_core::{Channels, ToolResult};
    /// use serde_json::json;
    ///
    /// let legacy = json!({"value": "2 rows", "is_error": false,
    ///     "extra": {"codeagent": {"artifact": {"kind": "table", "payload": {"df": {}}}}}});
    /// let adapted = ToolResult::adapt(&legacy);
    /// assert_eq!(adapted.value(), "2 rows");
    /// assert_eq!(adapted.artifact().unwrap().version(), 1);
    /// ```
    pub fn adapt(raw: &Value) -> ToolResult {
        let adapt::Adapted { value, is_error, extra, metadata } = adapt::adapt(raw);
        ToolResult::from_parts(value, is_error, extra, metadata)
    }

    /// Lowers the result into an MCP `CallToolResult`.
    ///
    /// Protocol-native parts (from a [`CallToolResult`] or [`Json`](crate::Json))
    /// are used as they are. Otherwise the artifact decides: a table gives
    /// `structuredContent` (its `df`) plus the Markdown text block; images give
    /// image blocks plus the text; every other kind gives the portable value as
    /// one text block. `is_error` becomes `isError`, and the artifact rides in
    /// `_meta` under [`ARTIFACT_META_KEY`](crate::mcp::ARTIFACT_META_KEY) so an
    /// MCP host can rebuild all three channels with [`ToolResult::from_mcp`].
    pub fn into_call_result(self) -> CallToolResult {
        let text_from_structured = self.text_from_structured;
        let (value, is_error, extra) = self.into_parts();
        lower::call_result(value, is_error, extra, text_from_structured)
    }

    /// The MCP wire JSON of the result as `version` sends it, for a tool
    /// whose output schema is `output_schema`: the text of
    /// `into_call_result().into_wire(version, output_schema)`, written the
    /// way the server writes it, with large data that was written to JSON
    /// text when it was read (the rows of [`Table::from_rows`](crate::Table::from_rows),
    /// the content of a [`Json`](crate::Json)) copied in as it is rather
    /// than parsed back into values.
    ///
    /// ```
    /// use codeagent_core::IntoToolResult;
    /// use codeagent_core::mcp::ProtocolVersion;
    ///
    /// let result = codeagent_core::Json(vec![1, 2]).into_tool_result();
    /// let wire = result.clone().into_wire_json(ProtocolVersion::LATEST, None);
    /// let tree = result.into_call_result().into_wire(ProtocolVersion::LATEST, None);
    /// assert_eq!(wire, tree.to_string());
    /// ```
    pub fn into_wire_json(self, version: ProtocolVersion, output_schema: Option<&Value>) -> String {
        let (call, mut parts) = self.into_call_result_raw();
        let wire = call.into_wire_raw(version, output_schema, &mut parts);
        // Written by serde_json and copied from its output: UTF-8.
        String::from_utf8(parts.to_vec(&wire)).unwrap_or_default()
    }

    /// [`into_call_result`](ToolResult::into_call_result) for the server,
    /// which writes the result out: large data still written as JSON text
    /// stays so, as markers in the `CallToolResult` standing for `RawParts`.
    pub(crate) fn into_call_result_raw(self) -> (CallToolResult, RawParts) {
        let ToolResult { value, is_error, extra, text_from_structured, .. } = self;
        // A text artifact that repeats a successful result's value is left out
        // of the wire anyway: it is not made.
        let (extra, mut parts) = extra.into_raw(is_error);
        let mut call = lower::call_result(value, is_error, extra, text_from_structured);
        if !parts.is_empty() {
            lower::quote_structured_text(&mut call, &mut parts, text_from_structured);
        }
        (call, parts)
    }

    /// Reads an MCP `CallToolResult` from any server as a three-channel result.
    ///
    /// The value is the text of its text blocks (and embedded text resources),
    /// or a description of its blocks when it has no text. The artifact is
    /// taken from `_meta` under [`ARTIFACT_META_KEY`](crate::mcp::ARTIFACT_META_KEY)
    /// when valid (image bytes restored from the content), otherwise synthesised
    /// from the blocks: images give an image artifact, an error an error
    /// artifact, anything else text. The content, structured content and
    /// remaining `_meta` are kept under `extra.mcp`, and the adaptation rules of
    /// [`ToolResult::adapt`] apply.
    ///
    /// ```
    /// use codeagent_core::{Channels, ToolResult};
    /// use serde_json::json;
    ///
    /// let result = ToolResult::from_mcp(&json!({"content": [{"type": "text", "text": "72°F"}], "isError": false}));
    /// assert_eq!(result.value(), "72°F");
    /// assert_eq!(result.artifact().unwrap().kind_name(), "text");
    /// ```
    pub fn from_mcp(raw: &Value) -> ToolResult {
        match raw.as_object() {
            Some(object) => ToolResult::adapt(&lower::result_json_from_mcp(object)),
            None => ToolResult::adapt(raw),
        }
    }

    /// Splits the result into its value, error flag and `extra`.
    pub fn into_parts(self) -> (String, bool, Map<String, Value>) {
        (self.value, self.is_error, self.extra.into_map())
    }

    fn from_parts(value: String, is_error: bool, extra: Map<String, Value>, metadata: Map<String, Value>) -> Self {
        let extra = Extra::from_map(extra);
        ToolResult {
            value,
            is_error,
            extra,
            metadata,
            display_trusted: false,
            text_from_structured: false,
            panicked: None,
        }
    }

    /// A successful result whose artifact is the text artifact of `value`
    /// (what [`Text`](crate::Text) without title or icon lowers to), made
    /// only when someone reads it.
    pub(crate) fn text(value: String) -> Self {
        let extra = Extra::text_artifact(value.clone());
        ToolResult { extra, ..ToolResult::new(value) }
    }

    /// Adds the JSON texts that markers in `extra` stand for (a table's
    /// rows written once, see `raw_json`).
    pub(crate) fn with_raw_parts(mut self, parts: RawParts) -> Self {
        if !parts.is_empty() {
            self.extra.add_parts(parts);
        }
        self
    }

    /// Records that the artifact's text is the structured content
    /// pretty-printed, and the value its compact JSON (see [`Json`](crate::Json)).
    pub(crate) fn with_text_from_structured(mut self) -> Self {
        self.text_from_structured = true;
        self
    }

    fn set_raw_artifact(&mut self, artifact: Value) {
        let codeagent = self.extra.entries_mut().entry("codeagent").or_insert_with(|| Value::Object(Map::new()));
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
        self.extra.get().get("codeagent")?.get("artifact").filter(|value| !value.is_null())
    }

    fn raw_display(&self) -> Option<&Value> {
        self.extra.get().get("display").filter(|value| !value.is_null())
    }

    fn reports_error(&self) -> bool {
        self.is_error
    }

    fn display_is_trusted(&self) -> bool {
        self.display_trusted
    }
}
