use codeagent::prelude::*;

#[tool]
fn echo<T: ToString>(value: T) -> String {
    value.to_string()
}

fn main() {}
