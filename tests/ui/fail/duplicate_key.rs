use codeagent::prelude::*;

#[tool(title = "Add", title = "Sum")]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
