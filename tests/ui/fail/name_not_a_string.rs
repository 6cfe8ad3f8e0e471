use codeagent::prelude::*;

#[tool(name = add)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn main() {}
