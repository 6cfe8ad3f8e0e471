use codeagent::prelude::*;

struct Calculator<T>(T);

#[toolbox]
impl<T: Send + Sync + 'static> Calculator<T> {
    /// A tool of this test.
    #[tool]
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

fn main() {}
