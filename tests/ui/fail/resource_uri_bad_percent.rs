use codeagent::prelude::*;

#[resource(uri = "file:///notes%zz.txt")]
fn notes() -> String {
    String::new()
}

fn main() {}
