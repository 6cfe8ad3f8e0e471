use codeagent::prelude::*;

/// A tool of this test.
#[tool(blocking)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
