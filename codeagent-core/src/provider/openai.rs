//! OpenAI function tools: Chat Completions (nested) and Responses (flat).

use serde_json::{Value, json};

/// A Chat Completions tool: `{"type": "function", "function": {...}}`.
pub(super) fn chat_tool(name: &str, description: &str, parameters: Value, strict: bool) -> Value {
    json!({"type": "function", "function": function(name, description, parameters, strict)})
}

/// A Responses function tool: `{"type": "function", "name", ...}`.
pub(super) fn responses_tool(name: &str, description: &str, parameters: Value, strict: bool) -> Value {
    let mut tool = json!({"type": "function"});
    if let (Some(tool), Value::Object(fields)) = (tool.as_object_mut(), function(name, description, parameters, strict))
    {
        tool.extend(fields);
    }
    tool
}

fn function(name: &str, description: &str, parameters: Value, strict: bool) -> Value {
    json!({"name": name, "description": description, "parameters": parameters, "strict": strict})
}
