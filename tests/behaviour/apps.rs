//! The MCP Apps extension: a client that declares it (at `initialize`, or per
//! request in 2026-07-28) sees the extension advertised, `_meta.ui` on each
//! tool with a view and the built-in view among the resources; a client that
//! does not sees exactly what it saw before. The extension needs `_meta` on
//! tools, so a client of 2024-11-05 or 2025-03-26 is not offered it.

use codeagent::resources::ResourceSpec;
use codeagent::{Code, Diff, Json, Server, Table, Text, Toolbox};
use serde_json::{Value, json};

use super::{modern, modern_with, tool_names};
use crate::common::client::{Client, Transport};
use crate::common::{LEGACY, V2024, V2025_03, V2025_06, V2025_11};

over_both!(
    a_declaring_client_sees_views_from_2025_06_18,
    a_declaring_client_of_a_version_without_meta_is_not_offered_views,
    a_client_that_does_not_declare_sees_no_trace_of_the_extension,
    the_built_in_view_is_one_html_document,
    a_modern_request_declares_the_extension_for_itself,
    a_declaration_without_the_html_type_is_no_declaration,
);

const VIEW: &str = "ui://codeagent/artifact";

/// A table of one row.
#[codeagent::tool(read_only)]
fn report() -> Table {
    Table::new().with_column("region", ["north"]).unwrap().with_column("total", [10]).unwrap()
}

/// A rich tool that opts out of the view.
#[codeagent::tool(ui = false)]
fn snippet() -> Code {
    Code::new("fn main() {}").with_lang("rust")
}

/// A rich tool with a view of the server's own.
#[codeagent::tool(ui = "ui://tests/diff-view")]
fn change() -> Diff {
    Diff::new("a\n", "b\n")
}

/// A text tool shown in the built-in view anyway.
#[codeagent::tool(ui = true)]
fn note() -> Text {
    Text::new("*noted*")
}

/// Structured output: its artifact is JSON as code, a rich kind.
#[codeagent::tool]
fn totals() -> Json<Vec<u32>> {
    Json(vec![10, 7])
}

/// A plain tool: never a view.
#[codeagent::tool]
fn plain() -> String {
    "plain".to_owned()
}

fn apps_server() -> Server {
    let toolbox = Toolbox::new().tool(report).tool(snippet).tool(change).tool(note).tool(totals).tool(plain).resource(
        ResourceSpec::fixed("ui://tests/diff-view", "diff-view")
            .unwrap()
            .with_mime_type("text/html;profile=mcp-app")
            .serve(|_| async { "<!DOCTYPE html><title>diff</title>" }),
    );
    Server::new(toolbox).with_name("apps-test").with_version("1.0.0")
}

fn apps_capabilities() -> Value {
    json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}})
}

/// Each tool's name and `_meta.ui.resourceUri`, if any.
fn views(list: &Value) -> Vec<(String, Option<String>)> {
    let tools = list["tools"].as_array().expect("tools");
    tools
        .iter()
        .map(|tool| {
            let uri = tool.pointer("/_meta/ui/resourceUri").and_then(Value::as_str).map(str::to_owned);
            (tool["name"].as_str().unwrap().to_owned(), uri)
        })
        .collect()
}

fn expected_views() -> Vec<(String, Option<String>)> {
    [
        ("report", Some(VIEW)),
        ("snippet", None),
        ("change", Some("ui://tests/diff-view")),
        ("note", Some(VIEW)),
        ("totals", Some(VIEW)),
        ("plain", None),
    ]
    .into_iter()
    .map(|(name, uri)| (name.to_owned(), uri.map(str::to_owned)))
    .collect()
}

fn resource_uris(list: &Value) -> Vec<&str> {
    list["resources"].as_array().expect("resources").iter().map(|entry| entry["uri"].as_str().unwrap()).collect()
}

async fn a_declaring_client_sees_views_from_2025_06_18(transport: Transport) {
    for version in [V2025_06, V2025_11] {
        let mut client = Client::start(transport, apps_server()).await;
        let init = client.initialize_with(version, apps_capabilities()).await;
        let capabilities = &init["capabilities"];
        assert_eq!(
            capabilities["extensions"]["io.modelcontextprotocol/ui"],
            json!({"mimeTypes": ["text/html;profile=mcp-app"]}),
            "{transport} {version}: {init}"
        );
        assert!(capabilities["resources"].is_object(), "{transport} {version}: {init}");
        let list = client.result(1, "tools/list", json!({})).await;
        assert_eq!(views(&list), expected_views(), "{transport} {version}");
        assert!(!list.to_string().contains("ui/resourceUri"), "{transport} {version}: no deprecated flat key");
        let resources = client.result(2, "resources/list", json!({})).await;
        assert_eq!(resource_uris(&resources), ["ui://tests/diff-view", VIEW], "{transport} {version}");
        let view = &resources["resources"][1];
        assert_eq!(view["mimeType"], "text/html;profile=mcp-app", "{transport} {version}: {view}");
    }
}

async fn a_declaring_client_of_a_version_without_meta_is_not_offered_views(transport: Transport) {
    for version in [V2024, V2025_03] {
        let mut client = Client::start(transport, apps_server()).await;
        let init = client.initialize_with(version, apps_capabilities()).await;
        assert!(init["capabilities"].get("extensions").is_none(), "{transport} {version}: {init}");
        let list = client.result(1, "tools/list", json!({})).await;
        assert!(views(&list).iter().all(|(_, uri)| uri.is_none()), "{transport} {version}: {list}");
        let resources = client.result(2, "resources/list", json!({})).await;
        assert_eq!(resource_uris(&resources), ["ui://tests/diff-view"], "{transport} {version}");
    }
}

async fn a_client_that_does_not_declare_sees_no_trace_of_the_extension(transport: Transport) {
    for version in LEGACY {
        let mut client = Client::start(transport, apps_server()).await;
        let init = client.initialize(version).await;
        assert!(init["capabilities"].get("extensions").is_none(), "{transport} {version}: {init}");
        let list = client.result(1, "tools/list", json!({})).await;
        assert_eq!(tool_names(&list), ["report", "snippet", "change", "note", "totals", "plain"]);
        assert!(!list.to_string().contains("\"ui\""), "{transport} {version}: no _meta.ui: {list}");
        assert!(!list.to_string().contains("ui/resourceUri"), "{transport} {version}: {list}");
        let resources = client.result(2, "resources/list", json!({})).await;
        assert_eq!(resource_uris(&resources), ["ui://tests/diff-view"], "{transport} {version}");
        let call = client.result(3, "tools/call", json!({"name": "report", "arguments": {}})).await;
        assert!(call.get("_meta").is_some_and(|meta| meta.get("ui").is_none()), "{transport} {version}: {call}");
    }
    let mut client = Client::start(transport, apps_server()).await;
    let list = client.result(1, "tools/list", modern(json!({}))).await;
    assert!(!list.to_string().contains("\"ui\""), "{transport} 2026-07-28: {list}");
}

async fn the_built_in_view_is_one_html_document(transport: Transport) {
    let mut client = Client::start(transport, apps_server()).await;
    client.initialize_with(V2025_11, apps_capabilities()).await;
    let read = client.result(1, "resources/read", json!({"uri": VIEW})).await;
    let contents = read["contents"].as_array().expect("contents");
    assert_eq!(contents.len(), 1, "{transport}: exactly one content: {read}");
    assert_eq!(contents[0]["uri"], VIEW, "{transport}");
    assert_eq!(contents[0]["mimeType"], "text/html;profile=mcp-app", "{transport}");
    let html = contents[0]["text"].as_str().expect("a text content");
    assert!(html.starts_with("<!DOCTYPE html>"), "{transport}: {}", &html[..40.min(html.len())]);
    assert_eq!(html, codeagent::ui::app_document(), "{transport}");
    let modern_read = client.result(2, "resources/read", modern(json!({"uri": VIEW}))).await;
    assert_eq!(modern_read["contents"], read["contents"], "{transport}: the same document in 2026-07-28");
    assert!(modern_read["ttlMs"].is_u64(), "{transport}: {modern_read}");
}

async fn a_modern_request_declares_the_extension_for_itself(transport: Transport) {
    let mut client = Client::start(transport, apps_server()).await;
    let discover = client.result(1, "server/discover", modern_with(json!({}), apps_capabilities())).await;
    assert!(
        discover["capabilities"]["extensions"]["io.modelcontextprotocol/ui"].is_object(),
        "{transport}: {discover}"
    );
    let list = client.result(2, "tools/list", modern_with(json!({}), apps_capabilities())).await;
    assert_eq!(views(&list), expected_views(), "{transport}");
    let resources = client.result(3, "resources/list", modern_with(json!({}), apps_capabilities())).await;
    assert_eq!(resource_uris(&resources), ["ui://tests/diff-view", VIEW], "{transport}");
    let undeclared = client.result(4, "server/discover", modern(json!({}))).await;
    assert!(undeclared["capabilities"].get("extensions").is_none(), "{transport}: not declared: {undeclared}");
}

async fn a_declaration_without_the_html_type_is_no_declaration(transport: Transport) {
    let mut client = Client::start(transport, apps_server()).await;
    let capabilities = json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/uri-list"]}}});
    let init = client.initialize_with(V2025_11, capabilities).await;
    assert!(init["capabilities"].get("extensions").is_none(), "{transport}: {init}");
    let list = client.result(1, "tools/list", json!({})).await;
    assert!(views(&list).iter().all(|(_, uri)| uri.is_none()), "{transport}: {list}");
}
