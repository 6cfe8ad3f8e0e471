//! Stdio: both eras on one connection, progress, concurrency, cancellation,
//! end of input, batches, list_changed and client responses, over in-memory
//! pipes standing in for stdio (`common::stdio`). What the server does the
//! same over every transport is in `tests/behaviour`.

use crate::common;

use std::collections::HashSet;
use std::time::Duration;

use codeagent::Server;
use codeagent::server::{LOG_LEVEL_KEY, SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY};
use serde_json::{Value, json};

use common::stdio::*;
use common::tools::{late, later, observed, saw_cancellation, toolbox};
use common::*;

// ---------------------------------------------------------------------------
// The legacy era
// ---------------------------------------------------------------------------

/// Over HTTP the headers of a 2026-07-28 request make it one (see
/// `http_modern`); over stdio only `_meta` could.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn initialize_carrying_modern_meta_is_still_the_legacy_handshake() {
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

/// Over HTTP a legacy request needs the session `initialize` opens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ping_is_answered_before_initialize() {
    let mut client = Client::new();
    assert_eq!(client.result(1, "ping", json!({})).await, json!({}));
    client.send(json!({ "jsonrpc": "2.0", "id": 2, "method": "ping" })).await;
    assert_eq!(client.response(2).await["result"], json!({}));
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

/// Before `initialize` no version allows batches. (Over HTTP a legacy
/// request needs the session `initialize` opens.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_before_initialize_is_an_invalid_request() {
    let mut client = Client::new();
    client.send(json!([{ "jsonrpc": "2.0", "id": 1, "method": "ping" }])).await;
    let error = expect_error(&mut client, Value::Null, INVALID_REQUEST).await;
    assert_error(&error, INVALID_REQUEST, "batch");
    client.assert_quiet(Duration::from_millis(150)).await;
    client.sync().await;
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

/// Between `initialize` and `notifications/initialized` nothing is announced
/// (the behaviour client sends both at once; `behaviour::notifications` tests
/// the announcements themselves).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changed_is_announced_only_after_initialized() {
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
    client.assert_quiet(Duration::from_millis(200)).await;
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
