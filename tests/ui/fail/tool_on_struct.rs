use codeagent::prelude::*;

/// A tool of this test.
#[tool]
struct Add;

fn main() {}
