//! A parameter named like its function works: inside the function the name is the parameter.
use codeagent::prelude::*;
use serde_json::json;

/// Search.
#[tool]
fn query(
    /// What to search for.
    query: String,
) -> String {
    format!("results for {query}")
}

/// Search, async.
#[tool]
async fn lookup(
    /// The number to look up.
    lookup: u32,
) -> u32 {
    lookup * 2
}

#[tokio::main]
async fn main() {
    assert_eq!(query("rust".to_owned()), "results for rust");
    assert_eq!(lookup(4).await, 8);
    let toolbox = Toolbox::new().tool(query).tool(lookup);
    assert_eq!(toolbox.tools().call("query", json!({"query": "x"})).await.unwrap().value(), "results for x");
    assert_eq!(toolbox.tools().call("lookup", json!({"lookup": 5})).await.unwrap().value(), "10");
}
