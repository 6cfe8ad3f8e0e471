use codeagent::prelude::*;

#[resource(uri = "users://{id}/profile")]
fn profile(id: u32, verbose: bool) -> String {
    format!("{id} {verbose}")
}

fn main() {}
