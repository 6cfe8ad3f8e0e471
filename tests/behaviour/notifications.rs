//! Progress, logging, cancellation, duplicate ids, and list_changed in both
//! eras (`notifications/tools/list_changed` and `subscriptions/listen`).

use std::time::{Duration, Instant};

use codeagent::server::SUBSCRIPTION_ID_KEY;
use serde_json::{Value, json};

use super::{call, modern, sync, text, tool_names};
use crate::common::client::{Client, Transport};
use crate::common::tools::{late, later, observed_within, saw_cancellation, toolbox};
use crate::common::{INVALID_REQUEST, QUIET, V2025_03, V2025_06, V2025_11, WAIT};

over_both!(
    progress_echoes_the_token_increasing_and_never_after_the_response,
    set_level_filters_log_messages,
    a_cancelled_call_gets_no_response_and_the_tool_sees_the_cancellation,
    a_duplicate_in_flight_id_is_an_invalid_request,
    legacy_clients_hear_list_changed_after_a_tool_is_added,
    modern_listen_is_acknowledged_and_hears_list_changed,
);

async fn progress_echoes_the_token_increasing_and_never_after_the_response(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_06).await;
    for (id, token) in [(1, json!("tok-1")), (2, json!(77))] {
        let params = json!({"name": "steps", "arguments": {"count": 3}, "_meta": {"progressToken": token}});
        client.send_request(id, "tools/call", params).await;
        let (notes, response) = client.response_with_notes(&json!(id)).await;
        assert_eq!(text(&response["result"]), "3 steps", "{transport}");
        let progress: Vec<f64> = notes
            .iter()
            .map(|note| {
                assert_eq!(note["method"], "notifications/progress", "{transport}: {note}");
                assert_eq!(note["params"]["progressToken"], token, "{transport}: the token is echoed: {note}");
                note["params"]["progress"].as_f64().expect("a number")
            })
            .collect();
        assert_eq!(progress, [1.0, 2.0, 3.0], "{transport}: increasing, the stale value dropped");
        client.assert_quiet(Duration::from_millis(200)).await;
    }
}

async fn set_level_filters_log_messages(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    assert_eq!(client.result(1, "logging/setLevel", json!({"level": "warning"})).await, json!({}));
    client.send_request(2, "tools/call", call("chatty", json!({}))).await;
    let (notes, response) = client.response_with_notes(&json!(2)).await;
    assert_eq!(text(&response["result"]), "logged", "{transport}");
    let levels: Vec<&Value> = notes.iter().map(|note| &note["params"]["level"]).collect();
    assert_eq!(levels, [&json!("warning"), &json!("error")], "{transport}: {notes:?}");
    assert!(notes.iter().all(|note| note["method"] == "notifications/message"), "{transport}: {notes:?}");
    assert_eq!(notes[0]["params"]["data"], "a warning message", "{transport}: {notes:?}");
    assert_eq!(client.result(3, "logging/setLevel", json!({"level": "debug"})).await, json!({}));
    client.send_request(4, "tools/call", call("chatty", json!({}))).await;
    let (notes, _) = client.response_with_notes(&json!(4)).await;
    let levels: Vec<&Value> = notes.iter().map(|note| &note["params"]["level"]).collect();
    let every = [&json!("debug"), &json!("info"), &json!("warning"), &json!("error")];
    assert_eq!(levels, every, "{transport}: every level from debug, in order: {notes:?}");
    assert_eq!(client.result(5, "logging/setLevel", json!({"level": "emergency"})).await, json!({}));
    client.send_request(6, "tools/call", call("chatty", json!({}))).await;
    let (notes, _) = client.response_with_notes(&json!(6)).await;
    assert!(notes.is_empty(), "{transport}: nothing at or above emergency: {notes:?}");
    client.assert_quiet(QUIET).await;
}

async fn a_cancelled_call_gets_no_response_and_the_tool_sees_the_cancellation(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_06).await;
    let key = format!("behaviour-cancel-{transport}");
    let params = json!({"name": "wait", "arguments": {"key": key, "ms": 20_000}, "_meta": {"progressToken": "c"}});
    client.send_request(9, "tools/call", params).await;
    let started = client.next_notification().await;
    assert_eq!(started["params"]["message"], "started", "{transport}: {started}");
    client.notify("notifications/cancelled", json!({"requestId": 9, "reason": "changed my mind"})).await;
    let seen = observed_within(&key, WAIT).await;
    assert!(saw_cancellation(&seen), "{transport}: the tool saw the cancellation: {seen:?}");
    client.assert_quiet(QUIET).await;
    sync(&mut client).await;
    // The cancelled call's id can be used again.
    let result = client.result(9, "tools/call", call("add", json!({"a": 5, "b": 5}))).await;
    assert_eq!(text(&result), "10", "{transport}");
}

async fn a_duplicate_in_flight_id_is_an_invalid_request(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    let key = format!("behaviour-dup-{transport}");
    let params = json!({"name": "wait", "arguments": {"key": key, "ms": 500}, "_meta": {"progressToken": "d"}});
    client.send_request(5, "tools/call", params).await;
    client.next_notification().await;
    client.send_request(5, "tools/call", call("add", json!({"a": 1, "b": 2}))).await;
    let refused = client.recv().await;
    assert_eq!(refused["id"], 5, "{transport}: {refused}");
    assert_eq!(refused["error"]["code"], INVALID_REQUEST, "{transport}: {refused}");
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("id 5"), "{transport}: the message names the id: {refused}");
    let first = client.recv().await;
    assert_eq!(first["id"], 5, "{transport}: {first}");
    assert_eq!(text(&first["result"]), "waited 500 ms", "{transport}: the first request still runs: {first}");
    assert_eq!(observed_within(&key, WAIT).await, ["finished"], "{transport}");
    // The same id as a string is another id.
    let key = format!("behaviour-dup-string-{transport}");
    client.send_request(10, "tools/call", call("wait", json!({"key": key, "ms": 300}))).await;
    let result = client.result("10", "tools/call", call("add", json!({"a": 1, "b": 2}))).await;
    assert_eq!(text(&result), "3", "{transport}");
    let (_, response) = client.response_with_notes(&json!(10)).await;
    assert_eq!(text(&response["result"]), "waited 300 ms", "{transport}: {response}");
}

async fn legacy_clients_hear_list_changed_after_a_tool_is_added(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_03).await;
    sync(&mut client).await;
    client.toolbox().tools().try_add(late).expect("a new tool");
    let note = client.next_notification().await;
    assert_eq!(note["method"], "notifications/tools/list_changed", "{transport}: {note}");
    assert!(note["params"]["_meta"].get(SUBSCRIPTION_ID_KEY).is_none(), "{transport}: no listen to name: {note}");
    let list = client.result(1, "tools/list", json!({})).await;
    assert!(tool_names(&list).ends_with(&["late"]), "{transport}: added last: {list}");
    let result = client.result(2, "tools/call", call("late", json!({}))).await;
    assert_eq!(text(&result), "late", "{transport}");
    // Removing a tool is a change too.
    assert!(client.toolbox().tools().remove("late"));
    let note = client.next_notification().await;
    assert_eq!(note["method"], "notifications/tools/list_changed", "{transport}: {note}");
    client.assert_quiet(Duration::from_millis(200)).await;
}

async fn modern_listen_is_acknowledged_and_hears_list_changed(transport: Transport) {
    // Tools only: no prompts whose list could change.
    let mut client = Client::start(transport, codeagent::Server::new(toolbox())).await;
    let params = modern(json!({"notifications": {"toolsListChanged": true, "promptsListChanged": true}}));
    client.send_request("listen-1", "subscriptions/listen", params).await;
    let ack = client.next_notification().await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged", "{transport}: {ack}");
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1", "{transport}: {ack}");
    let honoured = &ack["params"]["notifications"];
    assert_eq!(*honoured, json!({"toolsListChanged": true}), "{transport}: only what is honoured: {ack}");
    let started = Instant::now();
    client.toolbox().tools().try_add(late).expect("a new tool");
    let note = client.next_notification().await;
    assert_eq!(note["method"], "notifications/tools/list_changed", "{transport}: {note}");
    assert_eq!(note["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1", "{transport}: {note}");
    assert!(started.elapsed() < WAIT);
    // The listen stays open: no response; and no legacy announcement.
    client.assert_quiet(QUIET).await;
    // A listen without toolsListChanged hears nothing.
    client.send_request(2, "subscriptions/listen", modern(json!({"notifications": {}}))).await;
    let ack = client.next_notification().await;
    assert_eq!(ack["params"]["_meta"][SUBSCRIPTION_ID_KEY], 2, "{transport}: {ack}");
    assert_eq!(ack["params"]["notifications"], json!({}), "{transport}: {ack}");
    client.toolbox().tools().try_add(later).expect("another new tool");
    let note = client.next_notification().await;
    assert_eq!(note["params"]["_meta"][SUBSCRIPTION_ID_KEY], "listen-1", "{transport}: only listen-1 asked: {note}");
    client.assert_quiet(QUIET).await;
}
