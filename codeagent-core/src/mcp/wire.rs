//! Per-version wire shapes: each field and block type appears only in the
//! versions that define it, and what an older version lacks is lowered to the
//! nearest form it has.

use serde_json::{Map, Value, json};

use super::{Annotations, ContentBlock, ProtocolVersion, ResourceContents};

/// The URI given to audio lowered to an embedded resource for 2024-11-05.
pub const LOWERED_AUDIO_URI: &str = "urn:codeagent:audio";

impl ContentBlock {
    /// The block as `version` sends it.
    ///
    /// Before 2025-03-26 audio becomes an embedded blob resource; before
    /// 2025-06-18 a resource link becomes a text block naming the URI, and
    /// `_meta` and `lastModified` are left out; icons appear from 2025-11-25.
    pub fn into_wire(self, version: ProtocolVersion) -> Value {
        match self {
            ContentBlock::Text(block) => {
                let mut map = typed("text");
                map.insert("text".into(), Value::String(block.text));
                finish(map, block.annotations, block.meta, version)
            }
            ContentBlock::Image(block) => media("image", block, version),
            ContentBlock::Audio(block) if version.has_audio() => media("audio", block, version),
            ContentBlock::Audio(block) => {
                let resource = ResourceContents::Blob {
                    uri: LOWERED_AUDIO_URI.to_owned(),
                    mime_type: Some(block.mime_type),
                    blob: block.data,
                    meta: None,
                };
                let mut map = typed("resource");
                map.insert("resource".into(), resource_contents(resource, version));
                finish(map, block.annotations, None, version)
            }
            ContentBlock::ResourceLink(link) if version.has_structured_content() => {
                let mut map = typed("resource_link");
                map.insert("uri".into(), Value::String(link.uri));
                map.insert("name".into(), Value::String(link.name));
                insert_some(&mut map, "title", link.title.map(Value::String));
                insert_some(&mut map, "description", link.description.map(Value::String));
                insert_some(&mut map, "mimeType", link.mime_type.map(Value::String));
                insert_some(&mut map, "size", link.size.map(Value::from));
                if version.has_icons() {
                    insert_some(&mut map, "icons", link.icons.map(|icons| json!(icons)));
                }
                finish(map, link.annotations, link.meta, version)
            }
            ContentBlock::ResourceLink(link) => {
                let label = link.title.as_deref().unwrap_or(&link.name);
                let mut text = format!("Resource: {label} <{}>", link.uri);
                if let Some(description) = &link.description {
                    text.push('\n');
                    text.push_str(description);
                }
                let mut map = typed("text");
                map.insert("text".into(), Value::String(text));
                finish(map, link.annotations, None, version)
            }
            ContentBlock::Resource(embedded) => {
                let mut map = typed("resource");
                map.insert("resource".into(), resource_contents(embedded.resource, version));
                finish(map, embedded.annotations, embedded.meta, version)
            }
        }
    }
}

fn typed(kind: &str) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".into(), Value::from(kind));
    map
}

fn insert_some(map: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        map.insert(key.into(), value);
    }
}

fn media(kind: &str, block: super::MediaContent, version: ProtocolVersion) -> Value {
    let mut map = typed(kind);
    map.insert("data".into(), Value::String(block.data));
    map.insert("mimeType".into(), Value::String(block.mime_type));
    finish(map, block.annotations, block.meta, version)
}

fn finish(
    mut map: Map<String, Value>,
    annotations: Option<Annotations>,
    meta: Option<Map<String, Value>>,
    version: ProtocolVersion,
) -> Value {
    let modern = version.has_structured_content();
    if let Some(annotations) = annotations.and_then(|annotations| annotations.for_version(modern)) {
        map.insert("annotations".into(), json!(annotations));
    }
    if modern && let Some(meta) = meta {
        map.insert("_meta".into(), Value::Object(meta));
    }
    Value::Object(map)
}

impl ResourceContents {
    /// The contents as `version` sends them: `_meta` only from 2025-06-18.
    pub fn into_wire(self, version: ProtocolVersion) -> Value {
        resource_contents(self, version)
    }
}

fn resource_contents(contents: ResourceContents, version: ProtocolVersion) -> Value {
    let (uri, mime_type, key, body, meta) = match contents {
        ResourceContents::Text { uri, mime_type, text, meta } => (uri, mime_type, "text", text, meta),
        ResourceContents::Blob { uri, mime_type, blob, meta } => (uri, mime_type, "blob", blob, meta),
    };
    let mut map = Map::new();
    map.insert("uri".into(), Value::String(uri));
    insert_some(&mut map, "mimeType", mime_type.map(Value::String));
    map.insert(key.into(), Value::String(body));
    if version.has_structured_content() {
        insert_some(&mut map, "_meta", meta.map(Value::Object));
    }
    Value::Object(map)
}

/// Whether a schema's root is `"type": "object"`.
pub(crate) fn is_object_schema(schema: &Value) -> bool {
    schema.get("type").and_then(Value::as_str) == Some("object")
}

/// An output schema as `version` states it: absent before 2025-06-18; in
/// 2025-06-18 and 2025-11-25, which require an object root, a non-object
/// schema is wrapped as `{"type":"object","properties":{"result":...}}` (its
/// `$defs` and `$schema` hoisted so references still resolve); as is in 2026-07-28.
pub fn output_schema_for(schema: &Value, version: ProtocolVersion) -> Option<Value> {
    if !version.has_structured_content() {
        return None;
    }
    let schema = match schema {
        Value::Bool(true) => json!({}),
        Value::Bool(false) => json!({ "not": {} }),
        other => other.clone(),
    };
    if version.has_result_type() {
        return Some(schema);
    }
    if is_object_schema(&schema) {
        return Some(object_property_schemas(schema));
    }
    let Value::Object(mut inner) = schema else {
        return Some(json!({"type": "object", "properties": {"result": schema}, "required": ["result"]}));
    };
    let mut wrapper = Map::new();
    if let Some(dialect) = inner.remove("$schema") {
        wrapper.insert("$schema".into(), dialect);
    }
    wrapper.insert("type".into(), Value::from("object"));
    wrapper.insert("properties".into(), json!({ "result": {} }));
    wrapper.insert("required".into(), json!(["result"]));
    let mut hoisted = Vec::new();
    for key in ["$defs", "definitions"] {
        if let Some(definitions) = inner.remove(key) {
            hoisted.push(key);
            wrapper.insert(key.into(), definitions);
        }
    }
    let mut inner = Value::Object(inner);
    rebase_refs(&mut inner, &hoisted);
    for key in &hoisted {
        if let Some(definitions) = wrapper.get_mut(*key) {
            rebase_refs(definitions, &hoisted);
        }
    }
    wrapper["properties"]["result"] = object_property_schemas(inner);
    Some(Value::Object(wrapper))
}

/// Points local references at the schema's new place under
/// `properties.result`, except those into the hoisted definitions.
fn rebase_refs(schema: &mut Value, hoisted: &[&str]) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some(pointer) = reference.strip_prefix('#')
            {
                let into_definitions = hoisted.iter().any(|key| pointer.starts_with(&format!("/{key}/")));
                if !into_definitions && (pointer.is_empty() || pointer.starts_with('/')) {
                    *reference = format!("#/properties/result{pointer}");
                }
            }
            for (key, value) in map.iter_mut() {
                if key != "const" && key != "enum" && key != "default" && key != "examples" {
                    rebase_refs(value, hoisted);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| rebase_refs(item, hoisted)),
        _ => {}
    }
}

/// Legacy schemas require each entry of a root `properties` to be an object
/// schema: `true` becomes `{}` and `false` becomes `{"not": {}}`.
pub(crate) fn object_property_schemas(mut schema: Value) -> Value {
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for property in properties.values_mut() {
            match property {
                Value::Bool(true) => *property = json!({}),
                Value::Bool(false) => *property = json!({"not": {}}),
                _ => {}
            }
        }
    }
    schema
}
