use codeagent::prelude::*;

#[resource(uri = "file:///notes.txt", name = "a", name = "b")]
fn notes() -> String {
    String::new()
}

fn main() {}
