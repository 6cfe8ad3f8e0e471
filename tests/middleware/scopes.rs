//! Per-item scopes hold wherever a caller is known, however the request
//! arrives (issue #34): a middleware stands in for the authorisation layer
//! here (a caller named after the client, with its scopes), and a scoped
//! tool, resource and prompt are refused without the scope and served with
//! it, alone and inside a 2025-03-26 batch, in both eras, over stdio and
//! Streamable HTTP.

use codeagent::Server;
use codeagent::prelude::*;
use codeagent::server::jsonrpc::INVALID_REQUEST;
use codeagent::server::middleware::Caller;
use serde_json::{Value, json};

use crate::common::client::{Client, SERVER_NAME, Transport};

over_both!(scopes_hold_alone_and_in_a_batch);

/// Deletes a region's records: needs `sales:write`.
#[tool(inline, destructive, scopes = ["sales:write"])]
fn delete_region(
    /// The region whose records to delete, such as "eu-west".
    region: String,
) -> String {
    format!("deleted {region}")
}

/// The ledger: reading it needs `sales:write`.
#[resource(uri = "sales://ledger", mime_type = "text/plain", scopes = ["sales:write"])]
fn ledger() -> String {
    "north 1200".to_owned()
}

/// A prompt to plan deletions: needs `sales:write`.
#[prompt(scopes = ["sales:write"])]
fn plan_deletion() -> String {
    "Which regions should go?".to_owned()
}

/// A server whose middleware names the caller after the client: `writer`
/// holds `sales:write`, anyone else `sales:read` only.
fn server() -> Server {
    let toolbox = Toolbox::new().tool(delete_region).resource(ledger).prompt(plan_deletion);
    Server::new(toolbox).with_name(SERVER_NAME).with_version("1.0.0").around(|mut request, next| async move {
        if let Some(name) = request.client_name().map(str::to_owned) {
            let scopes = if name == "writer" { vec!["sales:read", "sales:write"] } else { vec!["sales:read"] };
            request.set_caller(Caller::new(name).with_scopes(scopes));
        }
        next.run(request).await
    })
}

/// The scoped requests: what they reach, their method and params.
fn scoped() -> [(&'static str, &'static str, Value); 3] {
    [
        ("a tool", "tools/call", json!({"name": "delete_region", "arguments": {"region": "north"}})),
        ("a resource", "resources/read", json!({"uri": "sales://ledger"})),
        ("a prompt", "prompts/get", json!({"name": "plan_deletion"})),
    ]
}

/// A 2025-03-26 session of the client named `name`.
async fn legacy_client(transport: Transport, name: &str) -> Client {
    let mut client = Client::start(transport, server()).await;
    let info = json!({"name": name, "version": "1.0.0"});
    let params = json!({"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": info});
    client.result(0, "initialize", params).await;
    client.notify("notifications/initialized", json!({})).await;
    client
}

fn assert_forbidden(error: &Value, context: &str) {
    assert_eq!(error["code"], INVALID_REQUEST, "{context}: {error}");
    assert!(error["message"].as_str().is_some_and(|text| text.starts_with("Forbidden")), "{context}: {error}");
    assert_eq!(error["data"]["missingScopes"], json!(["sales:write"]), "{context}: {error}");
}

async fn scopes_hold_alone_and_in_a_batch(transport: Transport) {
    let mut reader = legacy_client(transport, "reader").await;
    let mut writer = legacy_client(transport, "writer").await;
    for (position, (what, method, params)) in scoped().into_iter().enumerate() {
        let id = 10 + position as i64;
        assert_forbidden(&reader.error(id, method, params.clone()).await, &format!("{transport}: {what}, alone"));
        writer.result(id, method, params.clone()).await;

        let batch = json!([
            {"jsonrpc": "2.0", "id": "ping", "method": "ping"},
            {"jsonrpc": "2.0", "id": id, "method": method, "params": params},
        ]);
        reader.send_raw(batch.clone()).await;
        let answers = reader.recv().await;
        let answer = answers.as_array().and_then(|answers| answers.iter().find(|answer| answer["id"] == id));
        let answer = answer.unwrap_or_else(|| panic!("{transport}: {what}: no answer in {answers}"));
        assert_forbidden(&answer["error"], &format!("{transport}: {what}, in a batch"));
        writer.send_raw(batch).await;
        let answers = writer.recv().await;
        let answer = answers.as_array().and_then(|answers| answers.iter().find(|answer| answer["id"] == id));
        assert!(answer.is_some_and(|answer| answer.get("result").is_some()), "{transport}: {what}: {answers}");
    }

    // 2026-07-28: the caller is named after the client the request declares.
    let mut client = Client::start(transport, server()).await;
    for (position, (what, method, params)) in scoped().into_iter().enumerate() {
        let id = 20 + position as i64;
        let error = client.error(id, method, crate::modern_as("reader", params.clone())).await;
        assert_forbidden(&error, &format!("{transport}: {what}, 2026-07-28"));
        client.result(id, method, crate::modern_as("writer", params)).await;
    }
}
