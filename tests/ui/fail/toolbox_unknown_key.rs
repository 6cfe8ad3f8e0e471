use codeagent::prelude::*;

struct Calculator;

#[toolbox(name = "calc")]
impl Calculator {
    /// A tool of this test.
    #[tool]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {}
