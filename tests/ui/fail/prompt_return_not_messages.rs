use codeagent::prelude::*;

#[prompt]
fn review(path: String) -> u32 {
    path.len() as u32
}

fn main() {}
