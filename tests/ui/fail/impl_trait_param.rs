use codeagent::prelude::*;

#[tool]
fn shout(text: impl Into<String>) -> String {
    text.into().to_uppercase()
}

fn main() {}
