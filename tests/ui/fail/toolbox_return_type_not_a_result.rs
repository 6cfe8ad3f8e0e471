use codeagent::prelude::*;

struct Calculator;

struct Report;

#[toolbox]
impl Calculator {
    #[tool]
    fn report(&self) -> Report {
        Report
    }
}

fn main() {}
