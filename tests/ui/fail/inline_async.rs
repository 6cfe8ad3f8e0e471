use codeagent::prelude::*;

/// Async tools already run on the async workers.
#[tool(inline)]
async fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

fn main() {
    let _ = Toolbox::new().tool(add);
}
