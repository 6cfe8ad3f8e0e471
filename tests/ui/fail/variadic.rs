use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn sum(
    /// How many numbers follow.
    count: i32,
    rest: ...,
) -> i32 {
    count
}

fn main() {}
