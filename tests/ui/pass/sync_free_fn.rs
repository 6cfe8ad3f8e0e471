//! A sync free function: a tool, and still a function.
use codeagent::prelude::*;
use serde_json::json;

/// Add two numbers.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

#[tokio::main]
async fn main() {
    assert_eq!(add(2, 3), 5);
    let toolbox = Toolbox::new().tool(add);
    let result = toolbox.tools().call("add", json!({"a": 2, "b": 3})).await.unwrap();
    assert!(!result.is_error());
    assert_eq!(result.value(), "5");
}
