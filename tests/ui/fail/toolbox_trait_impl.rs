use codeagent::prelude::*;

struct Calculator;

trait Adds {
    fn add(&self, a: i64, b: i64) -> i64;
}

#[toolbox]
impl Adds for Calculator {
    /// A tool of this test.
    #[tool]
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
