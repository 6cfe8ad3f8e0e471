use codeagent::prelude::*;

/// A tool of this test.
#[tool]
fn log(
    /// The message to log.
    message: String,
    ctx: &mut Context,
) {
    ctx.info(message);
}

fn main() {}
