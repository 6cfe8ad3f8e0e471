use std::cell::Cell;

use codeagent::prelude::*;

struct Hits {
    count: Cell<u64>,
}

#[tool]
fn hit(hits: State<Hits>) -> u64 {
    hits.count.get()
}

fn main() {}
