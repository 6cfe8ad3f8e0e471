use codeagent::prelude::*;

/// A quick sync tool that runs on the async worker.
#[tool(inline)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// `inline = false` keeps the blocking pool.
#[tool(inline = false)]
fn double(
    /// The number to double.
    value: i64,
) -> i64 {
    value * 2
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    assert_eq!(add(2, 3), 5);
    let toolbox = Toolbox::new().tool(add).tool(double);
    let result = toolbox.tools().call("add", serde_json::json!({"a": 2, "b": 3})).await.unwrap();
    assert_eq!(result.value(), "5");
    let result = toolbox.tools().call("double", serde_json::json!({"value": 4})).await.unwrap();
    assert_eq!(result.value(), "8");
}
