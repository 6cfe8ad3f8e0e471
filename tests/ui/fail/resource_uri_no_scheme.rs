use codeagent::prelude::*;

#[resource(uri = "notes.txt")]
fn notes() -> String {
    String::new()
}

fn main() {}
