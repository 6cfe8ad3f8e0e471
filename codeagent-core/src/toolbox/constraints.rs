//! Checks of the value constraints a schema states (ranges, lengths, sizes)
//! that serde does not enforce, such as `#[schemars(range(min = 1))]`.
//!
//! Types, required fields and unknown fields are serde's job; this pass runs on
//! arguments serde accepted and follows `properties`, `items`, `prefixItems`,
//! `additionalProperties`, local `$ref`s, `allOf`, and `anyOf`/`oneOf` when the
//! value's type picks one branch.

use serde_json::{Map, Value};

/// The first constraint `value` breaks, as `(path, message)`.
pub(crate) fn first_violation(schema: &Value, value: &Value) -> Option<(String, String)> {
    let definitions = schema.get("$defs").and_then(Value::as_object);
    let mut path = Vec::new();
    check(schema, value, definitions, &mut path, 0)
}

fn check(
    schema: &Value,
    value: &Value,
    definitions: Option<&Map<String, Value>>,
    path: &mut Vec<String>,
    depth: usize,
) -> Option<(String, String)> {
    let schema = schema.as_object()?;
    if depth > 64 {
        return None;
    }
    if let Some(name) = schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/"))
        && let Some(target) = definitions.and_then(|definitions| definitions.get(name))
        && let Some(violation) = check(target, value, definitions, path, depth + 1)
    {
        return Some(violation);
    }
    if let Some(message) = local_violation(schema, value) {
        return Some((render(path), message));
    }
    for sub in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
        if let Some(violation) = check(sub, value, definitions, path, depth + 1) {
            return Some(violation);
        }
    }
    for key in ["anyOf", "oneOf"] {
        let branches = schema.get(key).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
        let matching: Vec<&Value> = branches.iter().filter(|branch| type_admits(branch, value, definitions)).collect();
        if let [only] = matching.as_slice()
            && let Some(violation) = check(only, value, definitions, path, depth + 1)
        {
            return Some(violation);
        }
    }
    match value {
        Value::Object(object) => {
            let properties = schema.get("properties").and_then(Value::as_object);
            for (key, item) in object {
                let sub = properties
                    .and_then(|properties| properties.get(key))
                    .or_else(|| schema.get("additionalProperties"));
                if let Some(sub) = sub {
                    path.push(key.clone());
                    let violation = check(sub, item, definitions, path, depth + 1);
                    path.pop();
                    if violation.is_some() {
                        return violation;
                    }
                }
            }
        }
        Value::Array(items) => {
            let prefix = schema.get("prefixItems").and_then(Value::as_array);
            for (index, item) in items.iter().enumerate() {
                let sub = prefix.and_then(|prefix| prefix.get(index)).or_else(|| schema.get("items"));
                if let Some(sub) = sub {
                    path.push(format!("[{index}]"));
                    let violation = check(sub, item, definitions, path, depth + 1);
                    path.pop();
                    if violation.is_some() {
                        return violation;
                    }
                }
            }
        }
        _ => {}
    }
    None
}

fn local_violation(schema: &Map<String, Value>, value: &Value) -> Option<String> {
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    match value {
        Value::Number(number) => {
            let number = number.as_f64()?;
            if let Some(minimum) = bound("minimum").filter(|minimum| number < *minimum) {
                return Some(format!("{number} is less than the minimum {minimum}"));
            }
            if let Some(maximum) = bound("maximum").filter(|maximum| number > *maximum) {
                return Some(format!("{number} is greater than the maximum {maximum}"));
            }
            if let Some(minimum) = bound("exclusiveMinimum").filter(|minimum| number <= *minimum) {
                return Some(format!("{number} must be greater than {minimum}"));
            }
            if let Some(maximum) = bound("exclusiveMaximum").filter(|maximum| number >= *maximum) {
                return Some(format!("{number} must be less than {maximum}"));
            }
            if let Some(step) = bound("multipleOf").filter(|step| *step > 0.0 && (number / step).fract().abs() > 1e-9) {
                return Some(format!("{number} is not a multiple of {step}"));
            }
        }
        Value::String(text) => {
            let length = text.chars().count();
            return sized(schema, length, "minLength", "maxLength", "characters");
        }
        Value::Array(items) => return sized(schema, items.len(), "minItems", "maxItems", "items"),
        Value::Object(object) => return sized(schema, object.len(), "minProperties", "maxProperties", "properties"),
        _ => {}
    }
    None
}

fn sized(schema: &Map<String, Value>, size: usize, min: &str, max: &str, unit: &str) -> Option<String> {
    let limit = |key: &str| schema.get(key).and_then(Value::as_u64).and_then(|limit| usize::try_from(limit).ok());
    if let Some(min) = limit(min).filter(|min| size < *min) {
        return Some(format!("has {size} {unit}, fewer than the minimum {min}"));
    }
    if let Some(max) = limit(max).filter(|max| size > *max) {
        return Some(format!("has {size} {unit}, more than the maximum {max}"));
    }
    None
}

/// Whether a branch's declared `type` (following one `$ref`) admits the value.
fn type_admits(branch: &Value, value: &Value, definitions: Option<&Map<String, Value>>) -> bool {
    let branch = match branch.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/$defs/")) {
        Some(name) => match definitions.and_then(|definitions| definitions.get(name)) {
            Some(target) => target,
            None => return false,
        },
        None => branch,
    };
    let name = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let admits = |declared: &str| declared == name || (declared == "number" && name == "integer");
    match branch.get("type") {
        Some(Value::String(declared)) => admits(declared),
        Some(Value::Array(declared)) => declared.iter().filter_map(Value::as_str).any(admits),
        _ => branch.get("const").is_none_or(|constant| constant == value),
    }
}

fn render(path: &[String]) -> String {
    let mut rendered = String::new();
    for segment in path {
        if !segment.starts_with('[') && !rendered.is_empty() {
            rendered.push('.');
        }
        rendered.push_str(segment);
    }
    rendered
}
