use codeagent::prelude::*;

struct Calculator;

#[toolbox]
impl Calculator {
    #[tool(name = "sum")]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }

    #[tool(name = "sum")]
    fn plus(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {}
