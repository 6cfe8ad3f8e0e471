use codeagent::prelude::*;

#[resource(name = "notes")]
fn notes() -> String {
    String::new()
}

fn main() {}
