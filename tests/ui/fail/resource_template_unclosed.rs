use codeagent::prelude::*;

#[resource(uri = "users://{id/profile")]
fn profile(id: String) -> String {
    id
}

fn main() {}
