use codeagent::prelude::*;

struct Counter;

impl Counter {
    #[tool]
    fn count(&self) -> u64 {
        0
    }
}

fn main() {}
