use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn add(#[arg(default)] a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
