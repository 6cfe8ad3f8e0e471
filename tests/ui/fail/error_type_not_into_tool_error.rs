use codeagent::prelude::*;

struct Oops;

#[tool]
fn risky() -> Result<String, Oops> {
    Err(Oops)
}

fn main() {}
