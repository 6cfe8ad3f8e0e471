//! scratch
use std::sync::atomic::{AtomicU64, Ordering};

use codeagent::prelude::*;

struct Counter {
    hits: AtomicU64,
}

#[toolbox]
impl Counter {
    /// Count a hit.
    #[tool(name = "hit")]
    fn hit(
        &self,
        /// How many.
        by: Option<u64>,
    ) -> u64 {
        self.hits.fetch_add(by.unwrap_or(1), Ordering::SeqCst) + by.unwrap_or(1)
    }

    /// Read.
    #[tool]
    async fn read(&self, ctx: &Context) -> String {
        let _ = ctx;
        self.hits.load(Ordering::SeqCst).to_string()
    }
}

struct Config {
    greeting: String,
}

/// Greets.
#[tool]
async fn greet(name: String, config: State<Config>, ctx: Context) -> String {
    let _ = ctx;
    format!("{}, {name}", config.greeting)
}

/// r#type tool.
#[tool]
fn r#type(r#type: String) -> String {
    r#type
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let toolbox = Toolbox::new()
        .tools(Counter { hits: AtomicU64::new(0) })
        .tool(greet)
        .tool(r#type)
        .with_state(Config { greeting: "Hello".into() });
    println!("{:?}", toolbox.names());
    println!("{}", toolbox.call("hit", serde_json::json!({"by": 2})).await.unwrap().value());
    println!("{}", toolbox.call("read", None).await.unwrap().value());
    println!("{}", toolbox.call("greet", serde_json::json!({"name": "Ada"})).await.unwrap().value());
    println!("{}", toolbox.call("type", serde_json::json!({"type": "x"})).await.unwrap().value());
    println!(
        "{}",
        greet("Bob".into(), State(std::sync::Arc::new(Config { greeting: "Hi".into() })), Context::detached()).await
    );
    println!("{}", toolbox.list_tools(ProtocolVersion::V2024_11_05, None).unwrap());
}
