//! Input schemas: generated once per tool, then published as is or in a
//! client-compatible form.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use super::param::INJECTED_MARKER;

/// Removes `key` from `map`, keeping the order of the other keys (serde_json's
/// own `remove` swaps the last key into the gap when it keeps insertion order).
pub(crate) fn remove_ordered(map: &mut Map<String, Value>, key: &str) -> Option<Value> {
    #[cfg(feature = "preserve_order")]
    return map.shift_remove(key);
    #[cfg(not(feature = "preserve_order"))]
    return map.remove(key);
}
/// Keywords whose values are data, not schemas: never searched for anchors.
pub(crate) const DATA_KEYWORDS: [&str; 4] = ["enum", "const", "default", "examples"];

/// The subschema a local `$ref` names in `root`, for every part of codeagent
/// that follows references (argument checking, decoding, the
/// client-compatible form and the forms built from it): `#` (the root), a JSON
/// pointer (`#/$defs/Name`, `#/definitions/Name`, with `~0`/`~1` escapes), or
/// a plain name naming an `$anchor` (`#addressDef`). `None` for anything else
/// (a remote reference, a pointer to nothing).
///
/// ```
/// use codeagent_core::schema::resolve_ref;
/// use serde_json::json;
///
/// let schema = json!({"$defs": {"a": {"$anchor": "first", "type": "string"}}, "definitions": {"b": {"type": "integer"}}});
/// assert_eq!(resolve_ref(&schema, "#/$defs/a"), resolve_ref(&schema, "#first"));
/// assert_eq!(resolve_ref(&schema, "#/definitions/b"), Some(&json!({"type": "integer"})));
/// assert_eq!(resolve_ref(&schema, "other.json#/a"), None);
/// ```
pub fn resolve_ref<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(root);
    }
    let Some(pointer) = fragment.strip_prefix('/') else {
        return find_anchor(root, fragment);
    };
    let mut target = root;
    for segment in pointer.split('/') {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        target = match target {
            Value::Object(map) => map.get(&segment)?,
            Value::Array(items) => items.get(segment.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(target)
}

/// The subschema of `schema` whose `$anchor` is `name`.
fn find_anchor<'a>(schema: &'a Value, name: &str) -> Option<&'a Value> {
    match schema {
        Value::Object(map) => {
            if map.get("$anchor").and_then(Value::as_str) == Some(name) {
                return Some(schema);
            }
            map.iter()
                .filter(|(key, _)| !DATA_KEYWORDS.contains(&key.as_str()))
                .find_map(|(_, value)| find_anchor(value, name))
        }
        Value::Array(items) => items.iter().find_map(|item| find_anchor(item, name)),
        _ => None,
    }
}

/// The input schema of argument struct `A`: JSON Schema 2020-12, object root,
/// no `title`, injected parameters removed.
pub(crate) fn input_schema_for<A: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12().for_deserialize().into_generator();
    let schema: Value = generator.into_root_schema_for::<A>().into();
    let Value::Object(mut root) = schema else { return schema };
    remove_ordered(&mut root, "title");
    remove_ordered(&mut root, "description");
    strip_injected(&mut root);
    root.entry("properties").or_insert_with(|| Value::Object(Map::new()));
    // `$schema` and `type` first, as people expect to read them.
    let mut ordered = Map::with_capacity(root.len() + 1);
    if let Some(dialect) = remove_ordered(&mut root, "$schema") {
        ordered.insert("$schema".into(), dialect);
    }
    remove_ordered(&mut root, "type");
    ordered.insert("type".into(), Value::from("object"));
    ordered.extend(root);
    Value::Object(ordered)
}

fn strip_injected(root: &mut Map<String, Value>) {
    let Some(Value::Object(properties)) = root.get_mut("properties") else {
        return;
    };
    let injected: Vec<String> = properties
        .iter()
        .filter(|(_, schema)| schema.get(INJECTED_MARKER).is_some())
        .map(|(name, _)| name.clone())
        .collect();
    for name in &injected {
        remove_ordered(properties, name);
    }
    if let Some(Value::Array(required)) = root.get_mut("required") {
        required.retain(|name| !injected.iter().any(|injected| name == injected));
        if required.is_empty() {
            remove_ordered(root, "required");
        }
    }
}

/// An argument a client mirrors into an HTTP header, as the input schema's
/// `x-mcp-header` annotation says (2026-07-28 Streamable HTTP).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderParam {
    /// The property names leading from the root to the argument.
    pub path: Vec<String>,
    /// The header: `Mcp-Param-` followed by the annotation's value.
    pub header: String,
}

/// The `x-mcp-header` annotations of an input schema that the spec allows:
/// on properties reached through `properties` only, whose value is a token
/// (RFC 9110), unique regardless of case. Others are ignored.
pub(crate) fn header_params(schema: &Value) -> Vec<HeaderParam> {
    fn walk(schema: &Value, path: &mut Vec<String>, found: &mut Vec<HeaderParam>) {
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return };
        for (name, property) in properties {
            path.push(name.clone());
            if let Some(header) = property.get("x-mcp-header").and_then(Value::as_str) {
                let token = !header.is_empty()
                    && header.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte));
                let unique =
                    !found.iter().any(|param| param.header.eq_ignore_ascii_case(&format!("Mcp-Param-{header}")));
                if token && unique {
                    found.push(HeaderParam { path: path.clone(), header: format!("Mcp-Param-{header}") });
                }
            }
            walk(property, path, found);
            path.pop();
        }
    }
    let mut found = Vec::new();
    walk(schema, &mut Vec::new(), &mut found);
    found
}

/// The schema for clients that cannot resolve references: every local `$ref`
/// inlined (a recursive one is left as a reference, with its definitions kept),
/// and no `$schema`.
///
/// ```
/// use codeagent_core::schema::client_compatible;
/// use serde_json::json;
///
/// let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
///     "properties": {"unit": {"$ref": "#/$defs/Unit"}}, "$defs": {"Unit": {"enum": ["c", "f"]}}});
/// assert_eq!(client_compatible(&schema),
///     json!({"type": "object", "properties": {"unit": {"enum": ["c", "f"]}}}));
/// ```
pub fn client_compatible(schema: &Value) -> Value {
    let mut recursive = false;
    let mut inlined = inline(schema, schema, &mut Vec::new(), &mut recursive);
    if let Some(root) = inlined.as_object_mut() {
        remove_ordered(root, "$schema");
        if recursive {
            for key in ["$defs", "definitions"] {
                if let Some(definitions) = schema.get(key) {
                    root.insert(key.into(), definitions.clone());
                }
            }
        } else {
            remove_ordered(root, "$defs");
            remove_ordered(root, "definitions");
        }
    }
    inlined
}

/// `schema` (a part of `root`) with its local references replaced by what
/// they name; a reference met again inside its own expansion is left as it is.
fn inline(schema: &Value, root: &Value, stack: &mut Vec<String>, recursive: &mut bool) -> Value {
    match schema {
        Value::Object(map) => {
            if let Some(reference) = map.get("$ref").and_then(Value::as_str)
                && let Some(target) = resolve_ref(root, reference).filter(|target| !std::ptr::eq(*target, root))
            {
                if stack.iter().any(|seen| seen == reference) {
                    *recursive = true;
                    return schema.clone();
                }
                stack.push(reference.to_owned());
                let mut resolved = inline(target, root, stack, recursive);
                stack.pop();
                if let Value::Object(resolved_map) = &mut resolved {
                    for (key, value) in map.iter().filter(|(key, _)| key.as_str() != "$ref") {
                        resolved_map.insert(key.clone(), inline(value, root, stack, recursive));
                    }
                }
                return resolved;
            }
            Value::Object(
                map.iter()
                    .filter(|(key, _)| key.as_str() != "$defs" && key.as_str() != "definitions")
                    .map(|(key, value)| (key.clone(), inline(value, root, stack, recursive)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(|item| inline(item, root, stack, recursive)).collect()),
        other => other.clone(),
    }
}
