//! `Json<T>`: structured output with an output schema from `T`.
use codeagent::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

#[derive(Serialize, JsonSchema)]
struct Stats {
    count: u32,
    mean: f64,
}

/// Summarise numbers.
#[tool]
fn stats(
    /// The numbers to summarise.
    values: Vec<f64>,
) -> Json<Stats> {
    let count = u32::try_from(values.len()).unwrap();
    Json(Stats { count, mean: values.iter().sum::<f64>() / f64::from(count.max(1)) })
}

#[tokio::main]
async fn main() {
    assert_eq!(stats(vec![1.0, 3.0]).0.count, 2);
    let toolbox = Toolbox::new().tool(stats);
    let schema = toolbox.tools().definition("stats").unwrap().output_schema.unwrap();
    assert_eq!(schema["properties"]["count"]["type"], "integer");
    let result = toolbox.tools().call("stats", json!({"values": [1, 3]})).await.unwrap();
    assert_eq!(result.value(), r#"{"count":2,"mean":2.0}"#);
}
