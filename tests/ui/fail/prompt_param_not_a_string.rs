use codeagent::prelude::*;

#[prompt]
fn review(path: String, lines: u32) -> String {
    format!("{path} {lines}")
}

fn main() {}
