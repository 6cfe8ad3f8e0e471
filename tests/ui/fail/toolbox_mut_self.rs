use codeagent::prelude::*;

struct Counter {
    hits: u64,
}

#[toolbox]
impl Counter {
    /// A tool of this test.
    #[tool]
    fn hit(&mut self) -> u64 {
        self.hits += 1;
        self.hits
    }
}

fn main() {}
