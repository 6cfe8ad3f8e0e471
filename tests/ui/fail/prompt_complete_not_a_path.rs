use codeagent::prelude::*;

#[prompt]
fn review(#[complete = "files"] path: String) -> String {
    path
}

fn main() {}
