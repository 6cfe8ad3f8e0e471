//! The behaviour suite: what the server does the same over every transport.
//!
//! Each case is an `async fn(Transport)` run once per transport by
//! [`over_both!`], which makes a module per case with one test per transport,
//! so a failure names both: `behaviour::tools::unknown_tool_is_invalid_params::http`.
//! The client ([`crate::common::client::Client`]) speaks either transport and
//! validates everything it receives against the official schema of its era.
//! Transport-specific behaviour (stdio framing, HTTP sessions, headers and
//! status codes) is tested in `tests/stdio/` and `tests/http/`
//! (modules of the same test binary, `tests/server.rs`).

mod apps;
mod asking;
mod batches;
mod budgets;
mod large;
mod lifecycle;
mod notifications;
mod prompts;
mod resources;
#[cfg(feature = "skills")]
mod skills;
mod tasks;
mod tools;

use serde_json::{Value, json};

use crate::common::client::Client;

/// `{name, arguments}` of a `tools/call`.
fn call(name: &str, arguments: Value) -> Value {
    json!({"name": name, "arguments": arguments})
}

/// `params` with the `_meta` every 2026-07-28 request carries (plus any `_meta` keys already in it).
fn modern(params: Value) -> Value {
    modern_with(params, json!({}))
}

/// [`modern`] with the client `capabilities` given.
fn modern_with(mut params: Value, capabilities: Value) -> Value {
    use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY};
    let meta = params.as_object_mut().expect("params object").entry("_meta").or_insert_with(|| json!({}));
    meta.as_object_mut().expect("a _meta object").extend([
        (PROTOCOL_VERSION_KEY.to_owned(), json!("2026-07-28")),
        (CLIENT_CAPABILITIES_KEY.to_owned(), capabilities),
        (CLIENT_INFO_KEY.to_owned(), json!({"name": "behaviour-tests", "version": "1.0.0"})),
    ]);
    params
}

/// The text of a tool result's first content block.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content in {result}"))
}

fn tool_names(list: &Value) -> Vec<&str> {
    list["tools"].as_array().expect("tools").iter().map(|tool| tool["name"].as_str().expect("a name")).collect()
}

/// A ping, answered: the server read everything sent before it.
async fn sync(client: &mut Client) {
    assert_eq!(client.result("sync", "ping", json!({})).await, json!({}));
}
