//! Stdio: how the server answers malformed and invalid messages (JSON-RPC
//! framing, -32700, -32600, -32601, -32602), over in-memory pipes standing in
//! for stdio (`common::stdio`). The errors that are the same over every
//! transport (unknown tools, cursors, versions, removed methods) are in
//! `tests/behaviour`.

use crate::common;

use codeagent::Server;
use codeagent::server::{LOG_LEVEL_KEY, PROTOCOL_VERSION_KEY};
use serde_json::{Value, json};

use common::stdio::*;
use common::tools::toolbox;
use common::*;

// ---------------------------------------------------------------------------
// -32700 parse errors
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_is_a_parse_error_and_the_server_keeps_serving() {
    let mut client = Client::new();
    for garbage in ["{not json", "hello", r#"{"jsonrpc":"2.0","id":1,"method":"ping""#, "}{", "[1,2"] {
        client.send_line(garbage).await;
        let error = expect_error(&mut client, Value::Null, PARSE_ERROR).await;
        assert_error(&error, PARSE_ERROR, "Parse error");
    }
    client.sync().await;
    client.finish().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_utf8_is_a_parse_error() {
    let mut client = Client::new();
    client.send_bytes(b"\xff\xfe\xfd\n").await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    // Invalid UTF-8 inside an otherwise well-formed request.
    client.send_bytes(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\xc3\x28ng\"}\n").await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    client.sync().await;
    client.finish().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn absurd_nesting_is_a_parse_error_not_a_crash() {
    let mut client = Client::new();
    client.send_line(&"[".repeat(100_000)).await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    let nested_object = format!("{}{}", r#"{"a":"#.repeat(50_000), "1");
    client.send_line(&nested_object).await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    // Balanced but too deep: still an error, still alive.
    client.send_line(&format!("{}{}", "[".repeat(10_000), "]".repeat(10_000))).await;
    expect_error(&mut client, Value::Null, PARSE_ERROR).await;
    client.sync().await;
    client.finish().await.unwrap();
}

// ---------------------------------------------------------------------------
// -32600 invalid requests
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_that_is_not_an_object_is_an_invalid_request() {
    let mut client = Client::new();
    for line in ["42", r#""ping""#, "true", "null"] {
        client.send_line(line).await;
        let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "object");
    }
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_without_jsonrpc_is_an_invalid_request() {
    let mut client = Client::new();
    client.send(json!({ "id": 1, "method": "ping" })).await;
    let error = expect_error(&mut client, json!(1), INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "jsonrpc");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_jsonrpc_version_is_an_invalid_request() {
    let mut client = Client::new();
    for (id, version) in
        [json!("v1"), json!("v2"), json!("v3")].into_iter().zip([json!("1.0"), json!(2.0), json!(null)])
    {
        client.send(json!({ "jsonrpc": version, "id": id, "method": "ping" })).await;
        let error = expect_error(&mut client, id, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "jsonrpc");
    }
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_method_that_is_not_a_string_is_an_invalid_request() {
    let mut client = Client::new();
    for (id, method) in [(json!(1), json!(42)), (json!("two"), json!(null)), (json!(3), json!(["ping"]))] {
        client.send(json!({ "jsonrpc": "2.0", "id": id, "method": method })).await;
        let error = expect_error(&mut client, id, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "method");
    }
    // Neither a method nor a result/error.
    client.send(json!({ "jsonrpc": "2.0", "id": 4 })).await;
    expect_error(&mut client, json!(4), INVALID_REQUEST).await;
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_id_of_a_bad_type_is_an_invalid_request_with_a_null_id() {
    let mut client = Client::new();
    for id in [json!(null), json!({ "n": 1 }), json!(true), json!([1])] {
        client.send(json!({ "jsonrpc": "2.0", "id": id, "method": "ping" })).await;
        let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "id");
    }
    client.sync().await;
}

/// MCP's `RequestId` is a string or an *integer*: a fractional id cannot be
/// echoed in a schema-valid response, so it is an invalid request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fractional_id_is_an_invalid_request() {
    let mut client = Client::new();
    let line = r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#;
    client.register(&serde_json::from_str(line).unwrap());
    client.send_line(line).await;
    let message = client.recv().await;
    assert_eq!(message["error"]["code"], INVALID_REQUEST, "{message}");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_line_over_the_message_limit_is_rejected_and_skipped() {
    let mut client = Client::start(Server::new(toolbox()).with_message_limit(1024));
    // A request padded to exactly the limit is served.
    let request = r#"{"jsonrpc":"2.0","id":"fits","method":"ping","params":{}}"#;
    let padded = format!("{request}{}", " ".repeat(1024 - request.len()));
    assert_eq!(padded.len(), 1024);
    client.register(&json!({ "jsonrpc": "2.0", "id": "fits", "method": "ping" }));
    client.send_line(&padded).await;
    assert_eq!(client.recv().await["id"], "fits");

    // One byte more is rejected, and the request in it never runs.
    let over = format!("{request}{}", " ".repeat(1025 - request.len()));
    client.send_line(&over).await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "1025 bytes");
    assert_error(&error, INVALID_REQUEST, "1024");

    // A 4 MiB line is streamed through and skipped, not buffered whole:
    // one error, and the request hidden at its end is never answered.
    let mut huge = vec![b' '; 4 * 1024 * 1024];
    huge.extend_from_slice(br#"{"jsonrpc":"2.0","id":"hidden","method":"ping"}"#);
    huge.push(b'\n');
    client.send_bytes(&huge).await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "exceeds");

    // The next request still works, and nothing else was sent.
    client.sync().await;
    client.assert_quiet(QUIET).await;
    client.finish().await.unwrap();
}

// ---------------------------------------------------------------------------
// -32601 method not found
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_legacy_method_is_method_not_found() {
    let mut client = Client::new();
    let error = client.error(1, "tools/frobnicate", json!({})).await;
    assert_error(&error, METHOD_NOT_FOUND, "tools/frobnicate");
    client.initialize("2025-06-18").await;
    for (id, method) in [(2, "prompts/frobnicate"), (3, "resources/frobnicate"), (4, "server/nope")] {
        let error = client.error(id, method, json!({})).await;
        assert_error(&error, METHOD_NOT_FOUND, method);
    }
    client.sync().await;
}

// ---------------------------------------------------------------------------
// -32602 invalid params
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_call_without_a_name_is_invalid_params() {
    let mut client = Client::new();
    let error = client.error(1, "tools/call", json!({ "arguments": {} })).await;
    assert_error(&error, INVALID_PARAMS, "name");
    let error = client.error(2, "tools/call", json!({ "name": 7, "arguments": {} })).await;
    assert_error(&error, INVALID_PARAMS, "name");
    let error = client.error(3, "tools/call", modern(json!({ "arguments": {} }))).await;
    assert_error(&error, INVALID_PARAMS, "name");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arguments_that_are_not_an_object_are_invalid_params() {
    let mut client = Client::new();
    for (id, arguments, found) in
        [(1, json!([1, 2]), "an array"), (2, json!("a=1"), "a string"), (3, json!(5), "a number")]
    {
        let error = client.error(id, "tools/call", call_params("add", arguments)).await;
        assert_error(&error, INVALID_PARAMS, "add");
        assert_error(&error, INVALID_PARAMS, found);
    }
    // Absent or null arguments mean `{}`: a tool error about the missing fields, not a protocol error.
    let result = client.result(4, "tools/call", json!({ "name": "add" })).await;
    assert_eq!(result["isError"], true);
    let result = client.result(5, "tools/call", json!({ "name": "add", "arguments": null })).await;
    assert_eq!(result["isError"], true);
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn params_that_are_not_an_object_are_invalid_params() {
    let mut client = Client::new();
    for (id, params) in [(json!(1), json!(["add"])), (json!("s"), json!("tools")), (json!(3), json!(17))] {
        client.send(json!({ "jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params })).await;
        let error = expect_error(&mut client, id, INVALID_PARAMS).await;
        assert_error(&error, INVALID_PARAMS, "params");
    }
    client.sync().await;
}

/// Over stdio only `_meta` makes a request 2026-07-28 (over HTTP its headers
/// do: `http_modern` tests one without `_meta`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_modern_only_method_without_meta_is_invalid_params() {
    let mut client = Client::new();
    let error = client.error(1, "server/discover", json!({})).await;
    assert_error(&error, INVALID_PARAMS, PROTOCOL_VERSION_KEY);
    let error = client.error(2, "subscriptions/listen", json!({ "notifications": { "toolsListChanged": true } })).await;
    assert_error(&error, INVALID_PARAMS, PROTOCOL_VERSION_KEY);
    client.sync_modern().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invalid_modern_log_level_is_invalid_params() {
    let mut client = Client::new();
    for (id, level) in [(1, json!("loud")), (2, json!("DEBUG")), (3, json!(3))] {
        let params = modern_with(json!({ LOG_LEVEL_KEY: level }), call_params("chatty", json!({})));
        let error = client.error(id, "tools/call", params).await;
        assert_error(&error, INVALID_PARAMS, LOG_LEVEL_KEY);
    }
    client.sync_modern().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_level_with_a_bad_level_is_invalid_params() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    for (id, params) in [(1, json!({ "level": "loud" })), (2, json!({})), (3, json!({ "level": 4 }))] {
        let error = client.error(id, "logging/setLevel", params).await;
        assert_error(&error, INVALID_PARAMS, "level");
    }
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscriptions_listen_without_a_filter_is_invalid_params() {
    let mut client = Client::new();
    let error = client.error("listen", "subscriptions/listen", modern(json!({}))).await;
    assert_error(&error, INVALID_PARAMS, "notifications");
    client.sync_modern().await;
}

// ---------------------------------------------------------------------------
// Error results the engine makes for a call
// ---------------------------------------------------------------------------

/// Refuses, as a tool does: a `ToolError` without detail.
#[codeagent::tool]
fn refuse() -> Result<String, codeagent::ToolError> {
    Err(codeagent::ToolError::new("refused by the tool"))
}

/// Refuses with a detail, so the artifact says more than the text.
#[codeagent::tool]
fn refuse_with_detail() -> Result<String, codeagent::ToolError> {
    Err(codeagent::ToolError::new("refused by the tool").with_detail("because"))
}

/// The error artifact a client reads from a result: `_meta["dev.codeagent/artifact"]`
/// when sent, else the one `ToolResult::from_mcp` rebuilds from the text.
fn error_artifact(result: &Value) -> Value {
    let read = codeagent::ToolResult::from_mcp(result);
    Value::Object(read.artifact().expect("an error artifact").as_object().clone())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engine_made_call_errors_have_the_shape_of_a_tool_error() {
    let mut client = Client::start(Server::new(toolbox().tool(refuse).tool(refuse_with_detail)));
    client.initialize("2025-11-25").await;
    let tool_made = client.result(1, "tools/call", call_params("refuse", json!({}))).await;
    assert_eq!(tool_made["isError"], true);
    // An artifact that only repeats the text is left off the wire, for the
    // tool's errors and the engine's alike; a detailed one rides in `_meta`.
    let detailed = client.result(2, "tools/call", call_params("refuse_with_detail", json!({}))).await;
    let sent = &detailed["_meta"]["dev.codeagent/artifact"];
    assert_eq!((&sent["kind"], &sent["status"]), (&json!("error"), &json!("error")));
    assert_eq!(sent["payload"], json!({"message": "refused by the tool", "detail": "because"}));
    for (id, name, arguments, message) in [
        (3, "add", json!({"a": "one", "b": 2}), "Invalid arguments for tool add"),
        (4, "add", json!({"a": 1}), "Invalid arguments for tool add"),
        (5, "boom_sync", json!({}), "The tool failed unexpectedly (it panicked: sync kaboom)"),
        (6, "boom_async", json!({}), "The tool failed unexpectedly (it panicked: async kaboom)"),
    ] {
        let engine_made = client.result(id, "tools/call", call_params(name, arguments)).await;
        assert_eq!(engine_made["isError"], true, "{name}: {engine_made}");
        assert!(text(&engine_made).starts_with(message), "{name}: {engine_made}");
        // The same keys as the tool's error result, `_meta` included.
        let keys = |result: &Value| result.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&engine_made), keys(&tool_made), "{name}: {engine_made}");
        // The same error artifact: kind and status `error`, the message as its payload.
        let artifact = error_artifact(&engine_made);
        let mut expected = error_artifact(&tool_made);
        expected["payload"]["message"] = Value::from(text(&engine_made));
        assert_eq!(artifact, expected, "{name}");
        assert_eq!(artifact["kind"], "error");
    }
    client.sync().await;
}

/// A malformed field is refused naming it, never read as a default: `_meta`
/// and its progress token on any request of either era, and each field of a
/// `subscriptions/listen` filter.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_field_is_invalid_params_naming_it() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    let mut call = call_params("chatty", json!({}));
    call["_meta"] = json!(5);
    let error = client.error(1, "tools/call", call).await;
    assert_error(&error, INVALID_PARAMS, "`_meta` must be an object, not a number");
    assert_eq!(error["data"]["field"], "_meta");
    let mut call = call_params("chatty", json!({}));
    call["_meta"] = json!({ "progressToken": { "a": 1 } });
    let error = client.error(2, "tools/call", call).await;
    assert_error(&error, INVALID_PARAMS, "`_meta.progressToken` must be a string or an integer, not an object");
    let error = client.error(3, "resources/list", json!({ "_meta": [] })).await;
    assert_error(&error, INVALID_PARAMS, "`_meta` must be an object, not an array");
    client.sync().await;

    let mut client = Client::new();
    let error = client
        .error(1, "tools/call", modern_with(json!({ "progressToken": 1.5 }), call_params("chatty", json!({}))))
        .await;
    assert_error(&error, INVALID_PARAMS, "`_meta.progressToken` must be a string or an integer, not a number");
    for (id, filter, field) in [
        (2, json!({ "toolsListChanged": "yes" }), "notifications.toolsListChanged"),
        (3, json!({ "resourceSubscriptions": "file:///notes.txt" }), "notifications.resourceSubscriptions"),
        (4, json!({ "taskIds": [1, 2] }), "notifications.taskIds[0]"),
        (5, json!({ "promptsListChanged": 1 }), "notifications.promptsListChanged"),
    ] {
        let error = client.error(id, "subscriptions/listen", modern(json!({ "notifications": filter }))).await;
        assert_error(&error, INVALID_PARAMS, &format!("`{field}` is malformed"));
        assert_eq!(error["data"]["field"], field, "{error}");
    }
    client.sync_modern().await;
}
