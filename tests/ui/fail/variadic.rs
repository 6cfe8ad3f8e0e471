use codeagent::prelude::*;

#[tool]
unsafe extern "C" fn sum(count: i32, ...) -> i32 {
    count
}

fn main() {}
