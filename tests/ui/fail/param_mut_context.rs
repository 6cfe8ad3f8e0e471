use codeagent::prelude::*;

#[tool]
fn log(message: String, ctx: &mut Context) {
    ctx.info(message);
}

fn main() {}
