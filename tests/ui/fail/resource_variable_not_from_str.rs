use codeagent::prelude::*;

struct UserId;

#[resource(uri = "users://{id}/profile")]
fn profile(id: UserId) -> String {
    let UserId = id;
    String::new()
}

fn main() {}
