use codeagent::prelude::*;

#[resource(uri = "users://{id}/profile")]
fn profile((id, _): (String, String)) -> String {
    id
}

fn main() {}
