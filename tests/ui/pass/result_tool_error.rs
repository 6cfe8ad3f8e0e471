//! `Result<T, ToolError>`: `Ok` lowers as `T`, `Err` as an error result.
use codeagent::prelude::*;
use serde_json::json;

/// Divide.
#[tool]
fn divide(
    /// The dividend.
    a: f64,
    /// The divisor (not zero).
    b: f64,
) -> Result<f64, ToolError> {
    if b == 0.0 {
        return Err(ToolError::new("cannot divide by zero"));
    }
    Ok(a / b)
}

#[tokio::main]
async fn main() {
    assert_eq!(divide(6.0, 3.0).unwrap(), 2.0);
    let toolbox = Toolbox::new().tool(divide);
    let ok = toolbox.tools().call("divide", json!({"a": 6.0, "b": 3.0})).await.unwrap();
    assert_eq!((ok.value(), ok.is_error()), ("2", false));
    let err = toolbox.tools().call("divide", json!({"a": 1, "b": 0})).await.unwrap();
    assert_eq!((err.value(), err.is_error()), ("cannot divide by zero", true));
}
