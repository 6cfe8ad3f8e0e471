use codeagent::prelude::*;

#[tool]
fn greet() -> impl IntoToolResult {
    "hello"
}

fn main() {}
