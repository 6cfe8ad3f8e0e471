//! The schema of an elicitation form: a flat object of strings, numbers,
//! integers, booleans and enums (single- or multi-select, titled or not, with
//! defaults; SEP-1034 and SEP-1330), made from a Rust type's JSON Schema. A
//! type outside that subset is refused with the field and the reason.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

use crate::schema_ref::inline_refs;

/// Why a type cannot be an elicitation form.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{type_name}` cannot be an elicitation form: {}{reason}", field.as_ref().map(|field| format!("field `{field}`: ")).unwrap_or_default())]
pub struct FormError {
    /// The Rust type.
    pub type_name: String,
    /// The field at fault, if one is.
    pub field: Option<String>,
    /// What MCP elicitation does not allow.
    pub reason: String,
}

/// Keywords each kind of field may keep.
const COMMON: [&str; 4] = ["type", "title", "description", "default"];
const STRING: [&str; 3] = ["minLength", "maxLength", "format"];
const NUMBER: [&str; 2] = ["minimum", "maximum"];
const ARRAY: [&str; 3] = ["items", "minItems", "maxItems"];
/// The string formats elicitation allows.
const FORMATS: [&str; 4] = ["email", "uri", "date", "date-time"];

/// The `requestedSchema` of an elicitation of `T`.
///
/// ```
/// use codeagent_core::ask::form_schema;
///
/// #[derive(schemars::JsonSchema)]
/// struct Confirm {
///     /// Go ahead?
///     proceed: bool,
///     reason: Option<String>,
/// }
///
/// let schema = form_schema::<Confirm>().unwrap();
/// assert_eq!(schema["properties"]["proceed"]["type"], "boolean");
/// assert_eq!(schema["required"], serde_json::json!(["proceed"]));
///
/// #[derive(schemars::JsonSchema)]
/// struct Nested { inner: Confirm }
/// let error = form_schema::<Nested>().unwrap_err();
/// assert_eq!(error.field.as_deref(), Some("inner"));
/// ```
pub fn form_schema<T: JsonSchema>() -> Result<Value, FormError> {
    let type_name = T::schema_name().into_owned();
    let fail = |field: Option<&str>, reason: String| FormError {
        type_name: type_name.clone(),
        field: field.map(str::to_owned),
        reason,
    };
    let generator = SchemaSettings::draft2020_12().for_deserialize().into_generator();
    let schema: Value = generator.into_root_schema_for::<T>().into();
    // References inlined by the one reference walk; a recursive one is left,
    // and refused below as a nested field.
    let schema = inline_refs(&schema).map_err(|error| fail(None, error.to_string()))?;
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err(fail(None, "a form is a struct with named fields (a JSON object)".into()));
    }
    let Some(Value::Object(properties)) = schema.get("properties") else {
        return Err(fail(None, "a form needs named fields".into()));
    };
    for keyword in ["additionalProperties", "patternProperties", "allOf", "anyOf", "oneOf", "if", "dependentSchemas"] {
        if schema.get(keyword).is_some_and(|value| value != &Value::Bool(false)) {
            return Err(fail(None, format!("`{keyword}` (a flattened or untagged field?) is not allowed")));
        }
    }
    let mut required: Vec<Value> = schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut fields = Map::new();
    for (name, field) in properties {
        let (field, nullable) = primitive(field).map_err(|reason| fail(Some(name), reason))?;
        if nullable {
            required.retain(|required| required.as_str() != Some(name));
        }
        fields.insert(name.clone(), field);
    }
    let mut form = Map::new();
    form.insert("type".into(), Value::from("object"));
    form.insert("properties".into(), Value::Object(fields));
    if !required.is_empty() {
        form.insert("required".into(), Value::Array(required));
    }
    Ok(Value::Object(form))
}

/// One field as elicitation states it, and whether it may be null (an
/// `Option`, so not required).
fn primitive(field: &Value) -> Result<(Value, bool), String> {
    let Value::Object(field) = field else { return Err("a field schema must be an object".into()) };
    let mut field = field.clone();
    let nullable = unnull(&mut field)?;
    let kind = field.get("type").and_then(Value::as_str).map(str::to_owned);
    let allowed: Vec<&str> = match kind.as_deref() {
        Some("string") => {
            if let Some(format) = field.get("format").and_then(Value::as_str)
                && !FORMATS.contains(&format)
            {
                return Err(format!("string format `{format}` is not one of {}", FORMATS.join(", ")));
            }
            if field.contains_key("enum") {
                check_choices(&field)?;
            }
            if let Some(Value::Array(choices)) = field.remove("oneOf") {
                field.insert("oneOf".into(), titled_choices(&choices)?);
            }
            COMMON.iter().chain(&STRING).chain(&["enum", "oneOf", "enumNames"]).copied().collect()
        }
        Some("number" | "integer") => {
            // `int64`, `double`... say nothing a form can use.
            field.remove("format");
            COMMON.iter().chain(&NUMBER).copied().collect()
        }
        Some("boolean") => COMMON.to_vec(),
        Some("array") => {
            let items = field.get("items").and_then(Value::as_object).ok_or("a list field needs an item type")?;
            field.insert("items".into(), multi_select_items(items)?);
            COMMON.iter().chain(&ARRAY).copied().collect()
        }
        Some("object") => return Err("a nested struct or map is not allowed: a form is one flat struct".into()),
        Some(other) => return Err(format!("type `{other}` is not a string, number, integer, boolean or enum")),
        None => return Err("nested, untagged or data-carrying types are not allowed: use a flat struct".into()),
    };
    // Keywords that change nothing for the person answering go; any other is refused.
    field.retain(|key, _| !matches!(key.as_str(), "$schema" | "examples" | "deprecated" | "readOnly" | "writeOnly"));
    if let Some(keyword) = field.keys().find(|key| !allowed.contains(&key.as_str())) {
        return Err(format!("`{keyword}` is not allowed in an elicitation form"));
    }
    Ok((Value::Object(field), nullable))
}

/// Removes `null` from a field's type (`Option<T>`); whether there was one.
fn unnull(field: &mut Map<String, Value>) -> Result<bool, String> {
    match field.get("type") {
        Some(Value::Array(types)) => {
            let rest: Vec<&Value> = types.iter().filter(|kind| kind.as_str() != Some("null")).collect();
            let nullable = rest.len() < types.len();
            match rest.as_slice() {
                [single] => {
                    let single = (*single).clone();
                    field.insert("type".into(), single);
                }
                _ => return Err("a field has one type (an `Option` of one is fine)".into()),
            }
            if let Some(Value::Array(choices)) = field.get_mut("enum") {
                choices.retain(|choice| !choice.is_null());
            }
            Ok(nullable)
        }
        None => {
            // `Option<Enum>` comes out as `anyOf: [enum, null]`.
            let mut nullable = false;
            let branches = field.get("anyOf").and_then(Value::as_array).cloned().unwrap_or_default();
            let null = |branch: &Value| branch.get("type").and_then(Value::as_str) == Some("null");
            if branches.len() == 2 && branches.iter().any(null) {
                let inner = branches.iter().find(|branch| !null(branch)).and_then(Value::as_object).cloned();
                field.remove("anyOf");
                for (key, value) in inner.unwrap_or_default() {
                    field.entry(key).or_insert(value);
                }
                nullable = true;
                if field.contains_key("type") {
                    return unnull(field).map(|inner| inner || nullable);
                }
            }
            // A titled enum: `oneOf` of string constants.
            let titled = field
                .get("oneOf")
                .and_then(Value::as_array)
                .is_some_and(|choices| choices.iter().all(|choice| choice.get("const").is_some_and(Value::is_string)));
            if titled {
                field.insert("type".into(), Value::from("string"));
            }
            Ok(nullable)
        }
        Some(_) => Ok(false),
    }
}

/// An enum field's untitled choices: strings (unit variants).
fn check_choices(field: &Map<String, Value>) -> Result<(), String> {
    match field.get("enum").and_then(Value::as_array) {
        Some(choices) if choices.iter().all(Value::is_string) => Ok(()),
        _ => Err("enum choices must be strings (unit variants)".into()),
    }
}

/// Titled choices as elicitation states them: `{const, title}` each (the
/// title is the variant's `title`, else its doc comment, else its value).
fn titled_choices(choices: &[Value]) -> Result<Value, String> {
    choices
        .iter()
        .map(|choice| {
            let value = choice.get("const").and_then(Value::as_str).ok_or("enum choices must be unit variants")?;
            let title = ["title", "description"]
                .iter()
                .find_map(|key| choice.get(*key).and_then(Value::as_str))
                .unwrap_or(value);
            Ok(serde_json::json!({ "const": value, "title": title }))
        })
        .collect::<Result<Vec<Value>, String>>()
        .map(Value::Array)
}

/// The items of a multi-select: `{type: "string", enum}` or `{anyOf: [{const, title}]}`.
fn multi_select_items(items: &Map<String, Value>) -> Result<Value, String> {
    const NOT_MULTI: &str = "a list field must be a multi-select: a list of a unit-variant enum";
    if let Some(choices) = items.get("enum").and_then(Value::as_array) {
        if items.get("type").and_then(Value::as_str) != Some("string") || !choices.iter().all(Value::is_string) {
            return Err(NOT_MULTI.into());
        }
        return Ok(serde_json::json!({ "type": "string", "enum": choices }));
    }
    let choices =
        ["anyOf", "oneOf"].iter().find_map(|key| items.get(*key).and_then(Value::as_array)).ok_or(NOT_MULTI)?;
    Ok(serde_json::json!({ "anyOf": titled_choices(choices).map_err(|_| NOT_MULTI.to_owned())? }))
}

#[cfg(test)]
mod tests {
    use schemars::JsonSchema;
    use serde_json::json;

    use super::form_schema;

    #[derive(JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Plain {
        One,
        Two,
    }

    #[derive(JsonSchema)]
    #[serde(rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Titled {
        #[schemars(title = "First")]
        One,
        /// The second.
        Two,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Everything {
        /// Who.
        name: String,
        #[schemars(email)]
        email: Option<String>,
        #[schemars(range(min = 1, max = 9))]
        count: u8,
        ratio: f64,
        yes: bool,
        plain: Plain,
        titled: Option<Titled>,
        many: Vec<Plain>,
        titled_many: Option<Vec<Titled>>,
    }

    #[test]
    fn every_allowed_shape_becomes_a_flat_form() {
        let form = form_schema::<Everything>().unwrap();
        let fields = &form["properties"];
        assert_eq!(fields["name"], json!({"type": "string", "description": "Who."}));
        assert_eq!(fields["email"], json!({"type": "string", "format": "email"}));
        assert_eq!(fields["count"], json!({"type": "integer", "minimum": 1, "maximum": 9}));
        assert_eq!(fields["ratio"], json!({"type": "number"}));
        assert_eq!(fields["yes"], json!({"type": "boolean"}));
        assert_eq!(fields["plain"], json!({"type": "string", "enum": ["one", "two"]}));
        assert_eq!(
            fields["titled"],
            json!({"type": "string", "oneOf": [{"const": "one", "title": "First"}, {"const": "two", "title": "The second."}]})
        );
        assert_eq!(fields["many"], json!({"type": "array", "items": {"type": "string", "enum": ["one", "two"]}}));
        assert_eq!(
            fields["titled_many"]["items"],
            json!({"anyOf": [{"const": "one", "title": "First"}, {"const": "two", "title": "The second."}]})
        );
        assert_eq!(form["required"], json!(["name", "count", "ratio", "yes", "plain", "many"]));
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Inner {
        a: String,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Nested {
        inner: Inner,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Numbers {
        list: Vec<u32>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    enum Data {
        Text(String),
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct WithData {
        data: Data,
    }

    #[test]
    fn shapes_outside_elicitation_are_refused_naming_the_field() {
        let nested = form_schema::<Nested>().unwrap_err();
        assert_eq!(nested.field.as_deref(), Some("inner"));
        assert!(nested.to_string().starts_with("`Nested` cannot be an elicitation form: field `inner`: "), "{nested}");
        assert_eq!(form_schema::<Numbers>().unwrap_err().field.as_deref(), Some("list"));
        assert_eq!(form_schema::<WithData>().unwrap_err().field.as_deref(), Some("data"));
        assert!(form_schema::<String>().unwrap_err().field.is_none());
    }
}
