use codeagent::prelude::*;

#[tool]
fn shout(text: &str) -> String {
    text.to_uppercase()
}

fn main() {}
