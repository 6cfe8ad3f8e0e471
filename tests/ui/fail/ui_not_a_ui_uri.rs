use codeagent::prelude::*;

/// A chart in a view that is not an MCP Apps resource.
#[tool(ui = "https://example.com/chart.html")]
fn chart() -> Table {
    Table::new()
}

/// A view named by something that is neither a flag nor a URI.
#[tool(ui = 3)]
fn code() -> Code {
    Code::new("x")
}

fn main() {}
