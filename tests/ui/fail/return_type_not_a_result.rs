use codeagent::prelude::*;

struct Report {
    lines: Vec<String>,
}

/// A tool of this test.
#[tool]
fn report() -> Report {
    Report { lines: Vec::new() }
}

fn main() {}
