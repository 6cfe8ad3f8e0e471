use codeagent::prelude::*;

struct Calculator;

#[toolbox]
impl Calculator {
    /// A tool of this test.
    #[tool(crate = "::codeagent")]
    fn add(
        &self,
        /// The first addend.
        a: i64,
        /// The second addend.
        b: i64,
    ) -> i64 {
        a + b
    }
}

fn main() {}
