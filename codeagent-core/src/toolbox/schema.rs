//! Input schemas: generated once per tool, then published as is or in a
//! client-compatible form.

use schemars::generate::{SchemaGenerator, SchemaSettings};
use schemars::{JsonSchema, Schema};
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
pub(crate) use crate::schema_ref::DATA_KEYWORDS;
use crate::schema_ref::inline_refs;
pub use crate::schema_ref::resolve_ref;

/// The input schema of argument struct `A`: JSON Schema 2020-12, object root,
/// no `title`, injected parameters removed.
pub(crate) fn input_schema_for<A: JsonSchema>() -> Value {
    input_schema_from(input_generator().into_root_schema_for::<A>().into())
}

/// The input schema whose root `json_schema` generates: what
/// [`input_schema_for`] makes of `A` when given `A::json_schema`, without
/// instantiating schemars' generic root for `A` (the expansion of `#[tool]`
/// passes its argument struct's, so no tool compiles code of its own here).
pub(crate) fn input_schema_with(json_schema: impl FnOnce(&mut SchemaGenerator) -> Schema) -> Value {
    let mut generator = input_generator();
    let mut schema: Value = json_schema(&mut generator).into();
    if let Value::Object(root) = &mut schema {
        if let Some(dialect) = generator.settings().meta_schema.clone() {
            root.insert("$schema".into(), dialect.into());
        }
        let mut definitions = generator.take_definitions(false);
        if !definitions.is_empty() {
            let path = generator.settings().definitions_path.trim_start_matches(['#', '/']).trim_end_matches('/');
            if let Value::Object(target) = root.entry(path).or_insert_with(|| Value::Object(Map::new())) {
                target.append(&mut definitions);
            }
        }
    }
    input_schema_from(schema)
}

/// The generator of input schemas.
fn input_generator() -> SchemaGenerator {
    SchemaSettings::draft2020_12().for_deserialize().into_generator()
}

/// The input schema made of an argument struct's root schema (not generic:
/// compiled once, not once per tool).
fn input_schema_from(schema: Value) -> Value {
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
/// on properties reached through `properties` only, of type string, integer
/// or boolean, whose value is a token (RFC 9110), unique regardless of case.
/// Others are ignored (see [`header_problems`]).
pub fn header_params(schema: &Value) -> Vec<HeaderParam> {
    header_annotations(schema).0
}

/// What is wrong with the `x-mcp-header` annotations of an input schema, one
/// line each: a client drops a tool that has any (2026-07-28 Streamable HTTP).
pub fn header_problems(schema: &Value) -> Vec<String> {
    header_annotations(schema).1
}

/// The allowed annotations and the problems of the others, in one walk.
fn header_annotations(schema: &Value) -> (Vec<HeaderParam>, Vec<String>) {
    fn primitive(property: &Value) -> bool {
        let allowed = |kind: &Value| matches!(kind.as_str(), Some("string" | "integer" | "boolean"));
        match property.get("type") {
            None => true,
            Some(Value::Array(kinds)) => {
                kinds.iter().any(allowed) && kinds.iter().all(|kind| allowed(kind) || kind == "null")
            }
            Some(kind) => allowed(kind),
        }
    }
    fn walk(schema: &Value, path: &mut Vec<String>, found: &mut Vec<HeaderParam>, problems: &mut Vec<String>) {
        let Some(properties) = schema.get("properties").and_then(Value::as_object) else { return };
        for (name, property) in properties {
            path.push(name.clone());
            if let Some(annotation) = property.get("x-mcp-header") {
                let at = path.join(".");
                let header = annotation.as_str().unwrap_or_default();
                let token = !header.is_empty()
                    && header.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte));
                let full = format!("Mcp-Param-{header}");
                let unique = !found.iter().any(|param| param.header.eq_ignore_ascii_case(&full));
                if !token {
                    problems.push(format!("`{at}`: x-mcp-header {annotation} is not a header name token"));
                } else if !unique {
                    problems.push(format!("`{at}`: x-mcp-header `{header}` is used twice"));
                } else if !primitive(property) {
                    problems.push(format!("`{at}`: x-mcp-header is only for string, integer and boolean arguments"));
                } else {
                    found.push(HeaderParam { path: path.clone(), header: full });
                }
            }
            walk(property, path, found, problems);
            path.pop();
        }
    }
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    walk(schema, &mut Vec::new(), &mut found, &mut problems);
    (found, problems)
}

/// The schema for clients that cannot resolve references: every local `$ref`
/// inlined by the rules of the one reference walk ([`resolve_ref`]; a
/// recursive one is left as a reference to its target's JSON pointer, with its
/// definitions kept), and no `$schema`. A schema with a broken reference (one
/// naming nothing, a cycle of references, a chain of more than 32), which a
/// [`Toolbox`](super::Toolbox) refuses, is returned as it is, nothing inlined,
/// but for its `$schema`.
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
    let mut inlined = inline_refs(schema).unwrap_or_else(|_| schema.clone());
    if let Some(root) = inlined.as_object_mut() {
        remove_ordered(root, "$schema");
    }
    inlined
}
