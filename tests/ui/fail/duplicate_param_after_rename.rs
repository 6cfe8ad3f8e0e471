use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    #[serde(rename = "a")] b: i64,
) -> i64 {
    a + b
}

fn main() {}
