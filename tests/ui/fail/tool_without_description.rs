use codeagent::prelude::*;

#[tool(read_only)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

struct Calculator;

#[toolbox]
impl Calculator {
    #[tool]
    fn times(
        &self,
        /// The multiplicand.
        a: i64,
        /// The multiplier.
        b: i64,
    ) -> i64 {
        a * b
    }
}

fn main() {
    let _ = Toolbox::new().tool(add).tool_set(std::sync::Arc::new(Calculator));
}
