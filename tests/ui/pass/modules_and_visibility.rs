//! A `pub` tool in a module is used by path; two tools with the same parameter names coexist.
mod tools {
    use codeagent::prelude::*;

    /// Add.
    #[tool]
    pub fn add(
        /// The first addend.
        a: i64,
        /// The second addend.
        b: i64,
    ) -> i64 {
        a + b
    }

    /// Subtract.
    #[tool]
    pub(crate) fn sub(
        /// The number to subtract from.
        a: i64,
        /// The number to subtract.
        b: i64,
    ) -> i64 {
        a - b
    }

    /// Negate, with a mutable binding.
    #[tool]
    pub async fn neg(
        /// The number to negate.
        mut a: i64,
    ) -> i64 {
        a = -a;
        a
    }
}

use codeagent::prelude::*;
use serde_json::json;

#[tokio::main]
async fn main() {
    assert_eq!(tools::add(1, 2), 3);
    assert_eq!(tools::sub(1, 2), -1);
    assert_eq!(tools::neg(1).await, -1);
    let toolbox = Toolbox::new().tool(tools::add).tool(tools::sub).tool(tools::neg);
    assert_eq!(toolbox.tools().names(), ["add", "sub", "neg"]);
    assert_eq!(toolbox.tools().call("sub", json!({"a": 5, "b": 3})).await.unwrap().value(), "2");
    assert_eq!(toolbox.tools().call("neg", json!({"a": 5})).await.unwrap().value(), "-5");
    let copy = tools::add;
    assert_eq!(format!("{copy:?}"), "add");
}
