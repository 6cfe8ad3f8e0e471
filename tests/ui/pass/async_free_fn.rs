//! An async free function: a tool, and still an async function.
use codeagent::prelude::*;
use serde_json::json;

/// Greet someone.
#[tool]
async fn greet(
    /// The name of the person to greet.
    name: String,
) -> String {
    tokio::task::yield_now().await;
    format!("Hello, {name}!")
}

#[tokio::main]
async fn main() {
    assert_eq!(greet("Ada".to_owned()).await, "Hello, Ada!");
    let toolbox = Toolbox::new().tool(greet);
    let result = toolbox.tools().call("greet", json!({"name": "Bob"})).await.unwrap();
    assert_eq!(result.value(), "Hello, Bob!");
}
