//! The one `$ref` walk: every part of codeagent that follows a schema's
//! references (argument checking, decoding, the client-compatible form, the
//! providers' forms, the elicitation form check) follows them here, by the
//! same rules:
//!
//! - a local reference is `#` (the root), a JSON pointer (`#/$defs/Name`,
//!   `#/definitions/Name`, with `~0`/`~1` escapes) or a plain name naming an
//!   `$anchor` (`#addressDef`); anything else (a remote reference, a pointer
//!   to nothing) is dangling;
//! - a reference whose target is itself a reference is followed, at most
//!   [`MAX_REF_CHAIN`] references in a row, and never back to one already
//!   followed (a cycle of references alone names no schema);
//! - a reference met again inside its own expansion (a recursive type, the
//!   recursion going through `properties`, `items`, ...) is not a cycle: the
//!   inlined form keeps it as a reference, with its definitions.
//!
//! A schema breaking a rule is refused with a [`RefError`], the same one
//! whichever part of codeagent reads it.

use serde_json::{Map, Value};

/// Keywords whose values are data, not schemas: never searched for anchors
/// or references.
pub(crate) const DATA_KEYWORDS: [&str; 4] = ["enum", "const", "default", "examples"];

/// The longest chain of references followed from one `$ref` (a reference to
/// a reference to ...); a longer one is refused ([`RefError::TooDeep`]).
pub(crate) const MAX_REF_CHAIN: usize = 32;

/// Why a schema's `$ref` names no schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RefError {
    /// The reference names nothing in the schema (or is not a local one, or not a string).
    Dangling(String),
    /// Following the reference leads back to it through references alone.
    Cycle(String),
    /// Following the reference takes more than [`MAX_REF_CHAIN`] references.
    TooDeep(String),
}

impl RefError {
    /// Why, completing "`$ref` at #/properties/x ...": `is "#/$defs/Missing",
    /// which does not name a definition of this schema`.
    pub(crate) fn reason(&self) -> String {
        match self {
            RefError::Dangling(reference) => {
                format!("is \"{reference}\", which does not name a definition of this schema")
            }
            RefError::Cycle(reference) => {
                format!("is \"{reference}\", which leads back to itself through references alone")
            }
            RefError::TooDeep(reference) => {
                format!("is \"{reference}\", which starts a chain of more than {MAX_REF_CHAIN} references")
            }
        }
    }
}

impl std::fmt::Display for RefError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`$ref` {}", self.reason())
    }
}

impl std::error::Error for RefError {}

/// The subschema a local `$ref` names in `root`, for every part of codeagent
/// that follows references (argument checking, decoding, the
/// client-compatible form and the forms built from it): `#` (the root), a JSON
/// pointer (`#/$defs/Name`, `#/definitions/Name`, with `~0`/`~1` escapes), or
/// a plain name naming an `$anchor` (`#addressDef`). `None` for anything else
/// (a remote reference, a pointer to nothing). One reference only: the
/// target may itself be a reference, which the walks follow by the same
/// rules, at most 32 in a row and never round a cycle.
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
    locate(root, reference).map(|(_, target)| target)
}

/// The target of a local reference and its JSON pointer (`#/$defs/Node`,
/// also for an anchor), which names it whatever form the reference had.
fn locate<'a>(root: &'a Value, reference: &str) -> Option<(String, &'a Value)> {
    let fragment = reference.strip_prefix('#')?;
    if fragment.is_empty() {
        return Some(("#".to_owned(), root));
    }
    let Some(pointer) = fragment.strip_prefix('/') else {
        let mut path = String::from("#");
        return find_anchor(root, fragment, &mut path).map(|target| (path, target));
    };
    let mut target = root;
    let mut path = String::from("#");
    for segment in pointer.split('/') {
        let unescaped = segment.replace("~1", "/").replace("~0", "~");
        target = match target {
            Value::Object(map) => map.get(&unescaped)?,
            Value::Array(items) => items.get(unescaped.parse::<usize>().ok()?)?,
            _ => return None,
        };
        path.push('/');
        path.push_str(segment);
    }
    Some((path, target))
}

/// The subschema of `schema` whose `$anchor` is `name`, with `path` extended
/// to its pointer.
fn find_anchor<'a>(schema: &'a Value, name: &str, path: &mut String) -> Option<&'a Value> {
    let length = path.len();
    match schema {
        Value::Object(map) => {
            if map.get("$anchor").and_then(Value::as_str) == Some(name) {
                return Some(schema);
            }
            for (key, value) in map.iter().filter(|(key, _)| !DATA_KEYWORDS.contains(&key.as_str())) {
                path.push('/');
                path.push_str(&key.replace('~', "~0").replace('/', "~1"));
                if let Some(found) = find_anchor(value, name, path) {
                    return Some(found);
                }
                path.truncate(length);
            }
            None
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push('/');
                path.push_str(&index.to_string());
                if let Some(found) = find_anchor(item, name, path) {
                    return Some(found);
                }
                path.truncate(length);
            }
            None
        }
        _ => None,
    }
}

/// What `reference` finally names in `root`: its target, or, when that is a
/// reference too (`{"$ref": ...}`), what that one names, and so on, at most
/// [`MAX_REF_CHAIN`] references and never round a cycle.
pub(crate) fn follow_ref<'a>(root: &'a Value, reference: &str) -> Result<&'a Value, RefError> {
    let mut followed: Vec<String> = Vec::new();
    let mut current = reference.to_owned();
    loop {
        let Some((pointer, target)) = locate(root, &current) else { return Err(RefError::Dangling(current)) };
        if followed.contains(&pointer) {
            return Err(RefError::Cycle(reference.to_owned()));
        }
        followed.push(pointer);
        if followed.len() > MAX_REF_CHAIN {
            return Err(RefError::TooDeep(reference.to_owned()));
        }
        match target.get("$ref") {
            None => return Ok(target),
            Some(Value::String(next)) => current = next.clone(),
            Some(other) => return Err(RefError::Dangling(other.to_string())),
        }
    }
}

/// `schema`, or what its `$ref` finally names ([`follow_ref`]); the schema
/// itself when it has no reference or a broken one.
pub(crate) fn followed<'a>(schema: &'a Value, root: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(reference) => follow_ref(root, reference).unwrap_or(schema),
        None => schema,
    }
}

/// The first broken `$ref` of `schema` (one naming nothing, a cycle, a too
/// long chain), looking everywhere but in data ([`DATA_KEYWORDS`]).
pub(crate) fn check_refs(schema: &Value) -> Result<(), RefError> {
    fn walk(schema: &Value, root: &Value) -> Result<(), RefError> {
        match schema {
            Value::Object(map) => {
                for (key, value) in map {
                    match (key.as_str(), value) {
                        ("$ref", Value::String(reference)) => {
                            follow_ref(root, reference)?;
                        }
                        ("$ref", other) => return Err(RefError::Dangling(other.to_string())),
                        (key, _) if DATA_KEYWORDS.contains(&key) => {}
                        _ => walk(value, root)?,
                    }
                }
                Ok(())
            }
            Value::Array(items) => items.iter().try_for_each(|item| walk(item, root)),
            _ => Ok(()),
        }
    }
    walk(schema, schema)
}

/// `schema` with every local `$ref` replaced by what it names, by the rules
/// of [`follow_ref`]: a recursive reference (met again inside its own
/// expansion) is left as a reference, rewritten to the JSON pointer of its
/// target, with the root's `$defs` and `definitions` kept; without one, they
/// go. An inlined copy keeps no `$anchor` (the anchor stays unique). A
/// broken reference refuses the whole schema.
pub(crate) fn inline_refs(schema: &Value) -> Result<Value, RefError> {
    check_refs(schema)?;
    let mut recursive = false;
    let mut inlined = inline(schema, schema, &mut Vec::new(), &mut recursive);
    if let Some(root) = inlined.as_object_mut() {
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
    if recursive {
        let copy = inlined.clone();
        canonical_refs(&mut inlined, &copy);
    }
    Ok(inlined)
}

/// Every `$ref` of `schema` rewritten to the JSON pointer of its target in `root`.
fn canonical_refs(schema: &mut Value, root: &Value) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get_mut("$ref")
                && let Some((pointer, _)) = locate(root, reference)
            {
                *reference = pointer;
            }
            for (key, value) in map.iter_mut() {
                if !DATA_KEYWORDS.contains(&key.as_str()) {
                    canonical_refs(value, root);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| canonical_refs(item, root)),
        _ => {}
    }
}

/// `schema` (a part of `root`) with its local references replaced by what
/// they name; a reference met again inside its own expansion is left as it is.
fn inline(schema: &Value, root: &Value, stack: &mut Vec<String>, recursive: &mut bool) -> Value {
    match schema {
        Value::Object(map) => {
            if let Some(reference) = map.get("$ref").and_then(Value::as_str)
                && let Some((pointer, target)) = locate(root, reference).filter(|(pointer, _)| pointer != "#")
            {
                if stack.contains(&pointer) {
                    *recursive = true;
                    return schema.clone();
                }
                stack.push(pointer);
                let mut resolved = inline(target, root, stack, recursive);
                stack.pop();
                if let Value::Object(resolved_map) = &mut resolved {
                    remove_ordered(resolved_map, "$anchor");
                    for (key, value) in map.iter().filter(|(key, _)| key.as_str() != "$ref") {
                        resolved_map.insert(key.clone(), inline_keyword(key, value, root, stack, recursive));
                    }
                }
                return resolved;
            }
            Value::Object(
                map.iter()
                    .filter(|(key, _)| key.as_str() != "$defs" && key.as_str() != "definitions")
                    .map(|(key, value)| (key.clone(), inline_keyword(key, value, root, stack, recursive)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(|item| inline(item, root, stack, recursive)).collect()),
        other => other.clone(),
    }
}

/// A keyword's value inlined, data ([`DATA_KEYWORDS`]) as it is.
fn inline_keyword(key: &str, value: &Value, root: &Value, stack: &mut Vec<String>, recursive: &mut bool) -> Value {
    if DATA_KEYWORDS.contains(&key) { value.clone() } else { inline(value, root, stack, recursive) }
}

/// Removes `key` from `map`, keeping the order of the other keys (serde_json's
/// own `remove` swaps the last key into the gap when it keeps insertion order).
fn remove_ordered(map: &mut Map<String, Value>, key: &str) -> Option<Value> {
    #[cfg(feature = "preserve_order")]
    return map.shift_remove(key);
    #[cfg(not(feature = "preserve_order"))]
    return map.remove(key);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{RefError, follow_ref, inline_refs};

    #[test]
    fn chains_are_followed_cycles_and_long_chains_refused() {
        let schema = json!({"$defs": {"a": {"$ref": "#/definitions/b"}, "c": {"$ref": "#/$defs/d"}, "d": {"$ref": "#/$defs/c"}},
            "definitions": {"b": {"$ref": "#end"}, "e": {"$anchor": "end", "type": "string"}}});
        assert_eq!(follow_ref(&schema, "#/$defs/a"), Ok(&json!({"$anchor": "end", "type": "string"})));
        assert_eq!(follow_ref(&schema, "#/$defs/c"), Err(RefError::Cycle("#/$defs/c".into())));
        assert_eq!(follow_ref(&schema, "#/$defs/x"), Err(RefError::Dangling("#/$defs/x".into())));
        let mut defs = serde_json::Map::new();
        for n in 0..40 {
            defs.insert(format!("d{n}"), json!({"$ref": format!("#/$defs/d{}", n + 1)}));
        }
        defs.insert("d40".into(), json!({"type": "string"}));
        let deep = json!({"$defs": defs});
        assert_eq!(follow_ref(&deep, "#/$defs/d0"), Err(RefError::TooDeep("#/$defs/d0".into())));
        assert!(follow_ref(&deep, "#/$defs/d10").is_ok());
    }

    #[test]
    fn recursive_references_are_kept_as_pointers() {
        let tree = json!({"type": "object", "properties": {"root": {"$ref": "#node"}},
            "definitions": {"Node": {"$anchor": "node", "type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#node"}}}}}});
        let inlined = inline_refs(&tree).unwrap();
        assert_eq!(inlined["properties"]["root"]["properties"]["kids"]["items"], json!({"$ref": "#/definitions/Node"}));
        assert!(inlined["properties"]["root"].get("$anchor").is_none());
        assert_eq!(inlined["definitions"]["Node"]["properties"]["kids"]["items"]["$ref"], "#/definitions/Node");
    }
}
