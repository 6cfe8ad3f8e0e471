use codeagent::prelude::*;

/// A tool of this test.
#[tool(name = "a_tool_name_that_is_far_too_long_for_any_mcp_client_to_accept_it_at_all")]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

fn main() {}
