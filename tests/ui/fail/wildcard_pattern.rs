use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    _: i64,
) -> i64 {
    a
}

fn main() {}
