//! The expansion uses absolute paths: local items named like std's or serde's do not break it.
#![allow(dead_code)]

use codeagent::prelude::*;
use serde_json::json;

struct Option;
struct Result;
struct Box;
struct Vec;
struct Arc;
struct Pin;
struct OnceLock;
trait Future {}
trait Send {}
trait Deref {}
mod serde {}
mod schemars {}
mod core {}
mod std {}

/// Add.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Greet.
#[tool]
async fn greet(
    /// The name of the person to greet.
    name: String,
    ctx: &Context,
) -> String {
    ctx.info("hi");
    name
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().tool(add).tool(greet);
    assert_eq!(toolbox.tools().call("add", json!({"a": 1, "b": 2})).await.unwrap().value(), "3");
    assert_eq!(toolbox.tools().call("greet", json!({"name": "x"})).await.unwrap().value(), "x");
}
