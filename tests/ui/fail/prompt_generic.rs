use codeagent::prelude::*;

#[prompt]
fn review<S: Into<String>>(path: String) -> String {
    path
}

fn main() {}
