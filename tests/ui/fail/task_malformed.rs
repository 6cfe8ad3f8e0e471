use codeagent::prelude::*;

/// A task mode given as a value.
#[tool(task = "required")]
async fn valued() -> String {
    String::new()
}

/// A task mode that does not exist.
#[tool(task(sometimes))]
async fn unknown_mode() -> String {
    String::new()
}

/// Optional and required at once.
#[tool(task(optional, required))]
async fn both() -> String {
    String::new()
}

/// `detach` twice.
#[tool(task(detach, detach))]
async fn twice() -> String {
    String::new()
}

fn main() {}
