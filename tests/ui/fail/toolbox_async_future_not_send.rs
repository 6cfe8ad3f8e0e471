use std::rc::Rc;

use codeagent::prelude::*;

struct Counter;

async fn tick() {}

#[toolbox]
impl Counter {
    /// A tool of this test.
    #[tool]
    async fn count(&self) -> usize {
        let shared = Rc::new(1);
        tick().await;
        *shared
    }
}

fn main() {}
