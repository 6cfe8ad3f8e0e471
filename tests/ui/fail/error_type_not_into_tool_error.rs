use codeagent::prelude::*;

struct Oops;

/// A tool of this test.
#[tool]
fn risky() -> Result<String, Oops> {
    Err(Oops)
}

fn main() {}
