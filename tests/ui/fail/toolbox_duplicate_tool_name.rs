use codeagent::prelude::*;

struct Calculator;

#[toolbox]
impl Calculator {
    /// A tool of this test.
    #[tool(name = "sum")]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }

    /// A tool of this test.
    #[tool(name = "sum")]
    fn plus(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {}
