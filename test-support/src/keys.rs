//! "Every key is defined by that version": the MCP schemas allow unknown keys
//! (no `additionalProperties: false`), so schema validation alone accepts a
//! `title` sent to 2024-11-05 or `icons` sent to 2025-06-18. This checker walks
//! a value alongside a definition and reports every object key that the
//! resolved definition does not list in its `properties`.
//!
//! - `$ref` is resolved within the version's document;
//! - for `anyOf`/`oneOf`, the branch whose `type` const equals the value's
//!   `"type"` is taken, or else the first `$ref` branch the value validates against;
//! - `allOf` members contribute their `properties`;
//! - free-form values are not entered: `_meta`, `structuredContent`, and the
//!   JSON Schema documents `inputSchema`/`outputSchema` (any JSON Schema keyword
//!   may appear in them; their root shape is left to schema validation).
//!   `annotations` is an ordinary definition and is checked.
//! - an object schema without `properties` (such as `MetaObject`) is free-form.
//! - `capabilities.extensions` is accepted in every version: the extension
//!   point of SEP-2133, which 2026-07-28 defines and clients of earlier
//!   versions already send (MCP Apps hosts declare `io.modelcontextprotocol/ui`
//!   there); a server answers with it only to a client that declared it.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::schema::VersionSchema;

/// Keys whose values are free-form JSON and are not walked.
pub const FREE_FORM: [&str; 4] = ["_meta", "structuredContent", "inputSchema", "outputSchema"];

/// Every key in `value` that the definition `name` of `schema`'s version does
/// not define, as paths such as `$.content[0].annotations.lastModified`, plus
/// union members that match no branch.
pub fn undefined_keys(schema: &VersionSchema, name: &str, value: &Value) -> Vec<String> {
    let root = schema.schema_at(name).unwrap_or_else(|| panic!("{}: no definition `{name}`", schema.version));
    let mut walker = Walker { schema, problems: Vec::new() };
    walker.walk(root, value, "$", 0);
    walker.problems
}

struct Walker<'a> {
    schema: &'a VersionSchema,
    problems: Vec<String>,
}

impl<'a> Walker<'a> {
    fn resolve(&self, mut node: &'a Value) -> &'a Value {
        for _ in 0..32 {
            match node.get("$ref").and_then(Value::as_str) {
                Some(reference) => {
                    node = self
                        .schema
                        .resolve_ref(reference)
                        .unwrap_or_else(|| panic!("{}: unresolved $ref {reference}", self.schema.version));
                }
                None => return node,
            }
        }
        panic!("{}: $ref chain too long", self.schema.version)
    }

    fn walk(&mut self, node: &'a Value, value: &Value, path: &str, depth: usize) {
        assert!(depth < 64, "schema walk too deep at {path}");
        let node = self.resolve(node);
        let branches = node.get("anyOf").or_else(|| node.get("oneOf")).and_then(Value::as_array);
        if let Some(branches) = branches {
            match self.choose(branches, value) {
                Some(branch) => self.walk(branch, value, path, depth + 1),
                None => self.problems.push(format!(
                    "{path}: matches no branch of the union (type {}) in {}",
                    value.get("type").map_or_else(|| "none".to_owned(), Value::to_string),
                    self.schema.version
                )),
            }
            return;
        }
        match value {
            Value::Object(map) => {
                let Some(properties) = self.properties(node) else { return };
                for (key, child) in map {
                    let child_path = format!("{path}.{key}");
                    match properties.get(key.as_str()) {
                        None if key == "extensions" && path.ends_with(".capabilities") => {}
                        None => self.problems.push(format!("{child_path}: not defined by {}", self.schema.version)),
                        Some(_) if FREE_FORM.contains(&key.as_str()) => {}
                        Some(sub) => self.walk(sub, child, &child_path, depth + 1),
                    }
                }
            }
            Value::Array(items) => {
                if let Some(item_schema) = node.get("items").filter(|items| items.is_object()) {
                    for (index, item) in items.iter().enumerate() {
                        self.walk(item_schema, item, &format!("{path}[{index}]"), depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    /// The `properties` of a resolved node and of its `allOf` members; `None`
    /// when it lists none (free-form).
    fn properties(&self, node: &'a Value) -> Option<BTreeMap<&'a str, &'a Value>> {
        let mut merged: Option<BTreeMap<&'a str, &'a Value>> = node
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.iter().map(|(key, schema)| (key.as_str(), schema)).collect());
        for member in node.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            if let Some(more) = self.properties(self.resolve(member)) {
                merged.get_or_insert_with(BTreeMap::new).extend(more);
            }
        }
        merged
    }

    fn choose(&self, branches: &'a [Value], value: &Value) -> Option<&'a Value> {
        let tag = value.get("type").and_then(Value::as_str);
        let resolved: Vec<&'a Value> = branches.iter().map(|branch| self.resolve(branch)).collect();
        let tagged = resolved.iter().any(|branch| branch.pointer("/properties/type/const").is_some());
        if tagged && let Some(tag) = tag {
            return resolved
                .into_iter()
                .find(|branch| branch.pointer("/properties/type/const").and_then(Value::as_str) == Some(tag));
        }
        branches.iter().zip(resolved).find_map(|(branch, resolved)| {
            let fits = match branch.get("$ref").and_then(Value::as_str) {
                Some(reference) if self.schema.has_location(reference) => {
                    self.schema.validate_at(reference, value).is_ok()
                }
                _ => required_present(resolved, value),
            };
            fits.then_some(resolved)
        })
    }
}

fn required_present(node: &Value, value: &Value) -> bool {
    let Some(object) = value.as_object() else { return false };
    node.get("required")
        .and_then(Value::as_array)
        .is_none_or(|required| required.iter().filter_map(Value::as_str).all(|key| object.contains_key(key)))
}
