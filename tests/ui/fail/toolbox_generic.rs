use codeagent::prelude::*;

struct Calculator<T>(T);

#[toolbox]
impl<T: Send + Sync + 'static> Calculator<T> {
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
