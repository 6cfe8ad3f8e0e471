//! `Context` is injected by type, by reference or by value, and is not an argument.
use codeagent::prelude::*;
use serde_json::json;

/// By reference.
#[tool]
fn by_ref(
    /// The text to echo.
    text: String,
    ctx: &Context,
) -> String {
    ctx.info("by reference");
    format!("{text}: {}", ctx.is_cancelled())
}

/// By value, in an async tool, first.
#[tool]
async fn by_value(
    ctx: Context,
    /// The text to echo.
    text: String,
) -> String {
    ctx.info("by value");
    format!("{text}: {}", ctx.is_cancelled())
}

/// With an explicit elided lifetime.
#[tool]
async fn by_ref_async(ctx: &'_ Context) -> bool {
    ctx.is_cancelled()
}

#[tokio::main]
async fn main() {
    let ctx = Context::detached();
    assert_eq!(by_ref("a".to_owned(), &ctx), "a: false");
    assert_eq!(by_value(ctx.clone(), "b".to_owned()).await, "b: false");
    assert!(!by_ref_async(&ctx).await);
    let toolbox = Toolbox::new().tool(by_ref).tool(by_value).tool(by_ref_async);
    for name in ["by_ref", "by_value"] {
        let schema = toolbox.tools().definition(name).unwrap().input_schema;
        assert_eq!(schema["properties"], json!({"text": {"description": "The text to echo.", "type": "string"}}), "{name}");
        assert_eq!(schema["required"], json!(["text"]), "{name}");
        let result = toolbox.tools().call(name, json!({"text": "x"})).await.unwrap();
        assert_eq!(result.value(), "x: false");
    }
    assert_eq!(toolbox.tools().call("by_ref_async", None).await.unwrap().value(), "false");
}
