use schemars::{JsonSchema, generate::SchemaSettings};
use serde::Serialize;
use serde_json::Value;

use super::{IntoToolResult, payload, to_json};
use crate::artifact::{Artifact, Kind};
use crate::finite_json::RefuseNonFinite;
use crate::mcp::NATIVE_EXTRA_KEY;
use crate::raw_json::{RawParts, write_json_and_quoted};
use crate::result::ToolResult;

/// Structured output: any `T: Serialize + JsonSchema`, sent to MCP clients as
/// `structuredContent`, listed with an `outputSchema` derived from `T`, and to the model as compact JSON text.
///
/// ```
/// use codeagent_core::{IntoToolResult, Json};
/// use serde_json::json;
///
/// let result = Json(json!({"ok": true, "count": 2})).into_tool_result();
/// assert_eq!(result.value(), r#"{"ok":true,"count":2}"#);
/// ```
///
/// A value JSON cannot represent, such as a `NaN` float, becomes an error
/// result naming where it was found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Json<T>(pub T);

impl<T: Serialize + JsonSchema> IntoToolResult for Json<T> {
    fn into_tool_result(self) -> ToolResult {
        if let Some(result) = written_result(&self.0) {
            return result;
        }
        match to_json(&self.0, "the tool's structured output") {
            Ok(structured) => structured_result(structured),
            Err(error) => error.into_tool_result(),
        }
    }

    fn output_schema() -> Option<Value> {
        let generator = SchemaSettings::draft2020_12().for_serialize().into_generator();
        Some(generator.into_root_schema_for::<T>().into())
    }

    /// Its artifact is of the rich kind `code` (the JSON, pretty-printed), so
    /// MCP Apps hosts show it in the built-in view, as every rich kind.
    fn is_rich() -> bool {
        true
    }
}

/// The result for `structured`, written to JSON text once, and in the same
/// pass to the JSON string holding that text (the text block, as MCP sends
/// it): the text is the value, and the structured content and the
/// artifact's pretty-printed text are markers that stand for it (see
/// `raw_json`), parsed only for those who read them. The text is not copied
/// for the structured content: lowering the result hands the value over
/// (`RawParts::adopt`). `None` when `structured` is not valid JSON, such as a
/// non-finite number (then the general way words the error), or markers
/// cannot be made.
fn written_result<T: Serialize>(structured: &T) -> Option<ToolResult> {
    let (json, quoted) = write_json_and_quoted(&RefuseNonFinite(structured)).ok()?;
    // Written by serde_json: UTF-8.
    let compact = String::from_utf8(json).ok()?;
    let mut parts = RawParts::default();
    let marker = parts.add_quoted(quoted)?;
    let pretty = parts.pretty(&marker)?;
    Some(
        ToolResult::new(compact)
            .with_artifact(code_artifact(pretty))
            .with_extra(NATIVE_EXTRA_KEY, Value::Object(payload([("structuredContent", marker)])))
            .with_text_from_structured()
            .with_raw_parts(parts),
    )
}

/// The code artifact of a structured result whose pretty-printed JSON is `text`.
fn code_artifact(text: Value) -> Artifact {
    Artifact::new(
        Kind::Code,
        payload([("text", text), ("lang", Value::from("json")), ("filename", Value::Null), ("output", Value::Null)]),
    )
}

/// The result for structured content: compact JSON as the value, the JSON as
/// a code artifact, and the structured content kept for MCP.
pub(crate) fn structured_result(structured: Value) -> ToolResult {
    let compact = serde_json::to_string(&structured).unwrap_or_default();
    let pretty = serde_json::to_string_pretty(&structured).unwrap_or_else(|_| compact.clone());
    ToolResult::new(compact)
        .with_artifact(code_artifact(Value::from(pretty)))
        .with_extra(NATIVE_EXTRA_KEY, Value::Object(payload([("structuredContent", structured)])))
        .with_text_from_structured()
}
