//! `#[serde(...)]` and `#[schemars(...)]` on parameters reach the argument's field.
use codeagent::prelude::*;
use serde_json::json;

fn default_limit() -> u32 {
    10
}

/// Search.
#[tool]
fn search(
    /// What to look for.
    #[serde(rename = "q")]
    query: String,
    /// How many results.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 100))]
    limit: u32,
    /// Match the whole word only.
    #[serde(default)]
    exact: bool,
    /// Only results with all of these tags.
    #[schemars(length(min = 2))]
    tags: Option<Vec<String>>,
) -> String {
    format!("{query} {limit} {exact} {}", tags.map_or(0, |tags| tags.len()))
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().tool(search);
    let schema = toolbox.tools().definition("search").unwrap().input_schema;
    assert_eq!(schema["properties"]["q"]["description"], "What to look for.");
    assert_eq!(schema["properties"]["limit"]["minimum"], 1);
    assert_eq!(schema["properties"]["limit"]["default"], 10);
    assert_eq!(schema["required"], json!(["q"]));
    let result = toolbox.tools().call("search", json!({"q": "x"})).await.unwrap();
    assert_eq!(result.value(), "x 10 false 0");
    let low = toolbox.tools().call("search", json!({"q": "x", "limit": 0})).await.unwrap();
    assert!(low.is_error());
    let short = toolbox.tools().call("search", json!({"q": "x", "tags": ["a"]})).await.unwrap();
    assert!(short.is_error());
    assert_eq!(search("y".to_owned(), 3, true, None), "y 3 true 0");
}
