use codeagent::prelude::*;

#[tool]
fn sum(count: i32, rest: ...) -> i32 {
    count
}

fn main() {}
