use codeagent::prelude::*;

#[resource(uri = "users://{id}/posts/{post}")]
fn post(id: u32) -> String {
    id.to_string()
}

fn main() {}
