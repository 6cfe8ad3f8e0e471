//! JSON-RPC batches: only in 2025-03-26 sessions, answered as one array in
//! request order, their requests run concurrently, and a duplicate id inside
//! a batch refused like a lone one.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{call, modern, sync, text, tool_names};
use crate::common::client::{Client, Transport};
use crate::common::{INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, V2024, V2025_03, V2025_06, V2025_11};

over_both!(
    a_batch_is_answered_as_one_array_in_request_order,
    the_requests_of_a_batch_run_concurrently,
    a_duplicate_id_inside_a_batch_is_refused,
    a_batch_outside_2025_03_26_is_an_invalid_request,
    a_malformed_field_inside_a_batch_is_refused_naming_it,
);

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn ids(answer: &Value) -> Vec<&Value> {
    answer.as_array().expect("one array").iter().map(|item| &item["id"]).collect()
}

async fn a_batch_is_answered_as_one_array_in_request_order(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_03).await;
    client
        .send_raw(json!([
            request(1, "tools/call", call("nap", json!({"ms": 150, "n": 1}))),
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "x", "progress": 1}},
            request(2, "tools/call", call("add", json!({"a": 20, "b": 22}))),
            request(3, "no/such/method", json!({})),
            request(4, "ping", json!({})),
            request(5, "tools/list", json!({})),
            request(6, "tools/call", call("no_such_tool", json!({}))),
        ]))
        .await;
    let answer = client.recv().await;
    let expected = [&json!(1), &json!(2), &json!(3), &json!(4), &json!(5), &json!(6)];
    assert_eq!(ids(&answer), expected, "{transport}: request order, the notification not answered: {answer}");
    assert_eq!(text(&answer[0]["result"]), "1", "{transport}");
    assert_eq!(text(&answer[1]["result"]), "42", "{transport}");
    assert_eq!(answer[2]["error"]["code"], METHOD_NOT_FOUND, "{transport}");
    assert_eq!(answer[3]["result"], json!({}), "{transport}");
    assert!(tool_names(&answer[4]["result"]).contains(&"add"), "{transport}: {answer}");
    assert_eq!(answer[5]["error"]["code"], INVALID_PARAMS, "{transport}");
    // A batch of notifications only: nothing comes back.
    client.send_raw(json!([{"jsonrpc": "2.0", "method": "notifications/initialized"}])).await;
    client.assert_quiet(Duration::from_millis(200)).await;
    sync(&mut client).await;
}

async fn the_requests_of_a_batch_run_concurrently(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_03).await;
    let started = Instant::now();
    client
        .send_raw(json!([
            request(1, "tools/call", call("nap", json!({"ms": 300, "n": 1}))),
            request(2, "tools/call", call("nap", json!({"ms": 300, "n": 2}))),
        ]))
        .await;
    let answer = client.recv().await;
    let elapsed = started.elapsed();
    assert_eq!(ids(&answer), [&json!(1), &json!(2)], "{transport}: {answer}");
    assert_eq!(text(&answer[1]["result"]), "2", "{transport}");
    assert!(
        elapsed < Duration::from_millis(550),
        "{transport}: two 300 ms naps in one batch took {elapsed:?}: they ran one after the other"
    );
}

async fn a_duplicate_id_inside_a_batch_is_refused(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_03).await;
    client
        .send_raw(json!([
            request(1, "tools/call", call("nap", json!({"ms": 200, "n": 1}))),
            request(1, "tools/call", call("nap", json!({"ms": 200, "n": 99}))),
        ]))
        .await;
    let answer = client.recv().await;
    let items = answer.as_array().expect("one array");
    assert_eq!(items.len(), 2, "{transport}: one answer per request: {answer}");
    let results: Vec<&Value> = items.iter().filter(|item| item.get("result").is_some()).collect();
    let errors: Vec<&Value> = items.iter().filter(|item| item.get("error").is_some()).collect();
    assert_eq!(results.len(), 1, "{transport}: only the first request with id 1 runs: {answer}");
    assert_eq!(text(&results[0]["result"]), "1", "{transport}: {answer}");
    assert_eq!(errors.len(), 1, "{transport}: the duplicate is refused: {answer}");
    assert_eq!(errors[0]["error"]["code"], INVALID_REQUEST, "{transport}: {answer}");
    assert_eq!(errors[0]["id"], 1, "{transport}: {answer}");
}

async fn a_batch_outside_2025_03_26_is_an_invalid_request(transport: Transport) {
    for version in [V2024, V2025_06, V2025_11] {
        let mut client = Client::new(transport).await;
        client.initialize(version).await;
        client.send_raw(json!([request(1, "ping", json!({})), request(2, "ping", json!({}))])).await;
        let error = client.recv().await;
        assert_eq!(error["error"]["code"], INVALID_REQUEST, "{transport} {version}: {error}");
        assert_eq!(error["id"], Value::Null, "{transport} {version}: {error}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.contains("batch"), "{transport} {version}: {error}");
        // Nor is any request in it answered.
        client.assert_quiet(Duration::from_millis(150)).await;
        sync(&mut client).await;
    }
    // A modern client cannot batch either.
    let mut client = Client::new(transport).await;
    client.send_raw(json!([request(1, "tools/list", modern(json!({})))])).await;
    let error = client.recv().await;
    assert_eq!(error["error"]["code"], INVALID_REQUEST, "{transport}: {error}");
}

/// The `_meta` rule holds for a batch element as for a lone request: each
/// malformed element is `-32602` naming its field, and its neighbours run.
async fn a_malformed_field_inside_a_batch_is_refused_naming_it(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_03).await;
    let mut bad_meta = call("add", json!({"a": 1, "b": 2}));
    bad_meta["_meta"] = json!(5);
    let mut bad_token = call("add", json!({"a": 1, "b": 2}));
    bad_token["_meta"] = json!({"progressToken": {"a": 1}});
    client
        .send_raw(json!([
            request(1, "tools/call", bad_meta),
            request(2, "tools/call", call("add", json!({"a": 20, "b": 22}))),
            request(3, "tools/call", bad_token),
        ]))
        .await;
    let answer = client.recv().await;
    assert_eq!(ids(&answer), [&json!(1), &json!(2), &json!(3)], "{transport}: {answer}");
    assert_eq!(answer[0]["error"]["code"], INVALID_PARAMS, "{transport}: {answer}");
    assert_eq!(answer[0]["error"]["data"]["field"], "_meta", "{transport}: {answer}");
    assert_eq!(text(&answer[1]["result"]), "42", "{transport}: {answer}");
    assert_eq!(answer[2]["error"]["code"], INVALID_PARAMS, "{transport}: {answer}");
    assert_eq!(answer[2]["error"]["data"]["field"], "_meta.progressToken", "{transport}: {answer}");
}
