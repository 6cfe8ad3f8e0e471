use codeagent::prelude::*;

/// Needs a capability MCP does not define.
#[tool(requires = ["telepathy"])]
fn mind_reader() -> String {
    String::new()
}

fn main() {}
