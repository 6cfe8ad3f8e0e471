//! No parameters and no return type: an empty object schema, an empty text result.
use std::sync::atomic::{AtomicUsize, Ordering};

use codeagent::prelude::*;

static PINGS: AtomicUsize = AtomicUsize::new(0);

/// Count a ping.
#[tool]
fn ping() {
    PINGS.fetch_add(1, Ordering::SeqCst);
}

#[tokio::main]
async fn main() {
    ping();
    let toolbox = Toolbox::new().tool(ping);
    let definition = toolbox.tools().definition("ping").unwrap();
    assert_eq!(definition.input_schema["type"], "object");
    assert_eq!(definition.input_schema["properties"], serde_json::json!({}));
    let result = toolbox.tools().call("ping", None).await.unwrap();
    assert!(!result.is_error());
    assert_eq!(result.value(), "");
    assert_eq!(PINGS.load(Ordering::SeqCst), 2);
}
