//! Anthropic Messages tools.

use serde_json::{Value, json};

/// A custom tool: `{"name", "description", "input_schema"}`, with
/// `"strict": true` in strict form (Anthropic's "strict tool use").
pub(super) fn tool(name: &str, description: &str, input_schema: Value, strict: bool) -> Value {
    let mut tool = json!({"name": name, "description": description, "input_schema": input_schema});
    if strict {
        tool["strict"] = Value::Bool(true);
    }
    tool
}
