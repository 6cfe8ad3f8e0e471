use codeagent::prelude::*;

struct Counter;

impl Counter {
    /// A tool of this test.
    #[tool]
    fn count(&self) -> u64 {
        0
    }
}

fn main() {}
