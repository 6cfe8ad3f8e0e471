//! `#[toolbox]` on an impl block: sync and async `&self` methods share the value.
use std::sync::atomic::{AtomicU64, Ordering};

use codeagent::prelude::*;
use serde_json::json;

struct Counter {
    hits: AtomicU64,
}

#[toolbox]
impl Counter {
    /// Count a hit.
    #[tool(name = "hit", idempotent = false)]
    fn hit(
        &self,
        /// How many hits to count (default 1).
        by: Option<u64>,
    ) -> u64 {
        let by = by.unwrap_or(1);
        self.hits.fetch_add(by, Ordering::SeqCst) + by
    }

    /// Read the count.
    #[codeagent::tool(read_only)]
    async fn read(&self, ctx: &Context) -> String {
        ctx.debug("reading");
        self.hits.load(Ordering::SeqCst).to_string()
    }

    /// Not a tool: a plain helper stays a plain method.
    fn reset(&self) {
        self.hits.store(0, Ordering::SeqCst);
    }
}

#[tokio::main]
async fn main() {
    let counter = std::sync::Arc::new(Counter { hits: AtomicU64::new(0) });
    assert_eq!(counter.hit(Some(2)), 2);
    counter.reset();
    let toolbox = Toolbox::new().tool_set(std::sync::Arc::clone(&counter));
    assert_eq!(toolbox.tools().names(), ["hit", "read"]);
    assert_eq!(toolbox.tools().call("hit", json!({"by": 2})).await.unwrap().value(), "2");
    assert_eq!(toolbox.tools().call("hit", None).await.unwrap().value(), "3");
    assert_eq!(toolbox.tools().call("read", None).await.unwrap().value(), "3");
    assert_eq!(counter.read(&Context::detached()).await, "3");
    let read = toolbox.tools().definition("read").unwrap();
    assert_eq!(read.annotations.unwrap().read_only_hint, Some(true));
    assert_eq!(read.input_schema["properties"], json!({}));
}
