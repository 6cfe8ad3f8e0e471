use codeagent::prelude::*;

#[tool(read_only)]
fn add(a: i64, b: i64) -> i64 {
    a + b
}

struct Calculator;

#[toolbox]
impl Calculator {
    #[tool]
    fn times(&self, a: i64, b: i64) -> i64 {
        a * b
    }
}

fn main() {
    let _ = Toolbox::new().tool(add).tool_set(std::sync::Arc::new(Calculator));
}
