//! Middleware (`Server::with_middleware`, `around`, `around_calls`): what a
//! client notices of it, in both eras and over stdio and Streamable HTTP.
//!
//! Each case is an `async fn(Transport)` run once per transport, as in the
//! behaviour suite, by [`over_both!`]. The client validates every message it
//! receives against the official schema of its era, so a middleware that
//! answers instead of the handler still answers in the right shape.
//!
//! With `--features rate-limit`, the per-caller rate limit (`rate`); with
//! `--features otel`, the OpenTelemetry export to an OTLP/HTTP receiver
//! (`otel`, once a test binary of its own): `.ci/run` runs this binary with
//! both.

#[path = "../common/mod.rs"]
#[macro_use]
mod common;

mod headers;
mod limits;
mod log;
#[cfg(feature = "otel")]
mod otel;
#[cfg(feature = "rate-limit")]
mod rate;
mod scopes;
mod shaping;

use codeagent::server::middleware::Caller;
use codeagent::{Context, Server};
use serde_json::{Value, json};

use common::client::SERVER_NAME;
use common::tools::all_tools;

/// Who the tool was told the caller is (`Context::caller`), or `nobody`.
#[codeagent::tool(inline)]
fn whoami(ctx: &Context) -> String {
    ctx.caller().map_or_else(|| "nobody".to_owned(), |caller| caller.subject().to_owned())
}

/// The behaviour server, with [`whoami`] too.
fn server() -> Server {
    Server::new(all_tools().tool(whoami)).with_name(SERVER_NAME).with_version("1.0.0")
}

/// `{name, arguments}` of a `tools/call`.
fn call(name: &str, arguments: Value) -> Value {
    json!({"name": name, "arguments": arguments})
}

/// `params` with the `_meta` every 2026-07-28 request carries, naming the
/// client `client`.
fn modern_as(client: &str, mut params: Value) -> Value {
    use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY};
    let meta = params.as_object_mut().expect("params object").entry("_meta").or_insert_with(|| json!({}));
    meta.as_object_mut().expect("a _meta object").extend([
        (PROTOCOL_VERSION_KEY.to_owned(), json!("2026-07-28")),
        (CLIENT_CAPABILITIES_KEY.to_owned(), json!({})),
        (CLIENT_INFO_KEY.to_owned(), json!({"name": client, "version": "1.0.0"})),
    ]);
    params
}

/// [`modern_as`] the behaviour tests' client.
fn modern(params: Value) -> Value {
    modern_as("behaviour-tests", params)
}

/// The text of a tool result's first content block.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content in {result}"))
}

fn tool_names(list: &Value) -> Vec<&str> {
    list["tools"].as_array().expect("tools").iter().map(|tool| tool["name"].as_str().expect("a name")).collect()
}

/// A middleware naming the caller after the client (`clientInfo.name`),
/// standing in for an authorisation layer.
fn caller_from_client_name(server: Server) -> Server {
    server.around(|mut request, next| async move {
        if let Some(name) = request.client_name().map(str::to_owned) {
            request.set_caller(Caller::new(name));
        }
        next.run(request).await
    })
}
