use codeagent::prelude::*;

struct Calculator;

struct Report;

#[toolbox]
impl Calculator {
    /// A tool of this test.
    #[tool]
    fn report(&self) -> Report {
        Report
    }
}

fn main() {}
