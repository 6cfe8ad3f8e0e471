use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn echo<T: ToString>(
    /// The value to echo.
    value: T,
) -> String {
    value.to_string()
}

fn main() {}
