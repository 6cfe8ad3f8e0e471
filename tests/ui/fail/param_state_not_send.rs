use std::cell::Cell;

use codeagent::prelude::*;

struct Hits {
    count: Cell<u64>,
}

/// A tool of this test.
#[tool]
fn hit(hits: State<Hits>) -> u64 {
    hits.count.get()
}

fn main() {}
