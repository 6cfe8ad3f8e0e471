//! `crate = "..."` points the expansion at a re-export of codeagent.
mod my {
    pub use codeagent;
}

use my::codeagent::prelude::{Context, Toolbox};
use my::codeagent::{tool, toolbox};
use serde_json::json;

/// Add.
#[tool(crate = "my::codeagent")]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Greet.
#[tool(crate = "::codeagent")]
async fn greet(
    /// The name of the person to greet.
    name: String,
    ctx: &Context,
) -> String {
    ctx.info("greeting");
    format!("Hello, {name}")
}

struct Calculator;

#[toolbox(crate = "my::codeagent")]
impl Calculator {
    /// Multiply.
    #[tool]
    fn mul(
        &self,
        /// The multiplicand.
        a: i64,
        /// The multiplier.
        b: i64,
    ) -> i64 {
        a * b
    }
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().tool(add).tool(greet).tool_set(Calculator);
    assert_eq!(toolbox.tools().call("add", json!({"a": 1, "b": 2})).await.unwrap().value(), "3");
    assert_eq!(toolbox.tools().call("greet", json!({"name": "Ada"})).await.unwrap().value(), "Hello, Ada");
    assert_eq!(toolbox.tools().call("mul", json!({"a": 3, "b": 4})).await.unwrap().value(), "12");
    assert_eq!(add(1, 1), 2);
}
