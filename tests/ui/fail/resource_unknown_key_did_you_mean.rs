use codeagent::prelude::*;

#[resource(uri = "file:///notes.txt", mime_typ = "text/plain")]
fn notes() -> String {
    String::new()
}

fn main() {}
