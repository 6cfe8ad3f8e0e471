//! Stdio: tool errors, both eras, progress, concurrency, cancellation, end of
//! input, batches, list_changed and client responses, over in-memory pipes
//! standing in for stdio (`common::stdio`).

mod common;

use std::collections::HashSet;
use std::time::Duration;

use codeagent::server::{LOG_LEVEL_KEY, SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY};
use codeagent::{ProtocolVersion, Server};
use serde_json::{Value, json};

use common::stdio::*;
use common::tools::{late, later, observed, saw_cancellation, toolbox};
use common::*;

// ---------------------------------------------------------------------------
// Tool errors
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_arguments_are_tool_errors_naming_the_field() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    let result = client.result(1, "tools/call", call_params("add", json!({ "a": "two", "b": 3 }))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("`a`"), "{result}");
    let result = client.result(2, "tools/call", call_params("add", json!({ "a": 2 }))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("`b`"), "{result}");
    let result = client.result(3, "tools/call", call_params("sum", json!({ "values": [1, "x"] }))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("values"), "{result}");
    let result = client.result(4, "tools/call", modern(call_params("add", json!({ "a": 1, "b": [] })))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("`b`"), "{result}");
    // And a valid call still works.
    let result = client.result(5, "tools/call", call_params("add", json!({ "a": 2, "b": 3 }))).await;
    assert_ne!(result["isError"], true, "{result}");
    assert_eq!(text(&result), "5");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_tool_is_an_error_result_and_the_server_lives_on() {
    let mut client = Client::new();
    client.initialize("2025-06-18").await;
    for (id, tool) in [(1, "boom_sync"), (2, "boom_async")] {
        let result = client.result(id, "tools/call", call_params(tool, json!({}))).await;
        assert_eq!(result["isError"], true, "{result}");
        assert!(text(&result).contains("panicked"), "{result}");
        let result = client.result(id + 10, "tools/call", call_params("add", json!({ "a": id, "b": 1 }))).await;
        assert_eq!(text(&result), (id + 1).to_string());
    }
    let result = client.result(3, "tools/call", modern(call_params("boom_sync", json!({})))).await;
    assert_eq!(result["isError"], true, "{result}");
    let result = client.result(4, "tools/call", modern(call_params("boom_async", json!({})))).await;
    assert_eq!(result["isError"], true, "{result}");
    client.sync().await;
    client.finish().await.unwrap();
}

/// The panic message is what tells the model (and the developer) what went wrong.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_sync_tool_reports_its_panic_message() {
    let mut client = Client::new();
    let result = client.result(1, "tools/call", call_params("boom_sync", json!({}))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("sync kaboom"), "{result}");
}

/// The panic message is what tells the model (and the developer) what went wrong.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_async_tool_reports_its_panic_message() {
    let mut client = Client::new();
    let result = client.result(1, "tools/call", call_params("boom_async", json!({}))).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(text(&result).contains("async kaboom"), "{result}");
}

// ---------------------------------------------------------------------------
// The legacy era
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_echoes_each_supported_legacy_version() {
    for version in LEGACY {
        let mut client = Client::new();
        let result = client.initialize(version.as_str()).await;
        assert_eq!(result["protocolVersion"], version.as_str());
        assert_eq!(result["capabilities"]["tools"]["listChanged"], true, "{result}");
        assert!(result["capabilities"]["logging"].is_object(), "{result}");
        assert_eq!(result["serverInfo"]["name"], "codeagent", "the crate that defined the tools: {result}");
        assert_eq!(result["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(client.checks.legacy, version);
        client.sync().await;
        client.finish().await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_with_an_unknown_or_modern_version_gets_2025_11_25() {
    for requested in [json!("1999-01-01"), json!("2026-07-28"), json!("2025-13-45"), json!(20241105), json!(null)] {
        let mut client = Client::new();
        let mut params = init_params("");
        params["protocolVersion"] = requested.clone();
        let result = client.result("init", "initialize", params).await;
        assert_eq!(result["protocolVersion"], "2025-11-25", "asked for {requested}: {result}");
    }
    // initialize carrying modern `_meta` is still the legacy handshake.
    let mut client = Client::new();
    let result = client.result("init", "initialize", modern(init_params("2026-07-28"))).await;
    assert_eq!(result["protocolVersion"], "2025-11-25", "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_identity_can_be_set() {
    let server = Server::new(toolbox())
        .with_name("custom-server")
        .with_version("9.8.7")
        .with_title("Custom")
        .with_instructions("Be nice.");
    let mut client = Client::start(server.clone());
    let result = client.initialize("2025-06-18").await;
    assert_eq!(result["serverInfo"], json!({ "name": "custom-server", "version": "9.8.7", "title": "Custom" }));
    assert_eq!(result["instructions"], "Be nice.");
    // 2024-11-05 has no title.
    let mut client = Client::start(server.clone());
    let result = client.initialize("2024-11-05").await;
    assert_eq!(result["serverInfo"], json!({ "name": "custom-server", "version": "9.8.7" }));
    // Modern results carry it in `_meta`.
    let mut client = Client::start(server);
    let result = client.result(1, "server/discover", modern(json!({}))).await;
    assert_eq!(result["_meta"][SERVER_INFO_KEY]["name"], "custom-server");
    assert_eq!(result["instructions"], "Be nice.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ping_answers_an_empty_result_before_and_after_initialize() {
    let mut client = Client::new();
    assert_eq!(client.result(1, "ping", json!({})).await, json!({}));
    assert_eq!(client.result(2, "ping", json!(null)).await, json!({}));
    client.send(json!({ "jsonrpc": "2.0", "id": 3, "method": "ping" })).await;
    assert_eq!(client.response(3).await["result"], json!({}));
    client.initialize("2024-11-05").await;
    assert_eq!(client.result("p", "ping", json!({})).await, json!({}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_level_filters_log_messages() {
    let mut client = Client::new();
    client.initialize("2025-06-18").await;
    assert_eq!(client.result(1, "logging/setLevel", json!({ "level": "warning" })).await, json!({}));
    client.request(2, "tools/call", call_params("chatty", json!({}))).await;
    let (notes, response) = client.response_with_notes(&json!(2)).await;
    assert_eq!(text(&response["result"]), "logged");
    let levels: Vec<&str> = notes.iter().map(|note| note["params"]["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["warning", "error"], "{notes:?}");
    assert!(notes.iter().all(|note| note["method"] == "notifications/message"));
    assert_eq!(notes[0]["params"]["data"], "a warning message");

    assert_eq!(client.result(3, "logging/setLevel", json!({ "level": "debug" })).await, json!({}));
    client.request(4, "tools/call", call_params("chatty", json!({}))).await;
    let (notes, _) = client.response_with_notes(&json!(4)).await;
    let levels: Vec<&str> = notes.iter().map(|note| note["params"]["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["debug", "info", "warning", "error"]);

    assert_eq!(client.result(5, "logging/setLevel", json!({ "level": "emergency" })).await, json!({}));
    client.request(6, "tools/call", call_params("chatty", json!({}))).await;
    let (notes, _) = client.response_with_notes(&json!(6)).await;
    assert!(notes.is_empty(), "{notes:?}");
    client.assert_quiet(QUIET).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_has_the_shape_of_each_legacy_version() {
    for version in LEGACY {
        let mut client = Client::new();
        client.initialize(version.as_str()).await;
        let list = client.result(1, "tools/list", json!({})).await;
        assert_eq!(tool_names(&list)[..3], ["add", "greet", "sum"]);
        let tools = list["tools"].as_array().unwrap();
        let (greet_tool, sum_tool) = (&tools[1], &tools[2]);
        let has = |tool: &Value, key: &str| tool.get(key).is_some();
        match version {
            V2024 => {
                for tool in tools {
                    for key in ["title", "annotations", "outputSchema", "icons", "execution"] {
                        assert!(!has(tool, key), "{version}: `{key}` in {tool}");
                    }
                }
            }
            V2025_03 => {
                assert!(has(greet_tool, "annotations"), "{greet_tool}");
                assert_eq!(greet_tool["annotations"]["readOnlyHint"], true);
                assert!(!has(greet_tool, "title") && !has(sum_tool, "outputSchema"), "{greet_tool} {sum_tool}");
            }
            _ => {
                assert_eq!(greet_tool["title"], "Greeting");
                assert!(has(sum_tool, "outputSchema"), "{sum_tool}");
            }
        }
        // A structured tool's result follows the version too.
        let result = client.result(2, "tools/call", call_params("sum", json!({ "values": [1, 2, 3] }))).await;
        assert_eq!(result.get("structuredContent").is_some(), version >= V2025_06, "{version}: {result}");
        if version >= V2025_06 {
            assert_eq!(result["structuredContent"], json!({ "total": 6 }));
        }
    }
}

/// Notifications must fit the negotiated version (the client checks every
/// key): progress `message` only exists from 2025-03-26.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_notifications_fit_the_negotiated_version() {
    for version in LEGACY {
        let mut client = Client::new();
        client.initialize(version.as_str()).await;
        client.result("level", "logging/setLevel", json!({ "level": "info" })).await;
        client.request(0, "tools/call", call_params("chatty", json!({}))).await;
        let (notes, _) = client.response_with_notes(&json!(0)).await;
        assert_eq!(notes.len(), 3, "{version}: {notes:?}");
        let params = json!({ "name": "steps", "arguments": { "count": 3 }, "_meta": { "progressToken": 99 } });
        client.request(1, "tools/call", params).await;
        let (notes, response) = client.response_with_notes(&json!(1)).await;
        assert_eq!(text(&response["result"]), "3 steps");
        assert_eq!(notes.len(), 3, "{version}: {notes:?}");
        assert!(notes.iter().all(|note| note["params"]["progressToken"] == 99));
    }
}

// ---------------------------------------------------------------------------
// The modern era
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_discover_describes_the_server_as_the_first_message() {
    let mut client = Client::new();
    let result = client.result("d", "server/discover", modern(json!({}))).await;
    let supported: Vec<&str> =
        result["supportedVersions"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(supported[0], "2026-07-28", "{result}");
    let mut sorted = supported.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ProtocolVersion::ALL.iter().map(|version| version.as_str()).collect::<Vec<_>>());
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true);
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["ttlMs"], 3_600_000);
    assert_eq!(result["cacheScope"], "public");
    assert_eq!(result["_meta"][SERVER_INFO_KEY], json!({ "name": "codeagent", "version": env!("CARGO_PKG_VERSION") }));
    assert!(result.get("serverInfo").is_none(), "serverInfo lives in _meta in 2026-07-28: {result}");

    let mut client = Client::start(Server::new(toolbox()).with_discover_ttl(Duration::from_secs(5)));
    let result = client.result("d", "server/discover", modern(json!({}))).await;
    assert_eq!(result["ttlMs"], 5000);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_tools_list_and_call_carry_result_type_and_server_info() {
    let mut client = Client::new();
    let list = client.result(1, "tools/list", modern(json!({}))).await;
    assert_eq!(list["resultType"], "complete");
    assert!(list["ttlMs"].is_u64() && list["cacheScope"].is_string(), "{list}");
    assert_eq!(list["_meta"][SERVER_INFO_KEY]["name"], "codeagent");
    assert!(tool_names(&list).contains(&"wait"));
    let result = client.result(2, "tools/call", modern(call_params("add", json!({ "a": 40, "b": 2 })))).await;
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["_meta"][SERVER_INFO_KEY]["name"], "codeagent");
    assert_eq!(text(&result), "42");
    let result = client.result(3, "tools/call", modern(call_params("sum", json!({ "values": [2, 2] })))).await;
    assert_eq!(result["structuredContent"], json!({ "total": 4 }));
    // Legacy requests on the same connection get legacy shapes.
    let result = client.result(4, "tools/call", call_params("add", json!({ "a": 1, "b": 1 }))).await;
    assert!(result.get("resultType").is_none() && result.get("_meta").is_none(), "{result}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_logs_only_when_the_request_asks() {
    let mut client = Client::new();
    // No logLevel: no notifications/message at all.
    let result = client.result(1, "tools/call", modern(call_params("chatty", json!({})))).await;
    assert_eq!(text(&result), "logged");
    // With one: messages at or above it, before the response.
    let params = modern_with(json!({ LOG_LEVEL_KEY: "warning" }), call_params("chatty", json!({})));
    client.request(2, "tools/call", params).await;
    let (notes, _) = client.response_with_notes(&json!(2)).await;
    let levels: Vec<&str> = notes.iter().map(|note| note["params"]["level"].as_str().unwrap()).collect();
    assert_eq!(levels, ["warning", "error"]);
    let params = modern_with(json!({ LOG_LEVEL_KEY: "debug" }), call_params("chatty", json!({})));
    client.request(3, "tools/call", params).await;
    let (notes, _) = client.response_with_notes(&json!(3)).await;
    assert_eq!(notes.len(), 4, "{notes:?}");
    // A legacy setLevel does not leak into modern requests.
    client.initialize("2025-11-25").await;
    client.result(4, "logging/setLevel", json!({ "level": "debug" })).await;
    let result = client.result(5, "tools/call", modern(call_params("chatty", json!({})))).await;
    assert_eq!(text(&result), "logged");
    client.assert_quiet(QUIET).await;
}

async fn check_progress(client: &mut Client, id: Value, token: Value) {
    let params = modern_with(json!({ "progressToken": token }), call_params("steps", json!({ "count": 5 })));
    client.request(id.clone(), "tools/call", params).await;
    let (notes, response) = client.response_with_notes(&id).await;
    assert_eq!(text(&response["result"]), "5 steps");
    let mut last = f64::NEG_INFINITY;
    for note in &notes {
        assert_eq!(note["method"], "notifications/progress");
        assert_eq!(note["params"]["progressToken"], token, "the token is echoed as sent: {note}");
        let progress = note["params"]["progress"].as_f64().unwrap();
        assert!(progress > last, "progress must increase: {notes:?}");
        last = progress;
        assert_eq!(note["params"]["total"], 5.0);
    }
    let values: Vec<f64> = notes.iter().map(|note| note["params"]["progress"].as_f64().unwrap()).collect();
    assert_eq!(values, [1.0, 2.0, 3.0, 4.0, 5.0], "the stale value is dropped");
    client.assert_quiet(Duration::from_millis(150)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_echoes_a_string_token_increasing_and_before_the_response() {
    let mut client = Client::new();
    check_progress(&mut client, json!("p1"), json!("token-abc")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_echoes_an_integer_token_increasing_and_before_the_response() {
    let mut client = Client::new();
    check_progress(&mut client, json!(1), json!(7)).await;
    check_progress(&mut client, json!(2), json!(0)).await;
    // No token, no progress.
    let result = client.result(3, "tools/call", modern(call_params("steps", json!({ "count": 3 })))).await;
    assert_eq!(text(&result), "3 steps");
}

// ---------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_concurrent_calls_are_each_answered_once() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    for n in 0..50u64 {
        let ms = (n * 37) % 50 + 1;
        client.request(n, "tools/call", call_params("nap", json!({ "ms": ms, "n": n }))).await;
    }
    let mut seen = HashSet::new();
    let mut order = Vec::new();
    for _ in 0..50 {
        let response = client.recv().await;
        let id = response["id"].as_u64().unwrap_or_else(|| panic!("unexpected message {response}"));
        assert!(seen.insert(id), "id {id} answered twice");
        order.push(id);
        assert_eq!(text(&response["result"]), id.to_string(), "{response}");
    }
    assert_eq!(seen, (0..50).collect());
    // They ran concurrently: the shortest naps were answered first, not in the order sent.
    assert!(!order.is_sorted(), "answered in the order sent: {order:?}");
    client.assert_quiet(QUIET).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_sync_tool_does_not_block_a_fast_call_after_it() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    client.request("slow", "tools/call", call_params("block", json!({ "ms": 500 }))).await;
    client.request("fast", "tools/call", call_params("add", json!({ "a": 1, "b": 2 }))).await;
    let first = client.recv().await;
    assert_eq!(first["id"], "fast", "the fast call is answered first: {first}");
    let second = client.recv().await;
    assert_eq!(second["id"], "slow");
    assert_eq!(text(&second["result"]), "blocked 500 ms");
}

// ---------------------------------------------------------------------------
// Cancellation
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_call_gets_no_response_and_the_tool_sees_the_cancellation() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    let params =
        json!({ "name": "wait", "arguments": { "key": "cancel-1", "ms": 2000 }, "_meta": { "progressToken": "w" } });
    client.request(5, "tools/call", params).await;
    let started = client.recv().await;
    assert_eq!(started["method"], "notifications/progress", "the tool started: {started}");
    client.notify("notifications/cancelled", json!({ "requestId": 5, "reason": "changed my mind" })).await;
    // Uncancelled, the tool would answer within this window (the tool waits
    // long enough for the cancellation to reach it on a loaded machine).
    client.assert_quiet(Duration::from_millis(2500)).await;
    assert!(saw_cancellation(&observed("cancel-1")), "the tool observed the cancellation: {:?}", observed("cancel-1"));
    // Later requests are fine, including one reusing the cancelled id.
    client.sync().await;
    let result = client.result(5, "tools/call", call_params("add", json!({ "a": 5, "b": 5 }))).await;
    assert_eq!(text(&result), "10");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_modern_call_gets_no_response() {
    let mut client = Client::new();
    let params =
        modern_with(json!({ "progressToken": 1 }), call_params("wait", json!({ "key": "cancel-2", "ms": 2000 })));
    client.request("m", "tools/call", params).await;
    assert_eq!(client.recv().await["method"], "notifications/progress");
    client.notify("notifications/cancelled", json!({ "requestId": "m" })).await;
    client.assert_quiet(Duration::from_millis(2500)).await;
    assert!(saw_cancellation(&observed("cancel-2")), "{:?}", observed("cancel-2"));
    client.sync_modern().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_an_unknown_id_is_ignored() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    for request_id in [json!(12345), json!("nobody"), json!(null), json!({ "x": 1 })] {
        client.notify("notifications/cancelled", json!({ "requestId": request_id })).await;
    }
    client.notify("notifications/cancelled", json!({})).await;
    // A finished request's id, too.
    client.result(1, "tools/call", call_params("add", json!({ "a": 1, "b": 1 }))).await;
    client.notify("notifications/cancelled", json!({ "requestId": 1 })).await;
    client.assert_quiet(Duration::from_millis(200)).await;
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_in_flight_id_is_an_invalid_request() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    let params = json!({ "name": "wait", "arguments": { "key": "dup", "ms": 400 }, "_meta": { "progressToken": "d" } });
    client.request(9, "tools/call", params).await;
    assert_eq!(client.recv().await["method"], "notifications/progress");
    client.request(9, "tools/call", call_params("add", json!({ "a": 1, "b": 2 }))).await;
    let error = expect_error(&mut client, json!(9), INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "9");
    // The first request is unaffected and still answered.
    let response = client.recv().await;
    assert_eq!(response["id"], 9);
    assert_eq!(text(&response["result"]), "waited 400 ms");
    assert_eq!(observed("dup"), ["finished"]);
    // The same id, as a string, is a different id.
    let params = json!({ "name": "wait", "arguments": { "key": "dup-2", "ms": 300 } });
    client.request(10, "tools/call", params).await;
    let result = client.result("10", "tools/call", call_params("add", json!({ "a": 1, "b": 2 }))).await;
    assert_eq!(text(&result), "3");
    assert_eq!(client.recv().await["id"], 10);
}

// ---------------------------------------------------------------------------
// End of input
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_eof_in_flight_requests_are_answered_then_serve_returns_ok() {
    let mut client = Client::new();
    client.initialize("2025-11-25").await;
    client.request("last", "tools/call", call_params("wait", json!({ "key": "eof", "ms": 300 }))).await;
    client.request("blocking", "tools/call", call_params("block", json!({ "ms": 200 }))).await;
    client.close_input();
    let mut ids = HashSet::new();
    for _ in 0..2 {
        let response = client.recv().await;
        assert!(response.get("result").is_some(), "{response}");
        ids.insert(response["id"].as_str().unwrap().to_owned());
    }
    assert_eq!(ids, HashSet::from(["last".to_owned(), "blocking".to_owned()]));
    client.assert_eof().await;
    assert_eq!(observed("eof"), ["finished"]);
    client.finish().await.expect("serve() returns Ok(()) at EOF");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_eof_without_a_trailing_newline_the_last_message_is_served() {
    let mut client = Client::new();
    client.register(&json!({ "jsonrpc": "2.0", "id": "tail", "method": "ping" }));
    client.send_bytes(br#"{"jsonrpc":"2.0","id":"tail","method":"ping"}"#).await;
    client.close_input();
    assert_eq!(client.recv().await["id"], "tail");
    client.assert_eof().await;
    client.finish().await.unwrap();
}

// ---------------------------------------------------------------------------
// Batches (2025-03-26 only)
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_on_2025_03_26_gets_one_array_response_in_order() {
    let mut client = Client::new();
    client.initialize("2025-03-26").await;
    let batch = json!([
        { "jsonrpc": "2.0", "id": "a", "method": "tools/call", "params": call_params("nap", json!({ "ms": 150, "n": 1 })) },
        { "jsonrpc": "2.0", "id": "b", "method": "ping" },
        { "jsonrpc": "2.0", "method": "notifications/initialized" },
        { "jsonrpc": "2.0", "id": "c", "method": "tools/call", "params": call_params("add", json!({ "a": 2, "b": 2 })) },
        { "jsonrpc": "2.0", "id": "d", "method": "tools/list" },
        { "jsonrpc": "2.0", "id": "e", "method": "no/such" },
        { "jsonrpc": "2.0", "id": "f", "method": "tools/call", "params": call_params("x", json!({})) }
    ]);
    client.send(batch).await;
    let response = client.recv().await;
    let items = response.as_array().unwrap_or_else(|| panic!("one array response: {response}"));
    let ids: Vec<&str> = items.iter().map(|item| item["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["a", "b", "c", "d", "e", "f"], "notifications omitted, order kept");
    assert_eq!(text(&items[0]["result"]), "1");
    assert_eq!(items[1]["result"], json!({}));
    assert_eq!(text(&items[2]["result"]), "4");
    assert!(tool_names(&items[3]["result"]).contains(&"add"));
    assert_eq!(items[4]["error"]["code"], METHOD_NOT_FOUND);
    assert_eq!(items[5]["error"]["code"], INVALID_PARAMS);
    // Only notifications: nothing comes back.
    client.send(json!([{ "jsonrpc": "2.0", "method": "notifications/initialized" }])).await;
    client.assert_quiet(Duration::from_millis(200)).await;
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_outside_2025_03_26_is_an_invalid_request() {
    // Before initialize.
    let mut client = Client::new();
    client.send(json!([{ "jsonrpc": "2.0", "id": 1, "method": "ping" }])).await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "batch");
    client.sync().await;
    // After negotiating any other version.
    for version in [V2024, V2025_06, V2025_11] {
        let mut client = Client::new();
        client.initialize(version.as_str()).await;
        client.send(json!([{ "jsonrpc": "2.0", "id": 1, "method": "ping" }, { "jsonrpc": "2.0", "id": 2, "method": "ping" }])).await;
        let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
        assert_error(&error, INVALID_REQUEST, "batch");
        client.assert_quiet(Duration::from_millis(150)).await;
        client.sync().await;
    }
    // A modern client cannot batch either.
    let mut client = Client::new();
    client.send(json!([{ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": modern(json!({})) }])).await;
    expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_batch_is_an_invalid_request() {
    let mut client = Client::new();
    client.send_line("[]").await;
    expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    client.initialize("2025-03-26").await;
    client.send_line("[]").await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "empty");
    client.sync().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_inside_a_batch_is_an_error_for_that_element() {
    let mut client = Client::new();
    client.initialize("2025-03-26").await;
    let batch = json!([
        { "jsonrpc": "2.0", "id": "p", "method": "ping" },
        { "jsonrpc": "2.0", "id": "i", "method": "initialize", "params": init_params("2025-06-18") },
        { "jsonrpc": "2.0", "id": 3, "method": 3 },
        "not a message"
    ]);
    client.send(batch).await;
    let response = client.recv().await;
    let items = response.as_array().unwrap_or_else(|| panic!("an array: {response}"));
    assert_eq!(items.len(), 4, "{response}");
    assert_eq!(items[0]["result"], json!({}));
    assert_eq!(items[1]["id"], "i");
    assert_eq!(items[1]["error"]["code"], INVALID_REQUEST);
    assert!(items[1]["error"]["message"].as_str().unwrap().contains("initialize"));
    assert_eq!(items[2]["id"], 3);
    assert_eq!(items[2]["error"]["code"], INVALID_REQUEST);
    assert_eq!(items[3]["id"], Value::Null);
    assert_eq!(items[3]["error"]["code"], INVALID_REQUEST);
    // The session is still 2025-03-26: batches still work.
    client.send(json!([{ "jsonrpc": "2.0", "id": "q", "method": "ping" }])).await;
    assert_eq!(client.recv().await[0]["id"], "q");
}

// ---------------------------------------------------------------------------
// list_changed
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_clients_hear_list_changed_after_initialized() {
    let served = toolbox();
    let mut client = Client::start(Server::new(served.clone()));
    client.result("init", "initialize", init_params("2025-06-18")).await;
    // Not yet initialized: nothing is announced.
    served.tools().try_add(late).unwrap();
    client.assert_quiet(QUIET).await;
    client.notify("notifications/initialized", json!({})).await;
    client.sync().await;
    served.tools().try_add(later).unwrap();
    let note = client.recv().await;
    assert_eq!(note["method"], "notifications/tools/list_changed", "{note}");
    assert!(note.pointer(&format!("/params/_meta/{}", SUBSCRIPTION_ID_KEY.replace('/', "~1"))).is_none(), "{note}");
    let list = client.result(1, "tools/list", json!({})).await;
    assert!(tool_names(&list).ends_with(&["late", "later"]), "{list}");
    let result = client.result(2, "tools/call", call_params("later", json!({}))).await;
    assert_eq!(text(&result), "later");
    // Removing a tool is a change too.
    assert!(served.tools().remove("late"));
    assert_eq!(client.recv().await["method"], "notifications/tools/list_changed");
    client.assert_quiet(Duration::from_millis(200)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_listen_is_acknowledged_and_tags_list_changed() {
    let served = toolbox();
    let mut client = Client::start(Server::new(served.clone()));
    let params = modern(json!({ "notifications": { "toolsListChanged": true, "promptsListChanged": true } }));
    client.request("listen-1", "subscriptions/listen", params).await;
    let ack = client.recv().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{ack}");
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1");
    assert_eq!(ack["params"]["notifications"], json!({ "toolsListChanged": true }), "only what is honoured");
    served.tools().try_add(late).unwrap();
    let note = client.recv().await;
    assert_eq!(note["method"], "notifications/tools/list_changed", "{note}");
    assert_eq!(note["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1");
    // The listen request stays open: no response; and no legacy announcement.
    client.assert_quiet(QUIET).await;
    // A listen without toolsListChanged hears nothing.
    client.request(2, "subscriptions/listen", modern(json!({ "notifications": {} }))).await;
    let ack = client.recv().await;
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], 2);
    assert_eq!(ack["params"]["notifications"], json!({}));
    served.tools().try_add(later).unwrap();
    let note = client.recv().await;
    assert_eq!(note["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1", "only listen-1 asked: {note}");
    client.assert_quiet(QUIET).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_listen_stops_its_notifications() {
    let served = toolbox();
    let mut client = Client::start(Server::new(served.clone()));
    client.request(77, "subscriptions/listen", modern(json!({ "notifications": { "toolsListChanged": true } }))).await;
    let ack = client.recv().await;
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], 77);
    // A second listen with the same id while the first is open is refused.
    client.request(77, "subscriptions/listen", modern(json!({ "notifications": { "toolsListChanged": true } }))).await;
    expect_error(&mut client, json!(77), INVALID_REQUEST).await;
    client.notify("notifications/cancelled", json!({ "requestId": 77 })).await;
    client.sync_modern().await;
    served.tools().try_add(late).unwrap();
    client.assert_quiet(QUIET).await;
    // The id is free again.
    client.request(77, "subscriptions/listen", modern(json!({ "notifications": { "toolsListChanged": true } }))).await;
    assert_eq!(client.recv().await["method"], "notifications/subscriptions/acknowledged");
    client.finish().await.unwrap();
}

// ---------------------------------------------------------------------------
// Client responses
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_responses_are_ignored_without_reply() {
    let mut client = Client::new();
    client.send_line(r#"{"jsonrpc":"2.0","id":"x","result":{}}"#).await;
    client.send_line(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}"#).await;
    client.send_line(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#).await;
    client.initialize("2025-11-25").await;
    client.send_line(r#"{"jsonrpc":"2.0","id":"y","result":{"roots":[]}}"#).await;
    client.assert_quiet(Duration::from_millis(200)).await;
    client.sync().await;
}
