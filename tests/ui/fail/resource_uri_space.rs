use codeagent::prelude::*;

#[resource(uri = "file:///my notes.txt")]
fn notes() -> String {
    String::new()
}

fn main() {}
