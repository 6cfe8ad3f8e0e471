use codeagent::prelude::*;

/// A tool of this test.
#[tool(title = "Add", title = "Sum")]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

fn main() {}
