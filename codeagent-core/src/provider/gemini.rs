//! Gemini function declarations.

use serde_json::{Value, json};

use super::remove_key;

/// Why Gemini has no strict form.
pub(super) const NO_STRICT: &str = "Gemini function declarations have no strict mode \
    (constrain calls with the request's toolConfig.functionCallingConfig.mode = VALIDATED instead)";

/// One function declaration: `{"name", "description", "parametersJsonSchema"}`.
pub(super) fn declaration(name: &str, description: &str, parameters: Value) -> Value {
    json!({"name": name, "description": description, "parametersJsonSchema": parameters})
}

/// The one tool holding every declaration.
pub(super) fn tool(declarations: Vec<Value>) -> Value {
    json!({"functionDeclarations": declarations})
}

/// The schema as `parametersJsonSchema` takes it, from one with its
/// references inlined as [`client_compatible`](crate::toolbox::client_compatible)
/// does: no `$schema`, definitions at the root only (left by recursive types,
/// referred to by JSON pointer), and nothing beside a `$ref` but
/// `description`.
pub(super) fn parameters(mut schema: Value) -> Value {
    if let Some(root) = schema.as_object_mut() {
        remove_key(root, "$schema");
    }
    bare_references(&mut schema);
    schema
}

fn bare_references(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("$ref") {
                map.retain(|key, _| key == "$ref" || key == "description");
            }
            map.values_mut().for_each(bare_references);
        }
        Value::Array(items) => items.iter_mut().for_each(bare_references),
        _ => {}
    }
}
