//! What middleware sees of a request: its HTTP headers over HTTP (none over
//! stdio), its client, and the caller it hands on to the tool.

use std::sync::{Arc, Mutex};

use codeagent::server::http::HttpOptions;
use serde_json::{Value, json};

use super::{call, caller_from_client_name, modern_as, server, text};
use crate::common::V2025_11;
use crate::common::client::{Client, Transport};
use crate::common::http::{modern, modern_post, open_session, request, start};

over_both!(the_caller_a_middleware_sets_reaches_the_tool, middleware_sees_headers_only_over_http);

async fn the_caller_a_middleware_sets_reaches_the_tool(transport: Transport) {
    let mut client = Client::start(transport, caller_from_client_name(server())).await;
    let result = client.result(1, "tools/call", modern_as("erin", call("whoami", json!({})))).await;
    assert_eq!(text(&result), "erin", "{transport}: {result}");
    client.initialize(V2025_11).await;
    let result = client.result(2, "tools/call", call("whoami", json!({}))).await;
    assert_eq!(text(&result), "behaviour-tests", "{transport}: the legacy client's name from initialize: {result}");
}

/// Records the `user-agent`-like header `x-test` each request came with.
fn recording(seen: &Arc<Mutex<Vec<Option<String>>>>) -> codeagent::Server {
    let seen = Arc::clone(seen);
    server().around_calls(move |call, next| {
        seen.lock().unwrap().push(call.header("x-test").map(str::to_owned));
        next.run(call)
    })
}

async fn middleware_sees_headers_only_over_http(transport: Transport) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    if transport == Transport::Stdio {
        let mut client = Client::start(transport, recording(&seen)).await;
        client.initialize(V2025_11).await;
        client.result(1, "tools/call", call("add", json!({"a": 1, "b": 1}))).await;
        assert_eq!(*seen.lock().unwrap(), [None], "no headers over stdio");
        return;
    }
    let endpoint = start(recording(&seen), HttpOptions::new()).await;
    let message = modern(1, "tools/call", call("add", json!({"a": 1, "b": 1})));
    let response: Value = modern_post(endpoint.addr, &message)
        .header("x-test", "modern")
        .header("accept", "application/json")
        .send()
        .await
        .json()
        .await;
    assert_eq!(response["result"]["content"][0]["text"], "2", "{response}");
    let session = open_session(endpoint.addr, V2025_11).await;
    let message = request(2, "tools/call", call("add", json!({"a": 1, "b": 1})));
    let response =
        session.post().header("accept", "application/json").header("x-test", "legacy").json(&message).send().await;
    let response = response.json().await;
    assert_eq!(response["result"]["content"][0]["text"], "2", "{response}");
    assert_eq!(*seen.lock().unwrap(), [Some("modern".to_owned()), Some("legacy".to_owned())]);
}
