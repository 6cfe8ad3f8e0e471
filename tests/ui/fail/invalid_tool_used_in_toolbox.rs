// A tool with an error is still a `Tool` and still callable: the only error
// is the one in the attribute, not a cascade at every place that uses it.
use codeagent::prelude::*;

/// A tool of this test.
#[tool(name = "add numbers")]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

fn main() {
    let toolbox = Toolbox::new().tool(add);
    assert_eq!(add(2, 3), 5);
    drop(toolbox);
}
