use codeagent::prelude::*;

struct Units;

/// Convert a length.
#[tool(read_only)]
fn convert(
    ctx: &Context,
    value: f64,
    /// The unit `value` is in: "m", "ft" or "in".
    from: String,
    to: String,
    units: State<Units>,
) -> f64 {
    let _ = (ctx, from, to, units);
    value
}

/// Look a word up.
#[tool]
fn define(word: String) -> String {
    word
}

struct Calculator;

#[toolbox]
impl Calculator {
    /// Multiply two integers.
    #[tool]
    fn times(&self, a: i64, ctx: Context, b: i64, c: i64) -> i64 {
        let _ = ctx;
        a * b * c
    }
}

fn main() {
    let _ = Toolbox::new().tool(convert).tool(define).tool_set(std::sync::Arc::new(Calculator));
}
