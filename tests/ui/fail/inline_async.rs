use codeagent::prelude::*;

/// Async tools already run on the async workers.
#[tool(inline)]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {
    let _ = Toolbox::new().tool(add);
}
