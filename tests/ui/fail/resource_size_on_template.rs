use codeagent::prelude::*;

#[resource(uri = "users://{id}/profile", size = 10)]
fn profile(id: String) -> String {
    id
}

fn main() {}
