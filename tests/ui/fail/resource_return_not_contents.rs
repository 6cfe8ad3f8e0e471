use codeagent::prelude::*;

#[resource(uri = "file:///count")]
fn count() -> u32 {
    3
}

fn main() {}
