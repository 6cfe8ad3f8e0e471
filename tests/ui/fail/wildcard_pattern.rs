use codeagent::prelude::*;

#[tool]
fn add(a: i64, _: i64) -> i64 {
    a
}

fn main() {}
