use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn shout(text: impl Into<String>) -> String {
    text.into().to_uppercase()
}

fn main() {}
