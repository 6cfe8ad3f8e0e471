use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn add(
    /// The first addend.
    #[arg(default)] a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

fn main() {}
