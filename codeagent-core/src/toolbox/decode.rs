//! Decoding a call's arguments into a tool's argument struct.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{ToolCall, ToolSpec};
use crate::output::ToolError;
use crate::schema_ref::followed;

/// Decodes the call's arguments as `A`, then checks every constraint of the
/// tool's input schema that serde does not (ranges, lengths, `pattern`,
/// `format`, `uniqueItems`, `const`, `enum`, `anyOf`/`oneOf`, ...). An
/// invalid argument gives the tool error to return (as an error result,
/// `is_error: true`), naming the field path, so the model can correct itself;
/// serde's own message wins when serde refuses the arguments too.
///
/// Only serde's part is generic: the expansion of every `#[tool]` calls this,
/// so everything else is in `checked_arguments` and `refused`, compiled
/// once here rather than once per tool in the user's crate.
pub fn decode_arguments<A: DeserializeOwned>(spec: &ToolSpec, call: &mut ToolCall) -> Result<A, ToolError> {
    let Checked { arguments, violation } = checked_arguments(spec, call)?;
    match serde_path_to_error::deserialize::<_, A>(Value::Object(arguments)) {
        Ok(arguments) => match violation {
            None => Ok(arguments),
            Some((path, message)) => Err(refused(spec, &path, &message)),
        },
        Err(error) => Err(refused(spec, &error.path().to_string(), &error.inner().to_string())),
    }
}

/// A call's arguments, checked against the tool's input schema.
pub(crate) struct Checked {
    /// The arguments, `null`s of a strict answer dropped.
    pub(crate) arguments: Map<String, Value>,
    /// The first constraint of the input schema they break: where, and how.
    pub(crate) violation: Option<(String, String)>,
}

/// The call's arguments, checked against the input schema.
pub(crate) fn checked_arguments(spec: &ToolSpec, call: &mut ToolCall) -> Result<Checked, ToolError> {
    let checker = match spec.checker() {
        Ok(checker) => checker,
        Err(refusal) => {
            return Err(ToolError::new(format!(
                "Invalid arguments for tool {}: its input schema cannot be enforced: {refusal}",
                spec.name()
            )));
        }
    };
    let mut arguments = Value::Object(call.take_arguments());
    let schema = &spec.definition().input_schema;
    drop_strict_nulls(&mut arguments, schema, schema);
    let violation = checker.and_then(|checker| checker.first_violation(schema, &arguments));
    // Still the object it was made from: dropping `null`s only removes entries.
    let arguments = match arguments {
        Value::Object(arguments) => arguments,
        _ => Map::new(),
    };
    Ok(Checked { arguments, violation })
}

/// The error of arguments refused at `path` with `message`.
pub(crate) fn refused(spec: &ToolSpec, path: &str, message: &str) -> ToolError {
    ToolError::new(format!("Invalid arguments for tool {}: {}", spec.name(), located(path, message)))
}

fn located(path: &str, message: &str) -> String {
    match path {
        "" | "." => message.to_owned(),
        path => format!("`{path}`: {message}"),
    }
}

/// Removes the `null`s a model answering in strict form writes for absent
/// properties: a `null` for an optional property whose schema does not admit
/// `null` (an `Option` admits it; a `#[serde(default)]` field does not) is
/// taken as absent, in nested objects too. A `null` for a required property
/// is left for serde to refuse.
fn drop_strict_nulls(value: &mut Value, schema: &Value, root: &Value) {
    let schema = followed(schema, root);
    match value {
        Value::Object(object) => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return for_alternatives(value, schema, root);
            };
            let required = |name: &str| {
                schema.get("required").and_then(Value::as_array).is_some_and(|names| names.iter().any(|n| n == name))
            };
            object.retain(|name, value| {
                !(value.is_null()
                    && !required(name)
                    && properties.get(name).is_some_and(|property| !admits_null(property, root)))
            });
            for (name, value) in object.iter_mut() {
                if let Some(property) = properties.get(name) {
                    drop_strict_nulls(value, property, root);
                }
            }
        }
        Value::Array(items) => match schema.get("items") {
            Some(item) => items.iter_mut().for_each(|value| drop_strict_nulls(value, item, root)),
            None => for_alternatives(value, schema, root),
        },
        _ => {}
    }
}

/// Goes on into the one alternative of an `anyOf`/`oneOf` (an `Option` of a
/// struct) that is not `null`.
fn for_alternatives(value: &mut Value, schema: &Value, root: &Value) {
    for key in ["anyOf", "oneOf"] {
        let Some(alternatives) = schema.get(key).and_then(Value::as_array) else { continue };
        let mut others = alternatives
            .iter()
            .filter(|alternative| followed(alternative, root).get("type") != Some(&Value::from("null")));
        if let (Some(only), None) = (others.next(), others.next()) {
            drop_strict_nulls(value, only, root);
        }
    }
}

/// Whether `schema` accepts `null` (local `$ref`s followed in `root` by the
/// rules of the one reference walk, [`resolve_ref`](crate::schema::resolve_ref);
/// a schema without any type keyword accepts everything).
pub(crate) fn admits_null(schema: &Value, root: &Value) -> bool {
    fn walk(schema: &Value, root: &Value, depth: usize) -> bool {
        let map = match schema {
            Value::Bool(accepts) => return *accepts,
            Value::Object(map) => map,
            _ => return false,
        };
        if map.contains_key("$ref") {
            let target = followed(schema, root);
            return !std::ptr::eq(target, schema) && depth < 32 && walk(target, root, depth + 1);
        }
        let typed = match map.get("type") {
            Some(Value::String(name)) => Some(name == "null"),
            Some(Value::Array(names)) => Some(names.iter().any(|name| name == "null")),
            _ => None,
        };
        let listed = map.get("enum").and_then(Value::as_array).map(|values| values.contains(&Value::Null));
        let constant = map.get("const").map(Value::is_null);
        let alternatives = ["anyOf", "oneOf"]
            .iter()
            .filter_map(|key| map.get(*key).and_then(Value::as_array))
            .map(|alternatives| alternatives.iter().any(|alternative| walk(alternative, root, depth + 1)))
            .next();
        let all = map.get("allOf").and_then(Value::as_array).map(|all| all.iter().all(|s| walk(s, root, depth + 1)));
        let verdicts = [typed, listed, constant, alternatives, all];
        verdicts.iter().flatten().all(|accepts| *accepts)
    }
    walk(schema, root, 0)
}
