//! `State<T>` is injected from `Toolbox::with_state`, recognised by type, also through an alias.
use std::sync::atomic::{AtomicU64, Ordering};

use codeagent::prelude::*;
use serde_json::json;

struct Counter {
    hits: AtomicU64,
}

type Shared = State<Counter>;

/// Count.
#[tool]
fn count(
    /// How many to add to the count.
    by: u64,
    counter: State<Counter>,
) -> u64 {
    counter.hits.fetch_add(by, Ordering::SeqCst) + by
}

/// Read the count.
#[tool]
async fn total(
    /// The shared counter (an alias of `State<Counter>`: injected, so this text is not in the schema).
    counter: Shared,
) -> u64 {
    counter.hits.load(Ordering::SeqCst)
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().tool(count).tool(total).with_state(Counter { hits: AtomicU64::new(0) });
    assert_eq!(toolbox.tools().definition("total").unwrap().input_schema["properties"], json!({}));
    assert_eq!(toolbox.tools().call("count", json!({"by": 2})).await.unwrap().value(), "2");
    assert_eq!(toolbox.tools().call("count", json!({"by": 3})).await.unwrap().value(), "5");
    assert_eq!(toolbox.tools().call("total", None).await.unwrap().value(), "5");
    let direct = State(std::sync::Arc::new(Counter { hits: AtomicU64::new(1) }));
    assert_eq!(count(1, direct), 2);
}
