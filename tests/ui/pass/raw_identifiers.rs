//! Raw identifiers are unrawed: `r#type` is the tool `type` with the argument `type`.
use codeagent::prelude::*;
use serde_json::json;

/// Echo a type.
#[tool]
fn r#type(
    /// The text to echo.
    r#type: String,
    /// Whether to end the echo with "!".
    r#match: Option<bool>,
) -> String {
    format!("{type}{}", if r#match.unwrap_or(false) { "!" } else { "" }, type = r#type)
}

struct Keywords;

#[toolbox]
impl Keywords {
    /// A method named like a keyword.
    #[tool]
    fn r#loop(
        &self,
        /// The byte to return.
        r#in: u8,
    ) -> u8 {
        r#in
    }
}

#[tokio::main]
async fn main() {
    assert_eq!(r#type("x".to_owned(), None), "x");
    let toolbox = Toolbox::new().tool(r#type).tool_set(Keywords);
    assert_eq!(toolbox.tools().names(), ["type", "loop"]);
    let schema = toolbox.tools().definition("type").unwrap().input_schema;
    assert_eq!(schema["required"], json!(["type"]));
    assert!(schema["properties"].get("match").is_some());
    let result = toolbox.tools().call("type", json!({"type": "y", "match": true})).await.unwrap();
    assert_eq!(result.value(), "y!");
    assert_eq!(toolbox.tools().call("loop", json!({"in": 7})).await.unwrap().value(), "7");
}
