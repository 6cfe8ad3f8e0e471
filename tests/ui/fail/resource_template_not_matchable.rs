use codeagent::prelude::*;

#[resource(uri = "users://{id*}")]
fn profile(id: String) -> String {
    id
}

fn main() {}
