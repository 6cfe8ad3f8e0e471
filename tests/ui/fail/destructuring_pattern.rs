use codeagent::prelude::*;

#[tool]
fn add((a, b): (i64, i64)) -> i64 {
    a + b
}

fn main() {}
