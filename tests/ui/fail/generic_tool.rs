use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn echo<T: ToString>(value: T) -> String {
    value.to_string()
}

fn main() {}
