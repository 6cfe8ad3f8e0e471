//! Strict forms: an input schema rewritten into the JSON Schema subset a
//! provider enforces while the model writes the arguments, or the reason it
//! cannot be.
//!
//! Keywords that only narrow the accepted values and that the provider does
//! not support (`minLength`, `uniqueItems`, an unsupported `format`, ...) are
//! dropped: the toolbox still checks them when the call arrives, so a model
//! breaking one gets a tool error naming it. `default` and other annotations
//! but `description` and `title` are dropped too. Keywords that change the
//! shape of the accepted values (`allOf`, `not`, `if`, `patternProperties`,
//! maps, untyped values, ...) make the tool refused.

use serde_json::{Map, Value, json};

use crate::schema_ref::check_refs;
#[cfg(doc)]
use crate::schema_ref::inline_refs;
use crate::toolbox::decode::admits_null;

/// What one provider's strict mode accepts.
pub(super) struct Profile {
    /// The provider, for messages.
    name: &'static str,
    /// Every property must be required (an optional one becomes nullable).
    all_required: bool,
    /// `$ref`s to the schema's own definitions (recursive types) are allowed.
    recursion: bool,
    /// `allOf` is allowed.
    all_of: bool,
    /// `type` is a single name (a union becomes an `anyOf`).
    single_types: bool,
    /// The `format`s kept.
    formats: &'static [&'static str],
    /// The validation keywords kept.
    kept: &'static [&'static str],
    /// The size limits, when the provider documents them.
    limits: Option<Limits>,
}

/// Documented size limits of a strict schema.
struct Limits {
    depth: usize,
    properties: usize,
    enum_values: usize,
    string_length: usize,
    large_enum: usize,
    large_enum_length: usize,
}

/// OpenAI Structured Outputs (function calling with `"strict": true`).
pub(super) const OPENAI: Profile = Profile {
    name: "OpenAI",
    all_required: true,
    recursion: true,
    all_of: false,
    single_types: false,
    formats: &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"],
    kept: &[
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "minItems",
        "maxItems",
    ],
    limits: Some(Limits {
        depth: 10,
        properties: 5000,
        enum_values: 1000,
        string_length: 120_000,
        large_enum: 250,
        large_enum_length: 15_000,
    }),
};

/// Anthropic strict tool use.
pub(super) const ANTHROPIC: Profile = Profile {
    name: "Anthropic",
    all_required: false,
    recursion: false,
    all_of: true,
    single_types: true,
    formats: &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"],
    kept: &[],
    limits: None,
};

/// Keywords that change which values are accepted in ways no strict mode
/// supports.
const REFUSED: [&str; 16] = [
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "minContains",
    "maxContains",
    "prefixItems",
    "$dynamicRef",
];

/// Annotations kept as they are.
const ANNOTATIONS: [&str; 2] = ["description", "title"];

/// The strict form of `schema` (an input schema with its references inlined
/// by [`inline_refs`], as [`client_compatible`](crate::toolbox::client_compatible)
/// does) for `profile`, or why there is none.
pub(super) fn convert(schema: &Value, profile: &Profile) -> Result<Value, String> {
    let mut converted = node(schema, profile, "")?;
    // "Root objects must not be anyOf and must be an object" (OpenAI); Anthropic's
    // `input_schema` is an object too.
    if converted.get("type").and_then(Value::as_str) != Some("object") || converted.get("anyOf").is_some() {
        return Err(format!("its schema's root is not one object, which {}'s strict mode requires", profile.name));
    }
    // Definitions are left by recursive types only; their references point
    // into them ([`inline_refs`]: `#/$defs/Name` or `#/definitions/Name`).
    for key in ["$defs", "definitions"] {
        let Some(definitions) = schema.get(key).and_then(Value::as_object) else { continue };
        if !profile.recursion {
            let names: Vec<&str> = definitions.keys().map(String::as_str).collect();
            return Err(format!(
                "its schema is recursive (through {}), which {}'s strict mode does not support",
                names.join(", "),
                profile.name
            ));
        }
        let mut strict = Map::new();
        for (name, definition) in definitions {
            strict.insert(name.clone(), node(definition, profile, &format!("{key}/{name}"))?);
        }
        if let Some(root) = converted.as_object_mut() {
            root.insert(key.into(), Value::Object(strict));
        }
    }
    // Every reference left still names a schema of the strict form, by the
    // rules of the one reference walk.
    check_refs(&converted).map_err(|error| format!("its strict form's {error}"))?;
    if let Some(limits) = &profile.limits {
        check_limits(&converted, limits, profile)?;
    }
    Ok(converted)
}

/// Where a problem is, for messages: `` at `/properties/x` `` or nothing at the root.
fn at(path: &str) -> String {
    if path.is_empty() { String::new() } else { format!(" at `/{path}`") }
}

fn node(schema: &Value, profile: &Profile, path: &str) -> Result<Value, String> {
    let map = match schema {
        Value::Object(map) => map,
        Value::Bool(true) => return Err(format!("the schema{} accepts any value; strict mode needs a type", at(path))),
        _ => return Err(format!("the schema{} accepts no value", at(path))),
    };
    if let Some(keyword) = REFUSED.iter().find(|keyword| map.contains_key(**keyword)) {
        return Err(format!("`{keyword}`{} is not supported by {}'s strict mode", at(path), profile.name));
    }
    if !profile.all_of && map.contains_key("allOf") {
        return Err(format!("`allOf`{} is not supported by {}'s strict mode", at(path), profile.name));
    }
    if let Some(reference) = map.get("$ref") {
        let mut kept = Map::new();
        kept.insert("$ref".into(), reference.clone());
        if let Some(description) = map.get("description") {
            kept.insert("description".into(), description.clone());
        }
        return Ok(Value::Object(kept));
    }
    let mut out = Map::new();
    for (key, value) in map {
        let here = if path.is_empty() { key.clone() } else { format!("{path}/{key}") };
        match key.as_str() {
            "type" => {
                out.insert(key.clone(), value.clone());
            }
            "enum" => {
                out.insert(key.clone(), primitives(value, &here)?);
            }
            "const" => {
                out.insert("enum".into(), primitives(&Value::Array(vec![value.clone()]), &here)?);
            }
            "anyOf" | "oneOf" | "allOf" => {
                let Some(alternatives) = value.as_array() else {
                    return Err(format!("`{key}`{} is not a list", at(path)));
                };
                let converted = alternatives
                    .iter()
                    .enumerate()
                    .map(|(index, alternative)| node(alternative, profile, &format!("{here}/{index}")))
                    .collect::<Result<Vec<_>, _>>()?;
                let key = if key == "allOf" { "allOf" } else { "anyOf" };
                out.insert(key.into(), Value::Array(converted));
            }
            "items" => {
                out.insert(key.clone(), node(value, profile, &here)?);
            }
            "properties" => {
                let Some(properties) = value.as_object() else {
                    return Err(format!("`properties`{} is not an object", at(path)));
                };
                let mut converted = Map::new();
                for (name, property) in properties {
                    converted.insert(name.clone(), node(property, profile, &format!("{here}/{name}"))?);
                }
                out.insert(key.clone(), Value::Object(converted));
            }
            "required" => {
                out.insert(key.clone(), value.clone());
            }
            "additionalProperties"
                if value != &Value::Bool(false)
                    && map.get("properties").is_none_or(|p| p.as_object().is_some_and(Map::is_empty)) =>
            {
                return Err(format!(
                    "the object{} takes arbitrary keys (a map), which {}'s strict mode does not support",
                    at(path),
                    profile.name
                ));
            }
            "format" if value.as_str().is_some_and(|format| profile.formats.contains(&format)) => {
                out.insert(key.clone(), value.clone());
            }
            "minItems" if profile.name == "Anthropic" && value.as_u64().is_some_and(|min| min <= 1) => {
                out.insert(key.clone(), value.clone());
            }
            "additionalProperties" | "format" => {}
            "minItems" if profile.name == "Anthropic" => {}
            _ if ANNOTATIONS.contains(&key.as_str()) || profile.kept.contains(&key.as_str()) => {
                out.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
    let is_object = is_type(&out, "object") || out.contains_key("properties");
    if !["type", "enum", "anyOf", "allOf"].iter().any(|key| out.contains_key(*key)) {
        return Err(format!("the schema{} accepts any value; strict mode needs a type", at(path)));
    }
    if is_object {
        if !out.contains_key("properties") {
            return Err(format!(
                "the object{} takes arbitrary keys (a map), which {}'s strict mode does not support",
                at(path),
                profile.name
            ));
        }
        close(&mut out, profile);
    }
    if profile.single_types {
        return Ok(single_types(out));
    }
    Ok(Value::Object(out))
}

fn is_type(map: &Map<String, Value>, name: &str) -> bool {
    match map.get("type") {
        Some(Value::String(type_name)) => type_name == name,
        Some(Value::Array(names)) => names.iter().any(|type_name| type_name == name),
        _ => false,
    }
}

/// `additionalProperties: false`, and with `all_required`, every property
/// required, the optional ones nullable.
fn close(object: &mut Map<String, Value>, profile: &Profile) {
    object.insert("additionalProperties".into(), Value::Bool(false));
    if !profile.all_required {
        return;
    }
    let required: Vec<String> = object
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default();
    let Some(Value::Object(properties)) = object.get_mut("properties") else { return };
    let mut all = Vec::with_capacity(properties.len());
    for (name, property) in properties.iter_mut() {
        if !required.contains(name) {
            *property = nullable(std::mem::take(property));
        }
        all.push(Value::from(name.as_str()));
    }
    object.insert("required".into(), Value::Array(all));
}

/// `schema`, also accepting `null`.
fn nullable(schema: Value) -> Value {
    if admits_null(&schema, &Value::Null) {
        return schema;
    }
    let Value::Object(mut map) = schema else { return schema };
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        values.push(Value::Null);
    }
    match map.get_mut("type") {
        Some(Value::String(name)) => {
            let name = std::mem::take(name);
            map.insert("type".into(), json!([name, "null"]));
        }
        Some(Value::Array(names)) => names.push(Value::from("null")),
        _ => {
            if let Some(Value::Array(alternatives)) = map.get_mut("anyOf") {
                alternatives.push(json!({"type": "null"}));
            } else if !map.contains_key("enum") {
                let description = map.remove("description");
                let mut wrapper = Map::new();
                wrapper.insert("anyOf".into(), json!([Value::Object(map), {"type": "null"}]));
                if let Some(description) = description {
                    wrapper.insert("description".into(), description);
                }
                return Value::Object(wrapper);
            }
        }
    }
    Value::Object(map)
}

/// An `enum` (or `const`) of primitive values only.
fn primitives(values: &Value, path: &str) -> Result<Value, String> {
    let Some(list) = values.as_array() else { return Err(format!("`/{path}` is not a list")) };
    if list.iter().any(|value| value.is_object() || value.is_array()) {
        return Err(format!(
            "`/{path}` lists objects or arrays; strict mode takes strings, numbers, booleans and null"
        ));
    }
    Ok(values.clone())
}

/// A schema whose `type` lists several names, as an `anyOf` of one per name
/// (an `enum` alone needs no `type`).
fn single_types(mut map: Map<String, Value>) -> Value {
    if map.contains_key("enum") {
        map.remove("type");
        return Value::Object(map);
    }
    let Some(Value::Array(names)) = map.get("type").cloned() else { return Value::Object(map) };
    map.remove("type");
    let mut outer = Map::new();
    for annotation in ANNOTATIONS {
        if let Some(value) = map.remove(annotation) {
            outer.insert(annotation.into(), value);
        }
    }
    let alternatives = names
        .into_iter()
        .map(|name| {
            if name == "null" {
                return json!({"type": "null"});
            }
            let mut alternative = map.clone();
            alternative.insert("type".into(), name);
            Value::Object(alternative)
        })
        .collect();
    outer.insert("anyOf".into(), Value::Array(alternatives));
    Value::Object(outer)
}

/// Counts against the documented limits.
#[derive(Default)]
struct Size {
    depth: usize,
    properties: usize,
    enum_values: usize,
    string_length: usize,
}

fn check_limits(schema: &Value, limits: &Limits, profile: &Profile) -> Result<(), String> {
    let mut size = Size::default();
    measure(schema, 0, &mut size, limits, profile)?;
    let over = |what: &str, count: usize, limit: usize| {
        Err(format!("its schema has {count} {what}, more than the {limit} {}'s strict mode takes", profile.name))
    };
    if size.depth > limits.depth {
        return over("levels of object nesting", size.depth, limits.depth);
    }
    if size.properties > limits.properties {
        return over("object properties", size.properties, limits.properties);
    }
    if size.enum_values > limits.enum_values {
        return over("enum values", size.enum_values, limits.enum_values);
    }
    if size.string_length > limits.string_length {
        return over("characters of names and enum values", size.string_length, limits.string_length);
    }
    Ok(())
}

fn measure(schema: &Value, depth: usize, size: &mut Size, limits: &Limits, profile: &Profile) -> Result<(), String> {
    let Some(map) = schema.as_object() else { return Ok(()) };
    let depth = if map.contains_key("properties") { depth + 1 } else { depth };
    size.depth = size.depth.max(depth);
    if let Some(properties) = map.get("properties").and_then(Value::as_object) {
        size.properties += properties.len();
        size.string_length += properties.keys().map(String::len).sum::<usize>();
        for property in properties.values() {
            measure(property, depth, size, limits, profile)?;
        }
    }
    if let Some(definitions) = map.get("$defs").and_then(Value::as_object) {
        size.string_length += definitions.keys().map(String::len).sum::<usize>();
        for definition in definitions.values() {
            measure(definition, 0, size, limits, profile)?;
        }
    }
    if let Some(values) = map.get("enum").and_then(Value::as_array) {
        size.enum_values += values.len();
        let length: usize = values.iter().filter_map(Value::as_str).map(str::len).sum();
        size.string_length += length;
        if values.len() > limits.large_enum && length > limits.large_enum_length {
            return Err(format!(
                "an enum of its schema has {} values totalling {length} characters, more than the {} {}'s strict mode \
                 takes for an enum of over {} values",
                values.len(),
                limits.large_enum_length,
                profile.name,
                limits.large_enum
            ));
        }
    }
    if let Some(items) = map.get("items") {
        measure(items, depth, size, limits, profile)?;
    }
    for key in ["anyOf", "allOf"] {
        for alternative in map.get(key).and_then(Value::as_array).into_iter().flatten() {
            measure(alternative, depth, size, limits, profile)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{ANTHROPIC, OPENAI, convert};

    #[test]
    fn openai_requires_every_property_and_makes_optional_ones_nullable() {
        let schema = json!({"type": "object", "properties": {
            "name": {"type": "string", "minLength": 1},
            "count": {"type": "integer", "format": "uint32", "minimum": 0, "default": 3},
            "unit": {"enum": ["c", "f"], "type": "string"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true}},
            "required": ["name"]});
        // Every property is required, in the order the schema's object keeps them.
        let every: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(
            convert(&schema, &OPENAI).unwrap(),
            json!({"type": "object", "properties": {
                "name": {"type": "string"},
                "count": {"type": ["integer", "null"], "minimum": 0},
                "unit": {"enum": ["c", "f", null], "type": ["string", "null"]},
                "tags": {"type": ["array", "null"], "items": {"type": "string"}}},
                "required": every, "additionalProperties": false})
        );
    }

    #[test]
    fn anthropic_keeps_optional_properties_and_drops_numeric_bounds() {
        let schema = json!({"type": "object", "properties": {
            "steps": {"type": "integer", "format": "uint32", "minimum": 1, "maximum": 100},
            "note": {"type": ["string", "null"], "description": "A note."}}, "required": ["steps"]});
        assert_eq!(
            convert(&schema, &ANTHROPIC).unwrap(),
            json!({"type": "object", "properties": {
                "steps": {"type": "integer"},
                "note": {"description": "A note.", "anyOf": [{"type": "string"}, {"type": "null"}]}},
                "required": ["steps"], "additionalProperties": false})
        );
    }

    #[test]
    fn refuses_what_no_strict_mode_takes_and_says_where() {
        let map = json!({"type": "object", "properties": {"scores": {"type": "object", "additionalProperties": {"type": "number"}}}});
        assert!(convert(&map, &OPENAI).unwrap_err().contains("/properties/scores"));
        let any = json!({"type": "object", "properties": {"value": true}});
        assert!(convert(&any, &OPENAI).unwrap_err().contains("any value"));
        let untyped = json!({"type": "object", "properties": {"value": {"description": "Anything."}}});
        assert!(convert(&untyped, &ANTHROPIC).unwrap_err().contains("any value"));
        let negated = json!({"type": "object", "properties": {"x": {"type": "string", "not": {"const": ""}}}});
        assert!(convert(&negated, &OPENAI).unwrap_err().contains("`not`"));
        let recursive = json!({"type": "object", "properties": {"tree": {"$ref": "#/$defs/Tree"}},
            "$defs": {"Tree": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}}}});
        assert!(convert(&recursive, &ANTHROPIC).unwrap_err().contains("recursive"));
        let strict = convert(&recursive, &OPENAI).unwrap();
        assert_eq!(strict["$defs"]["Tree"]["additionalProperties"], false);
        assert_eq!(strict["properties"]["tree"], json!({"anyOf": [{"$ref": "#/$defs/Tree"}, {"type": "null"}]}));
    }

    #[test]
    fn the_root_is_one_object() {
        let union = json!({"anyOf": [{"type": "object", "properties": {}}, {"type": "object", "properties": {}}]});
        assert!(convert(&union, &OPENAI).unwrap_err().contains("root is not one object"));
        let nullable = json!({"type": ["object", "null"], "properties": {}});
        assert!(convert(&nullable, &ANTHROPIC).unwrap_err().contains("root is not one object"));
        assert!(convert(&json!({"type": "object", "properties": {}}), &OPENAI).is_ok());
    }

    #[test]
    fn refuses_schemas_over_the_openai_limits() {
        let mut schema = json!({"type": "object", "properties": {"leaf": {"type": "string"}}, "required": ["leaf"]});
        for _ in 0..10 {
            schema = json!({"type": "object", "properties": {"inner": schema}, "required": ["inner"]});
        }
        assert!(convert(&schema, &OPENAI).unwrap_err().contains("11 levels of object nesting"));
        let values: Vec<String> = (0..1001).map(|n| format!("v{n}")).collect();
        let big =
            json!({"type": "object", "properties": {"pick": {"type": "string", "enum": values}}, "required": ["pick"]});
        assert!(convert(&big, &OPENAI).unwrap_err().contains("enum values"));
    }
}
