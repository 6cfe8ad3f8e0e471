use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn greet() -> impl IntoToolResult {
    "hello"
}

fn main() {}
