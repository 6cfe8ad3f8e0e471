use codeagent::prelude::*;

#[resource(uri = "users://{id}/profile")]
fn profile<T: std::str::FromStr>(id: T) -> String {
    let _ = id;
    String::new()
}

fn main() {}
