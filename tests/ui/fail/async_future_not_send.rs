use std::rc::Rc;

use codeagent::prelude::*;

async fn tick() {}

/// A tool of this test.
#[tool]
async fn count() -> usize {
    let shared = Rc::new(1);
    tick().await;
    *shared
}

fn main() {}
