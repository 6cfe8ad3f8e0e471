use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn add(a: i64, #[serde(rename = "a")] b: i64) -> i64 {
    a + b
}

fn main() {}
