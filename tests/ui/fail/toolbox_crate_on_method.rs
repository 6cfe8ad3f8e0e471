use codeagent::prelude::*;

struct Calculator;

#[toolbox]
impl Calculator {
    /// A tool of this test.
    #[tool(crate = "::codeagent")]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {}
