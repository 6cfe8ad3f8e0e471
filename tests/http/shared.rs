//! Legacy sessions shared by two instances through one store
//! (`HttpOptions::with_store`, here a `MemoryStore`; `.ci/run` repeats the
//! story with two processes, Redis and nginx): consecutive requests of one
//! client land on different instances, as behind a round-robin balancer.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use codeagent::Server;
use codeagent::server::http::HttpOptions;
use codeagent::server::store::{MemoryStore, Store, StoreError, StoreFuture};
use codeagent::server::{CLIENT_CAPABILITIES_KEY, StateKeys};
use hyper::StatusCode;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use common::http::*;
use common::tools::{confirm, http_toolbox, observed_within, resources, saw_cancellation};
use common::*;

/// One instance: the HTTP tests' tools, resources and `confirm`.
fn instance() -> Server {
    Server::new(resources(http_toolbox()).tool(confirm)).with_name("http-test").with_version("1.0.0")
}

/// Two instances sharing `store`.
async fn pair(store: Arc<dyn Store>) -> (Endpoint, Endpoint) {
    let first = start(instance(), HttpOptions::new().with_store(Arc::clone(&store))).await;
    let second = start(instance(), HttpOptions::new().with_store(store)).await;
    (first, second)
}

/// `session` as seen through the other instance at `addr`.
fn via(session: &Session, addr: std::net::SocketAddr) -> Session {
    Session { addr, id: session.id.clone(), version: session.version }
}

/// Opens a 2025-11-25 session on `addr` declaring `capabilities`.
async fn open_with(addr: std::net::SocketAddr, capabilities: Value) -> Session {
    let mut initialize = initialize_request(V2025_11);
    initialize["params"]["capabilities"] = capabilities;
    let response = post(addr).json(&initialize).send().await;
    assert_eq!(response.status, StatusCode::OK);
    let id = response.header("mcp-session-id").expect("an Mcp-Session-Id").to_owned();
    check_result(V2025_11, "InitializeResult", &response.json().await);
    Session { addr, id, version: V2025_11 }
}

fn initialized() -> Value {
    json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_opened_on_one_instance_is_served_and_ended_by_the_other() {
    bounded(async {
        let (a, b) = pair(Arc::new(MemoryStore::new())).await;
        let on_a = open_with(a.addr, json!({})).await;
        let on_b = via(&on_a, b.addr);
        assert_eq!(on_b.post().json(&initialized()).send().await.status, StatusCode::ACCEPTED);
        let listing = on_b.call(1, "tools/list", json!({}), "ListToolsResult").await;
        assert!(tool_names(&listing).contains(&"steps"), "{listing}");
        // The level set on one instance filters the logs of a call on the other.
        on_a.call(2, "logging/setLevel", json!({"level": "warning"}), "EmptyResult").await;
        let call = request(3, "tools/call", json!({"name": "chatty", "arguments": {}}));
        let (notes, message) = on_b.post().json(&call).send().await.exchange().await;
        let levels: Vec<&str> = notes.iter().map(|note| note["params"]["level"].as_str().unwrap()).collect();
        assert_eq!(levels, ["warning", "error"], "{notes:?}");
        assert_eq!(first_text(&message), "logged");
        // Ended on one instance, the session is gone on both.
        assert_eq!(delete(b.addr).header("Mcp-Session-Id", &on_a.id).send().await.status, StatusCode::OK);
        let after = on_a.post().json(&request(4, "tools/list", json!({}))).send().await;
        expect_error(after, StatusCode::NOT_FOUND, INVALID_REQUEST, json!(4), V2025_11).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_posted_to_the_other_instance_reaches_the_tool_that_asked() {
    bounded(async {
        let (a, b) = pair(Arc::new(MemoryStore::new())).await;
        // Capabilities declared through one instance let the other ask.
        let on_b = open_with(b.addr, json!({"elicitation": {}})).await;
        assert_eq!(on_b.post().json(&initialized()).send().await.status, StatusCode::ACCEPTED);
        let on_a = via(&on_b, a.addr);
        let call = request(7, "tools/call", json!({"name": "confirm", "arguments": {}}));
        let mut stream = on_a.post().json(&call).send().await.sse();
        let asked = loop {
            let message = stream.next_message().await.expect("the question");
            if message.get("method").is_some() && message.get("id").is_some() {
                break message;
            }
        };
        assert_eq!(asked["method"], "elicitation/create", "{asked}");
        let answer =
            json!({"jsonrpc": "2.0", "id": asked["id"], "result": {"action": "accept", "content": {"ok": true}}});
        assert_eq!(on_b.post().json(&answer).send().await.status, StatusCode::ACCEPTED);
        let response = loop {
            let message = stream.next_message().await.expect("the response");
            if message.get("id") == Some(&json!(7)) {
                break message;
            }
        };
        check_result(V2025_11, "CallToolResult", &response);
        assert_eq!(first_text(&response), "ok: true");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_begun_on_one_instance_is_resumed_on_the_other() {
    bounded(async {
        let (a, b) = pair(Arc::new(MemoryStore::new())).await;
        let on_a = open_session(a.addr, V2025_11).await;
        let call = request(
            8,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 4}, "_meta": {"progressToken": "t"}}),
        );
        let mut stream = on_a.post().json(&call).send().await.sse();
        stream.next().await.expect("the priming event");
        let first = stream.next().await.expect("the first progress event");
        assert_eq!(first.message()["params"]["progress"], 1.0);
        drop(stream);
        let resumed = via(&on_a, b.addr).get().header("Last-Event-ID", first.id.clone().unwrap()).send().await;
        assert_eq!(resumed.status, StatusCode::OK);
        let events = resumed.sse().rest().await;
        let messages: Vec<Value> = events.iter().filter(|event| event.has_message()).map(Event::message).collect();
        let (response, notes) = messages.split_last().expect("replayed messages");
        let progress: Vec<&Value> = notes.iter().map(|note| &note["params"]["progress"]).collect();
        assert_eq!(progress, [2.0, 3.0, 4.0], "the rest, nothing twice: {messages:?}");
        assert_eq!(response["id"], 8);
        assert_eq!(first_text(response), "4 steps");
        let ids: Vec<&str> = events.iter().filter_map(|event| event.id.as_deref()).collect();
        assert!(!ids.contains(&first.id.as_deref().unwrap()), "{ids:?}");
        // A stream no instance has is not resumed, nor answered with a fresh
        // stream the client would take for the rest of the one it lost: 404.
        let unknown = via(&on_a, b.addr).get().header("Last-Event-ID", "12345-1").send().await;
        assert_eq!(unknown.status, StatusCode::NOT_FOUND);
        let message = unknown.json().await;
        assert!(message["error"]["message"].as_str().unwrap().contains("stream 12345 is not kept"), "{message}");
    })
    .await;
}

/// Starts call `id` of the `wait` tool (20 s, recording under `key`) in
/// `session`: its stream, once the tool has said it started.
async fn waiting(session: &Session, id: i64, key: &str) -> Sse {
    let arguments = json!({"key": key, "ms": 20_000});
    let call =
        request(id, "tools/call", json!({"name": "wait", "arguments": arguments, "_meta": {"progressToken": key}}));
    let mut stream = session.post().json(&call).send().await.sse();
    assert_eq!(stream.next_message().await.expect("started")["params"]["message"], "started");
    stream
}

/// Asserts that the `wait` call recording under `key` was cancelled and its
/// `stream` ends without a response.
async fn assert_cancelled(key: &str, mut stream: Sse) {
    assert!(saw_cancellation(&observed_within(key, WAIT).await), "the tool on the first instance stopped");
    while let Some(message) = stream.next_message().await {
        assert!(message.get("id").is_none(), "a cancelled request gets no response: {message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancellation_posted_to_the_other_instance_stops_the_tool() {
    bounded(async {
        let (a, b) = pair(Arc::new(MemoryStore::new())).await;
        let on_a = open_session(a.addr, V2025_11).await;
        let stream = waiting(&on_a, 9, "shared-cancel").await;
        let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 9}});
        assert_eq!(via(&on_a, b.addr).post().json(&cancel).send().await.status, StatusCode::ACCEPTED);
        assert_cancelled("shared-cancel", stream).await;
    })
    .await;
}

/// A 2025-03-26 batch landing on the other instance: the cancellation in it
/// goes to the instance that runs the call; its request is answered here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_posted_to_the_other_instance_forwards_its_cancellation_and_answers_the_rest() {
    bounded(async {
        let (a, b) = pair(Arc::new(MemoryStore::new())).await;
        let on_a = open_session(a.addr, V2025_03).await;
        let stream = waiting(&on_a, 10, "shared-batch-cancel").await;
        let batch = json!([
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 10}},
            request(11, "tools/call", json!({"name": "add", "arguments": {"a": 40, "b": 2}})),
        ]);
        assert_schema(V2025_03, "JSONRPCBatchRequest", &batch);
        let response = via(&on_a, b.addr).post().json(&batch).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let answer = response.json().await;
        assert_schema(V2025_03, "JSONRPCBatchResponse", &answer);
        let answers = answer.as_array().expect("one JSON array");
        assert_eq!(answers.len(), 1, "the request's response only: {answer}");
        assert_eq!(answers[0]["id"], 11);
        check_result(V2025_03, "CallToolResult", &answers[0]);
        assert_eq!(first_text(&answers[0]), "42");
        assert_cancelled("shared-batch-cancel", stream).await;
        // A batch of cancellations only is forwarded whole: nothing to answer.
        let stream = waiting(&on_a, 12, "shared-batch-2").await;
        let cancel = json!([{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 12}}]);
        assert_eq!(via(&on_a, b.addr).post().json(&cancel).send().await.status, StatusCode::ACCEPTED);
        assert_cancelled("shared-batch-2", stream).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_update_on_one_instance_reaches_a_stream_on_the_other() {
    bounded(async {
        let (a, b) = pair(Arc::new(MemoryStore::new())).await;
        let on_a = open_session(a.addr, V2025_11).await;
        on_a.call(1, "resources/subscribe", json!({"uri": "file:///notes.txt"}), "EmptyResult").await;
        let mut stream = via(&on_a, b.addr).get().header("accept", "text/event-stream").send().await.sse();
        // The GET handler subscribes in a task of its own: update until heard.
        let heard = tokio::time::timeout(WAIT, async {
            loop {
                a.toolbox.resources().notify_updated("file:///notes.txt");
                if let Ok(Some(message)) = tokio::time::timeout(Duration::from_millis(200), stream.next_message()).await
                {
                    break message;
                }
            }
        })
        .await
        .expect("the update crossed to the other instance");
        check_notification(V2025_11, &heard);
        assert_eq!(heard["method"], "notifications/resources/updated");
        assert_eq!(heard["params"]["uri"], "file:///notes.txt");
    })
    .await;
}

/// A store that fails while `down` is set, like a Redis that went away.
struct Flaky {
    inner: MemoryStore,
    down: AtomicBool,
}

impl Flaky {
    fn check(&self) -> Result<(), StoreError> {
        if self.down.load(Ordering::SeqCst) {
            Err(StoreError::new("connection refused (the test took it down)"))
        } else {
            Ok(())
        }
    }
}

macro_rules! flaky {
    ($self:ident, $call:expr) => {{
        match $self.check() {
            Ok(()) => $call,
            Err(error) => Box::pin(std::future::ready(Err(error))),
        }
    }};
}

impl Store for Flaky {
    fn get(&self, key: &str, ttl: Duration) -> StoreFuture<'_, Option<String>> {
        flaky!(self, self.inner.get(key, ttl))
    }
    fn set(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, ()> {
        flaky!(self, self.inner.set(key, value, ttl))
    }
    fn set_if_absent(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, String> {
        flaky!(self, self.inner.set_if_absent(key, value, ttl))
    }
    fn delete(&self, key: &str) -> StoreFuture<'_, bool> {
        flaky!(self, self.inner.delete(key))
    }
    fn push(&self, key: &str, item: String, ttl: Duration) -> StoreFuture<'_, ()> {
        flaky!(self, self.inner.push(key, item, ttl))
    }
    fn items(&self, key: &str, from: usize) -> StoreFuture<'_, Vec<String>> {
        flaky!(self, self.inner.items(key, from))
    }
    fn publish(&self, message: String) -> StoreFuture<'_, ()> {
        flaky!(self, self.inner.publish(message))
    }
    fn subscribe(&self) -> broadcast::Receiver<String> {
        self.inner.subscribe()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_the_store_is_down_requests_get_503_naming_it_and_then_recover() {
    bounded(async {
        let store = Arc::new(Flaky { inner: MemoryStore::new(), down: AtomicBool::new(false) });
        let (a, b) = pair(store.clone()).await;
        let session = open_session(a.addr, V2025_11).await;
        store.down.store(true, Ordering::SeqCst);
        let refused = via(&session, b.addr).post().json(&request(1, "tools/list", json!({}))).send().await;
        let message = expect_error(refused, StatusCode::SERVICE_UNAVAILABLE, INTERNAL_ERROR, json!(1), V2025_11).await;
        let text = message["error"]["message"].as_str().unwrap();
        assert!(text.contains("session store") && text.contains("connection refused"), "{message}");
        let opening = post(b.addr).json(&initialize_request(V2025_11)).send().await;
        assert_eq!(opening.status, StatusCode::SERVICE_UNAVAILABLE, "no session that others could not find");
        assert!(opening.header("mcp-session-id").is_none());
        // Stateless 2026-07-28 requests need no store.
        modern_ok(b.addr, &modern(2, "tools/list", json!({})), "ListToolsResult").await;
        store.down.store(false, Ordering::SeqCst);
        let listing = via(&session, b.addr).call(3, "tools/list", json!({}), "ListToolsResult").await;
        assert!(tool_names(&listing).contains(&"confirm"));
    })
    .await;
}

/// Two instances sharing a store, results over 1 KiB of portable text kept.
async fn budgeted_pair() -> (Endpoint, Endpoint) {
    let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
    let budget = codeagent::tools::ResultBudget::new().with_value_bytes(1024);
    let server = || instance().with_result_budget(budget);
    let first = start(server(), HttpOptions::new().with_store(Arc::clone(&store))).await;
    let second = start(server(), HttpOptions::new().with_store(store)).await;
    (first, second)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_result_over_budget_kept_by_one_instance_is_read_from_the_other() {
    bounded(async {
        let (a, b) = budgeted_pair().await;
        let on_a = open_session(a.addr, V2025_11).await;
        let name = "x".repeat(3000);
        let call = json!({"name": "forecast", "arguments": {"city": name}});
        let preview = on_a.call(1, "tools/call", call, "CallToolResult").await;
        let link = &preview["result"]["content"][1];
        assert_eq!(link["type"], "resource_link", "{preview}");
        let uri = link["uri"].as_str().unwrap();
        let read = via(&on_a, b.addr).call(2, "resources/read", json!({"uri": uri}), "ReadResourceResult").await;
        let whole: Value = serde_json::from_str(read["result"]["contents"][0]["text"].as_str().unwrap()).unwrap();
        assert!(whole["content"][0]["text"].as_str().unwrap().contains(&name), "the whole result: {whole}");
        let missing = format!("{}{}", &uri[..uri.len() - 4], "0000");
        let read_missing = request(3, "resources/read", json!({"uri": missing}));
        let response = via(&on_a, b.addr).post().header("accept", "application/json").json(&read_missing).send().await;
        let error = response.json().await;
        assert!(error["error"]["message"].as_str().unwrap().contains("Resource not found"), "{error}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listen_stream_on_one_instance_hears_a_change_made_on_the_other() {
    bounded(async {
        let (a, b) = pair(Arc::new(MemoryStore::new())).await;
        let listen = modern(5, "subscriptions/listen", json!({"notifications": {"toolsListChanged": true}}));
        let mut stream = modern_post(b.addr, &listen).send().await.sse();
        let acknowledged = stream.next_message().await.expect("the acknowledgement");
        assert_eq!(acknowledged["method"], "notifications/subscriptions/acknowledged", "{acknowledged}");
        a.toolbox.tools().try_add(common::tools::late).expect("adding a tool on the first instance");
        let note = stream.next_message().await.expect("the change, heard on the second instance");
        check_notification(V2026, &note);
        assert_eq!(note["method"], "notifications/tools/list_changed");
        assert_eq!(note["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 5, "{note}");
    })
    .await;
}

/// An instance mounted with `http_router` in an application's own axum
/// server (no `serve_http`), sharing `store`.
async fn mounted(store: Arc<dyn Store>) -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    let router = instance().http_router(HttpOptions::new().with_store(store)).await.expect("the MCP router");
    let app = axum::Router::new().merge(router);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("binding 127.0.0.1:0");
    let addr = listener.local_addr().unwrap();
    (addr, tokio::spawn(async move { axum::serve(listener, app).await.expect("serving the application") }))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_router_mounted_in_an_application_seals_request_state_with_the_stores_key() {
    bounded(async {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let (first, task) = mounted(Arc::clone(&store)).await;
        let elicitation = json!({"elicitation": {"form": {}}});
        let mut params = json!({"name": "confirm", "arguments": {}});
        let mut asking = modern(1, "tools/call", params.clone());
        asking["params"]["_meta"][CLIENT_CAPABILITIES_KEY] = elicitation.clone();
        let round = modern_ok(first, &asking, "CallToolResult").await["result"].clone();
        assert_eq!(round["resultType"], "input_required", "{round}");
        let (key, _) = round["inputRequests"].as_object().unwrap().iter().next().expect("one question");
        params["inputResponses"] = json!({ key.as_str(): {"action": "accept", "content": {"ok": true}} });
        params["requestState"] = round["requestState"].clone();
        let mut retry = modern(2, "tools/call", params);
        retry["params"]["_meta"][CLIENT_CAPABILITIES_KEY] = elicitation;
        // The key is the store's, as with `serve_http`: any instance that
        // shares the store (here one given that key outright) opens the state.
        let secret = store.get("state-key", Duration::from_secs(60)).await.unwrap().expect("a key in the store");
        let keys = StateKeys::new([secret.trim()]).unwrap();
        let other = start(instance().with_state_keys(keys), HttpOptions::new()).await;
        let done = modern_ok(other.addr, &retry, "CallToolResult").await["result"].clone();
        assert_eq!(
            (&done["resultType"], &done["content"][0]["text"]),
            (&json!("complete"), &json!("ok: true")),
            "{done}"
        );
        // An instance with a key of its own refuses it.
        let stranger =
            start(instance().with_state_keys(StateKeys::new(["x".repeat(32)]).unwrap()), HttpOptions::new()).await;
        let refused = modern_post(stranger.addr, &retry).send().await.json().await;
        assert!(refused["error"]["message"].as_str().unwrap().contains("`requestState` is refused"), "{refused}");
        task.abort();
    })
    .await;
}
