use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {}
