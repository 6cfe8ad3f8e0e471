use std::rc::Rc;

use codeagent::prelude::*;

async fn tick() {}

#[tool]
async fn count() -> usize {
    let shared = Rc::new(1);
    tick().await;
    *shared
}

fn main() {}
