//! Injection is decided by type, not by name: renamed imports and aliases work.
use codeagent::Context as Ctx;
use codeagent::prelude::{Json, Toolbox};
use codeagent::tool;
use serde_json::json;

type Args = Vec<String>;
type Out = Json<Vec<String>>;

/// Echo.
#[tool]
async fn echo(
    /// The items to echo.
    items: Args,
    context: &Ctx,
) -> Out {
    context.info("echo");
    Json(items)
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().tool(echo);
    let definition = toolbox.tools().definition("echo").unwrap();
    assert_eq!(definition.input_schema["required"], json!(["items"]));
    assert!(definition.input_schema["properties"].get("context").is_none());
    assert_eq!(definition.output_schema.unwrap()["type"], "array");
    let result = toolbox.tools().call("echo", json!({"items": ["a"]})).await.unwrap();
    assert_eq!(result.value(), r#"["a"]"#);
}
