use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::wire::is_object_schema;
use super::{ARTIFACT_META_KEY, ContentBlock, FROM_STRUCTURED_KEY, InvalidContent, ProtocolVersion};
use crate::finite_json::to_json_value;
use crate::raw_json::RawParts;

/// An explicit, protocol-native MCP tool result: content blocks, structured
/// content, an error flag and result metadata.
///
/// Returning one from a tool is the opt-in to protocol-native results; every
/// other return value keeps its ordinary conversion. The rules:
///
/// - explicit content is kept as is, and no fallback block is appended;
/// - explicitly empty content is an error;
/// - structured content without content generates exactly one JSON text block;
/// - structured content may be an object, an array or a scalar; absent is not
///   `{}`, and an empty map is `{}`; JSON-looking strings stay strings;
/// - a non-finite number in structured content is an error naming its path;
/// - `meta` becomes `_meta` only on the wire.
///
/// ```
/// use codeagent_core::mcp::{CallToolResult, ContentBlock, ProtocolVersion};
/// use serde_json::json;
///
/// let result = CallToolResult::from_structured(&json!({"ok": true, "count": 2}))?;
/// assert_eq!(
///     result.to_wire(ProtocolVersion::LATEST, None),
///     json!({"resultType": "complete", "content": [{"type": "text", "text": "{\"ok\":true,\"count\":2}"}],
///            "structuredContent": {"ok": true, "count": 2}})
/// );
/// assert!(CallToolResult::from_content(Vec::<ContentBlock>::new()).is_err());
/// # Ok::<(), codeagent_core::mcp::InvalidContent>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CallToolResult {
    pub(crate) content: Vec<ContentBlock>,
    #[serde(default, deserialize_with = "present", skip_serializing_if = "Option::is_none")]
    pub(crate) structured_content: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) is_error: Option<bool>,
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub(crate) meta: Option<Map<String, Value>>,
}

/// Keeps an explicit `null` as `Some(Value::Null)`: null is a structured value, absence is not.
fn present<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(deserializer).map(Some)
}

impl CallToolResult {
    /// A result with explicit content: one block or several, kept as is.
    /// Empty content is an error.
    pub fn from_content(content: impl IntoContent) -> Result<CallToolResult, InvalidContent> {
        let content = content.into_content();
        if content.is_empty() {
            return Err(InvalidContent::new(
                "content",
                "explicit content must hold at least one block; omit it to generate a text block from structured content",
            ));
        }
        Ok(CallToolResult { content, structured_content: None, is_error: None, meta: None })
    }

    /// A result with structured content and one generated JSON text block.
    pub fn from_structured<T: Serialize + ?Sized>(structured: &T) -> Result<CallToolResult, InvalidContent> {
        let structured = structured_json(structured)?;
        let text = ContentBlock::text(structured.to_string());
        Ok(CallToolResult { content: vec![text], structured_content: Some(structured), is_error: None, meta: None })
    }

    /// Adds structured content to a result with explicit content; no block is generated.
    pub fn with_structured<T: Serialize + ?Sized>(mut self, structured: &T) -> Result<CallToolResult, InvalidContent> {
        self.structured_content = Some(structured_json(structured)?);
        Ok(self)
    }

    /// Marks the result as a tool error (or not).
    #[must_use]
    pub fn with_error(mut self, is_error: bool) -> Self {
        self.is_error = Some(is_error);
        self
    }

    /// Adds a result metadata entry, sent as `_meta`.
    #[must_use]
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.get_or_insert_with(Map::new).insert(key.into(), value);
        self
    }

    /// The content blocks.
    pub fn content(&self) -> &[ContentBlock] {
        &self.content
    }

    /// The structured content, if any.
    pub fn structured_content(&self) -> Option<&Value> {
        self.structured_content.as_ref()
    }

    /// Whether the result reports a tool error.
    pub fn is_error(&self) -> bool {
        self.is_error.unwrap_or(false)
    }

    /// The result metadata.
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.meta.as_ref()
    }
}

impl CallToolResult {
    /// The result as `version` sends it, for a tool whose output schema is
    /// `output_schema` (if it has one).
    ///
    /// `structuredContent` appears from 2025-06-18; where the version requires
    /// an object (2025-06-18 and 2025-11-25) and the tool's output is not one,
    /// it is wrapped as `{"result": ...}`, as its output schema is. `resultType`
    /// appears in 2026-07-28.
    pub fn to_wire(&self, version: ProtocolVersion, output_schema: Option<&Value>) -> Value {
        self.clone().into_wire(version, output_schema)
    }

    /// [`to_wire`](CallToolResult::to_wire), moving the content rather than copying it.
    pub fn into_wire(self, version: ProtocolVersion, output_schema: Option<&Value>) -> Value {
        self.into_wire_raw(version, output_schema, &mut RawParts::default())
    }

    /// [`into_wire`](CallToolResult::into_wire) of a result whose values may
    /// hold markers of `parts` (see `raw_json`); the wire holds them too.
    pub(crate) fn into_wire_raw(
        self,
        version: ProtocolVersion,
        output_schema: Option<&Value>,
        parts: &mut RawParts,
    ) -> Value {
        let CallToolResult { content, structured_content, is_error, mut meta } = self;
        let mut map = Map::new();
        if version.has_result_type() {
            map.insert("resultType".into(), Value::from("complete"));
        }
        let structured_content =
            structured_content.or_else(|| json_text_as_structured(&content, version, output_schema));
        let content = content.into_iter().map(|block| block.into_wire(version)).collect();
        map.insert("content".into(), Value::Array(content));
        if let Some(structured) = structured_content {
            let sent = version.has_structured_content();
            let wrap = sent
                && !version.has_result_type()
                && (!parts.is_object(&structured) || output_schema.is_some_and(|schema| !is_object_schema(schema)));
            if (wrap || !sent)
                && let Some(artifact) = meta.as_mut().and_then(|meta| meta.get_mut(ARTIFACT_META_KEY))
            {
                // Where `structuredContent` is not sent as it is, the artifact
                // carries the data it would have named.
                restore_from_structured_in(artifact, &structured, parts);
            }
            if sent {
                let structured =
                    if wrap { Value::Object(Map::from_iter([("result".to_owned(), structured)])) } else { structured };
                map.insert("structuredContent".into(), structured);
            }
        }
        if let Some(is_error) = is_error {
            map.insert("isError".into(), Value::Bool(is_error));
        }
        if let Some(meta) = meta.filter(|meta| !meta.is_empty()) {
            map.insert("_meta".into(), Value::Object(meta));
        }
        Value::Object(map)
    }
}

/// The structured content of a result that has none and whose first block
/// is a text holding JSON other than an object (`5`, `"north"`, `[1, 2]`,
/// `true`, `null`), in the versions whose `structuredContent` is an object
/// (2025-06-18 and 2025-11-25): that JSON, which [`into_wire`] then wraps as
/// `{"result": ...}`. Only for tools without an output schema.
///
/// Some clients take such a text as the structured content when there is
/// none, and then refuse the result for not being an object (Gemini CLI 0.61
/// does, on every transport); with this they find an object and pass the text
/// to their model unchanged.
///
/// [`into_wire`]: CallToolResult::into_wire
pub(crate) fn json_text_as_structured(
    content: &[ContentBlock],
    version: ProtocolVersion,
    output_schema: Option<&Value>,
) -> Option<Value> {
    if !version.has_structured_content() || version.has_result_type() || output_schema.is_some() {
        return None;
    }
    let ContentBlock::Text(text) = content.first()? else { return None };
    // Only what can start a JSON value other than an object is parsed.
    let start = text.text.trim_start().bytes().next()?;
    if !(start == b'[' || start == b'"' || start == b'-' || start.is_ascii_digit() || b"tfn".contains(&start)) {
        return None;
    }
    serde_json::from_str::<Value>(&text.text).ok().filter(|value| !value.is_object())
}

/// Puts back the payload field an artifact names under
/// [`FROM_STRUCTURED_KEY`]: a table's `df` is the structured content itself, a
/// code artifact's `text` the structured content pretty-printed.
pub(crate) fn restore_from_structured(artifact: &mut Value, structured: &Value) {
    restore_from_structured_in(artifact, structured, &mut RawParts::default());
}

/// [`restore_from_structured`] where `structured` may be a marker of `parts`.
fn restore_from_structured_in(artifact: &mut Value, structured: &Value, parts: &mut RawParts) {
    let Some(payload) = artifact.get_mut("payload").and_then(Value::as_object_mut) else { return };
    let field = match payload.get(FROM_STRUCTURED_KEY).and_then(Value::as_str) {
        Some(field @ ("df" | "text")) if !payload.contains_key(field) => field.to_owned(),
        _ => return,
    };
    let restored = if field == "df" {
        structured.clone()
    } else if let Some(pretty) = parts.pretty(structured) {
        pretty
    } else {
        Value::String(serde_json::to_string_pretty(structured).unwrap_or_default())
    };
    // In the reference's place, so the other keys keep their order.
    let mut restored = Some(restored);
    for (key, value) in std::mem::take(payload) {
        if key == FROM_STRUCTURED_KEY {
            if let Some(restored) = restored.take() {
                payload.insert(field.clone(), restored);
            }
        } else {
            payload.insert(key, value);
        }
    }
}

fn structured_json<T: Serialize + ?Sized>(structured: &T) -> Result<Value, InvalidContent> {
    to_json_value(structured).map_err(|problem| {
        let field = match problem.path.as_str() {
            "" => "structuredContent".to_owned(),
            path if path.starts_with('[') => format!("structuredContent{path}"),
            path => format!("structuredContent.{path}"),
        };
        InvalidContent::new(field, problem.message)
    })
}

/// One content block or an ordered collection of them.
pub trait IntoContent {
    /// The blocks, in order.
    fn into_content(self) -> Vec<ContentBlock>;
}

impl IntoContent for ContentBlock {
    fn into_content(self) -> Vec<ContentBlock> {
        vec![self]
    }
}

impl IntoContent for Vec<ContentBlock> {
    fn into_content(self) -> Vec<ContentBlock> {
        self
    }
}

impl<const N: usize> IntoContent for [ContentBlock; N] {
    fn into_content(self) -> Vec<ContentBlock> {
        self.into()
    }
}
