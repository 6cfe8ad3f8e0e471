//! Between the three-channel result and MCP's `CallToolResult`: the
//! conversions behind [`ToolResult::into_call_result`](super::ToolResult::into_call_result)
//! and [`ToolResult::from_mcp`](super::ToolResult::from_mcp).

use serde_json::{Map, Value, json};

use crate::artifact::{ARTIFACT_SCHEMA, ArtifactRef, Versions};
use crate::mcp::{
    ARTIFACT_META_KEY, CallToolResult, ContentBlock, FROM_STRUCTURED_KEY, MediaContent, NATIVE_EXTRA_KEY,
    restore_from_structured,
};
use crate::raw_json::RawParts;

/// The `CallToolResult` for a result's parts (see
/// [`ToolResult::into_call_result`](super::ToolResult::into_call_result)).
pub(super) fn call_result(
    value: String,
    is_error: bool,
    mut extra: Map<String, Value>,
    text_from_structured: bool,
) -> CallToolResult {
    let mut artifact = match extra.get_mut("codeagent") {
        Some(Value::Object(codeagent)) => codeagent.remove("artifact").filter(|artifact| !artifact.is_null()),
        _ => None,
    };
    // An artifact that only repeats the value is what `from_mcp` rebuilds from
    // the text block anyway: leave it off the wire.
    if artifact.as_ref().is_some_and(|artifact| is_value_backed(artifact, &value, is_error)) {
        artifact = None;
    }
    let mut meta = Map::new();
    let mut structured = None;
    let content = match extra.remove(NATIVE_EXTRA_KEY) {
        Some(Value::Object(mut native)) => {
            structured = native.remove("structuredContent");
            if let Some(Value::Object(native_meta)) = native.remove("_meta") {
                meta = native_meta;
            }
            if let (Some(artifact), Some(structured)) = (artifact.as_mut(), structured.as_ref()) {
                refer_to_structured(artifact, structured, text_from_structured);
            }
            match native.remove("content").and_then(|content| serde_json::from_value::<Vec<ContentBlock>>(content).ok())
            {
                Some(content) if !content.is_empty() => content,
                _ => vec![ContentBlock::text(value)],
            }
        }
        _ => lower_by_artifact(artifact.as_mut(), value),
    };
    if let Some(mut artifact) = artifact {
        refer_to_images(&mut artifact, &content);
        meta.insert(ARTIFACT_META_KEY.into(), artifact);
    }
    CallToolResult {
        content,
        structured_content: structured,
        is_error: is_error.then_some(true),
        meta: (!meta.is_empty()).then_some(meta),
    }
}

/// When `call`'s lone text block is its structured content's JSON text,
/// written once (a [`Json`](crate::Json)'s value), makes the block a marker
/// of that text quoted: the text is escaped straight from the JSON, once,
/// when it is written out, or was escaped when the JSON was written. When
/// `text_is_structured` (the block is the result's value, and the value the
/// structured content's compact JSON, as `Json` makes them) and the
/// structured content awaits that text, the block's text is handed over
/// rather than compared.
pub(super) fn quote_structured_text(call: &mut CallToolResult, parts: &mut RawParts, text_is_structured: bool) {
    let Some(structured) = &call.structured_content else { return };
    let [ContentBlock::Text(block)] = call.content.as_mut_slice() else { return };
    if block.annotations.is_some() || block.meta.is_some() {
        return;
    }
    if text_is_structured && parts.awaits_text(structured) {
        block.text = parts.adopt(structured, std::mem::take(&mut block.text)).unwrap_or_else(|text| text);
        return;
    }
    if parts.json_text(structured) != Some(block.text.as_bytes()) {
        return;
    }
    if let Some(Value::String(marker)) = parts.quoted(structured) {
        block.text = marker;
    }
}

/// A result in JSON, to be adapted, for an MCP `CallToolResult` (see
/// [`ToolResult::from_mcp`](super::ToolResult::from_mcp)).
pub(super) fn result_json_from_mcp(object: &Map<String, Value>) -> Value {
    let content: &[Value] = object.get("content").and_then(Value::as_array).map_or(&[], Vec::as_slice);
    let is_error = object.get("isError").and_then(Value::as_bool).unwrap_or(false);
    let value = summarize(content);
    let mut meta = object.get("_meta").and_then(Value::as_object).cloned().unwrap_or_default();
    let artifact = match meta.remove(ARTIFACT_META_KEY) {
        Some(mut artifact) => {
            restore_images(&mut artifact, content);
            if let Some(structured) = object.get("structuredContent") {
                restore_from_structured(&mut artifact, structured);
            }
            artifact
        }
        None => synthesize(content, &value, is_error),
    };
    let mut native = Map::new();
    native.insert("content".into(), Value::Array(content.to_vec()));
    if let Some(structured) = object.get("structuredContent") {
        native.insert("structuredContent".into(), structured.clone());
    }
    if !meta.is_empty() {
        native.insert("_meta".into(), Value::Object(meta));
    }
    json!({
        "value": value,
        "is_error": is_error,
        "extra": { "codeagent": { "artifact": artifact }, NATIVE_EXTRA_KEY: native },
    })
}

fn lower_by_artifact(artifact: Option<&mut Value>, value: String) -> Vec<ContentBlock> {
    let Some(artifact) = artifact else {
        return vec![ContentBlock::text(value)];
    };
    let kind = ArtifactRef::parse(artifact, &Versions::V1).map(|view| view.kind_name().to_owned());
    match kind.as_deref() {
        Some("image") => {
            let mut blocks = Vec::new();
            if let Some(Value::Array(images)) = artifact["payload"].get_mut("images") {
                for image in images.iter_mut() {
                    let Some(Value::String(mime)) = image.get("mime").cloned() else { continue };
                    let Some(Value::String(b64)) = image.as_object_mut().and_then(|image| image.remove("b64")) else {
                        continue;
                    };
                    image["content"] = Value::from(blocks.len());
                    blocks.push(ContentBlock::Image(MediaContent {
                        data: b64,
                        mime_type: mime,
                        annotations: None,
                        meta: None,
                    }));
                }
            }
            blocks.push(ContentBlock::text(value));
            blocks
        }
        _ => vec![ContentBlock::text(value)],
    }
}

/// Replaces the artifact's copy of `structured` by a reference to it, so the
/// data is sent once: a table whose `df` is the structured content, or a JSON
/// code artifact whose text is it pretty-printed (known without comparing when
/// `text_from_structured`, as for [`Json`](crate::Json)).
fn refer_to_structured(artifact: &mut Value, structured: &Value, text_from_structured: bool) {
    let kind = ArtifactRef::parse(artifact, &Versions::V1).map(|view| view.kind_name().to_owned());
    let Some(payload) = artifact.get_mut("payload").and_then(Value::as_object_mut) else { return };
    let field = match kind.as_deref() {
        Some("table") if payload.get("df") == Some(structured) => "df",
        Some("code")
            if payload.get("lang").and_then(Value::as_str) == Some("json")
                && (text_from_structured
                    || payload.get("text").and_then(Value::as_str)
                        == serde_json::to_string_pretty(structured).ok().as_deref()) =>
        {
            "text"
        }
        _ => return,
    };
    // Rebuilt rather than removed from, so the other keys keep their order.
    for (key, value) in std::mem::take(payload) {
        if key == field {
            payload.insert(FROM_STRUCTURED_KEY.into(), Value::from(field));
        } else {
            payload.insert(key, value);
        }
    }
}

/// Whether `artifact` is exactly the v1 artifact `ToolResult::from_mcp`
/// synthesises from a lone text block holding `value`.
fn is_value_backed(artifact: &Value, value: &str, is_error: bool) -> bool {
    let Some(object) = artifact.as_object() else { return false };
    let text = |key: &str| object.get(key).and_then(Value::as_str);
    let Some(payload) = object.get("payload").and_then(Value::as_object) else { return false };
    let payload_matches = if is_error {
        payload.len() == 2
            && payload.get("message").and_then(Value::as_str) == Some(value)
            && payload.get("detail").is_some_and(Value::is_null)
    } else {
        payload.len() == 1 && payload.get("text").and_then(Value::as_str) == Some(value)
    };
    let (kind, status) = if is_error { ("error", "error") } else { ("text", "success") };
    object.len() == 7
        && payload_matches
        && text("schema") == Some(ARTIFACT_SCHEMA)
        && object.get("version").and_then(Value::as_u64) == Some(1)
        && text("kind") == Some(kind)
        && text("status") == Some(status)
        && object.get("icon").is_some_and(Value::is_null)
        && object.get("title").is_some_and(Value::is_null)
}

/// Replaces the bytes of each artifact image that an image block of `content`
/// already carries by that block's index, so the bytes are sent once.
fn refer_to_images(artifact: &mut Value, content: &[ContentBlock]) {
    let Some(Value::Array(images)) = artifact.get_mut("payload").and_then(|payload| payload.get_mut("images")) else {
        return;
    };
    for image in images.iter_mut().filter_map(Value::as_object_mut) {
        let Some(Value::String(b64)) = image.get("b64") else { continue };
        let index = content.iter().position(|block| matches!(block, ContentBlock::Image(media) if media.data == *b64));
        if let Some(index) = index {
            image.remove("b64");
            image.insert("content".into(), Value::from(index));
        }
    }
}

/// Puts back the bytes of images that an artifact in `_meta` refers to by content index.
fn restore_images(artifact: &mut Value, content: &[Value]) {
    let Some(Value::Array(images)) = artifact.get_mut("payload").and_then(|payload| payload.get_mut("images")) else {
        return;
    };
    for image in images.iter_mut().filter_map(Value::as_object_mut) {
        if image.get("b64").is_some_and(Value::is_string) {
            continue;
        }
        let block =
            image.get("content").and_then(Value::as_u64).and_then(|index| content.get(usize::try_from(index).ok()?));
        if let Some(data) = block.filter(|block| block["type"] == "image").and_then(|block| block.get("data")) {
            image.insert("b64".into(), data.clone());
            image.remove("content");
        }
    }
}

fn synthesize(content: &[Value], value: &str, is_error: bool) -> Value {
    let images: Vec<Value> = content
        .iter()
        .filter(|block| block["type"] == "image")
        .filter_map(|block| {
            Some(json!({ "mime": block.get("mimeType")?.as_str()?, "b64": block.get("data")?.as_str()? }))
        })
        .collect();
    let status = if is_error { "error" } else { "success" };
    let (kind, payload) = if !images.is_empty() {
        let output = texts(content).collect::<Vec<_>>().join("\n");
        (
            "image",
            json!({ "images": images, "output": if output.is_empty() { Value::Null } else { Value::from(output) } }),
        )
    } else if is_error {
        ("error", json!({ "message": value, "detail": null }))
    } else {
        ("text", json!({ "text": value }))
    };
    json!({
        "schema": ARTIFACT_SCHEMA, "version": 1, "kind": kind, "status": status,
        "icon": null, "title": null, "payload": payload,
    })
}

/// The text of text blocks and embedded text resources.
fn texts(content: &[Value]) -> impl Iterator<Item = &str> {
    content.iter().filter_map(|block| match block["type"].as_str()? {
        "text" => block.get("text")?.as_str(),
        "resource" => block.get("resource")?.get("text")?.as_str(),
        _ => None,
    })
}

fn summarize(content: &[Value]) -> String {
    let text: Vec<&str> = texts(content).collect();
    if !text.is_empty() {
        return text.join("\n");
    }
    let described: Vec<String> = content
        .iter()
        .map(|block| {
            let field = |key: &str| block.get(key).and_then(Value::as_str).unwrap_or("unknown");
            match field("type") {
                "image" => format!("[image: {}]", field("mimeType")),
                "audio" => format!("[audio: {}]", field("mimeType")),
                "resource_link" => format!("[resource link: {} <{}>]", field("name"), field("uri")),
                "resource" => {
                    let uri = block.get("resource").and_then(|resource| resource.get("uri")).and_then(Value::as_str);
                    format!("[resource: {}]", uri.unwrap_or("unknown"))
                }
                other => format!("[{other} content]"),
            }
        })
        .collect();
    described.join("\n")
}
