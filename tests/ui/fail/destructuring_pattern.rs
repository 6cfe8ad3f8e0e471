use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn add((a, b): (i64, i64)) -> i64 {
    a + b
}

fn main() {}
