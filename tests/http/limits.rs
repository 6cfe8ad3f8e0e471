//! What bounds the server per client (issue 34): the events kept for
//! resumption, within a byte budget per session (the oldest dropped first,
//! the live connection unaffected, a resume past what was kept refused with
//! a reason), and the sessions one client may open (refused past the limit,
//! nobody else's session evicted).

use crate::common;

use codeagent::server::http::HttpOptions;
use hyper::StatusCode;
use serde_json::{Value, json};

use common::http::*;
use common::*;

/// Answers `bytes` bytes of text.
#[codeagent::tool]
pub fn bulk(
    /// How many bytes.
    bytes: usize,
) -> String {
    "x".repeat(bytes)
}

async fn start_with(options: HttpOptions) -> Endpoint {
    start(server_of(common::tools::http_toolbox().tool(bulk)), options).await
}

/// The error message of a JSON-RPC error response with `status`.
async fn refusal(response: Response, status: StatusCode) -> String {
    assert_eq!(response.status, status);
    let message = response.json().await;
    message["error"]["message"].as_str().unwrap_or_else(|| panic!("an error message: {message}")).to_owned()
}

// ---------------------------------------------------------------------------
// Resumption within a budget
// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_session_keeps_no_more_than_its_budget_for_resumption() {
    bounded(async {
        // The defaults: 1 MiB per session; 40 results of 30 kB are more.
        let served = start_with(HttpOptions::new()).await;
        let session = open_session(served.addr, V2025_11).await;
        let mut primings = Vec::new();
        for id in 0..40 {
            let call = request(id, "tools/call", json!({"name": "bulk", "arguments": {"bytes": 30_000}}));
            let mut stream = session.post().json(&call).send().await.sse();
            primings.push(stream.next().await.expect("the priming event").id.expect("an id"));
            let response = stream.next_message().await.expect("the response, live");
            assert_eq!(first_text(&response).len(), 30_000, "every result goes out whole");
        }
        let first = session.get().header("Last-Event-ID", &primings[0]).send().await;
        let message = refusal(first, StatusCode::NOT_FOUND).await;
        assert!(message.contains("no longer kept"), "the refusal says why: {message}");
        let last = session.get().header("Last-Event-ID", &primings[39]).send().await.sse().rest().await;
        let replayed: Vec<Value> = last.iter().filter(|event| event.has_message()).map(Event::message).collect();
        assert_eq!(replayed.len(), 1, "the newest stream is kept");
        assert_eq!(replayed[0]["id"], 39);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_the_session_budget_the_oldest_events_go_first() {
    bounded(async {
        let served = start_with(HttpOptions::new().with_resume_bytes_per_session(400)).await;
        let session = open_session(served.addr, V2025_11).await;
        let call = request(
            8,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 4}, "_meta": {"progressToken": "t"}}),
        );
        let stream = session.post().json(&call).send().await.sse();
        let events = stream.rest().await;
        let ids: Vec<&str> = events.iter().filter_map(|event| event.id.as_deref()).collect();
        let messages: Vec<Value> = events.iter().filter(|event| event.has_message()).map(Event::message).collect();
        assert_eq!(messages.len(), 5, "every event went out live: {messages:?}");
        assert_eq!(messages[4]["id"], 8);
        // The oldest are no longer kept: a resume from the start is refused ...
        let message = refusal(session.get().header("Last-Event-ID", ids[0]).send().await, StatusCode::NOT_FOUND).await;
        assert!(message.contains("no longer kept"), "{message}");
        // ... and one from the last notification gets the response.
        let before_last = ids[ids.len() - 2];
        let resumed = session.get().header("Last-Event-ID", before_last).send().await.sse().rest().await;
        let replayed: Vec<Value> = resumed.iter().filter(|event| event.has_message()).map(Event::message).collect();
        assert_eq!(replayed.len(), 1, "{replayed:?}");
        assert_eq!(first_text(&replayed[0]), "4 steps");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resume_of_a_stream_not_kept_is_refused_not_answered_with_a_fresh_stream() {
    bounded(async {
        let served = start_with(HttpOptions::new()).await;
        let session = open_session(served.addr, V2025_11).await;
        let unknown = session.get().header("Last-Event-ID", "12345-1").send().await;
        let message = refusal(unknown, StatusCode::NOT_FOUND).await;
        assert!(message.contains("stream 12345 is not kept"), "{message}");
        let garbage = session.get().header("Last-Event-ID", "yesterday").send().await;
        let message = refusal(garbage, StatusCode::BAD_REQUEST).await;
        assert!(message.contains("Last-Event-ID `yesterday`"), "{message}");
        // Without the header the GET still opens the session's stream.
        assert!(session.get().send().await.is_sse());
    })
    .await;
}

// ---------------------------------------------------------------------------
// Sessions per client
// ---------------------------------------------------------------------------

async fn initialize(call: Call) -> Response {
    call.json(&initialize_request(V2025_11)).send().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_cannot_evict_the_others_by_opening_sessions() {
    bounded(async {
        // As many sessions in all as one client may open (64 by default).
        let served = start_with(HttpOptions::new().with_max_sessions(64)).await;
        let first = open_session(served.addr, V2025_11).await;
        for _ in 1..64 {
            assert_eq!(initialize(post(served.addr)).await.status, StatusCode::OK);
        }
        let message = refusal(initialize(post(served.addr)).await, StatusCode::TOO_MANY_REQUESTS).await;
        assert!(message.contains("64 live sessions"), "the refusal names the limit: {message}");
        assert!(message.contains("with_max_sessions_per_client"), "and its knob: {message}");
        // The refused session evicted nobody: the first, unused the longest, is live.
        first.call(1, "tools/list", json!({}), "ListToolsResult").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_whose_session_ended_may_open_another() {
    bounded(async {
        let served = start_with(HttpOptions::new().with_max_sessions_per_client(2)).await;
        let first = open_session(served.addr, V2025_11).await;
        open_session(served.addr, V2025_11).await;
        let refused = initialize(post(served.addr)).await;
        assert!(refusal(refused, StatusCode::TOO_MANY_REQUESTS).await.contains("2 live sessions"));
        assert_eq!(first.delete().send().await.status, StatusCode::OK);
        assert_eq!(initialize(post(served.addr)).await.status, StatusCode::OK);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forwarded_address_counts_only_from_a_header_configured_as_trusted() {
    bounded(async {
        let from = |addr, client: &str| post(addr).header("x-forwarded-for", client);
        let untrusted = start_with(HttpOptions::new().with_max_sessions_per_client(1)).await;
        assert_eq!(initialize(from(untrusted.addr, "203.0.113.1")).await.status, StatusCode::OK);
        let second = initialize(from(untrusted.addr, "203.0.113.2")).await;
        assert_eq!(second.status, StatusCode::TOO_MANY_REQUESTS, "the header is anyone's to write");
        let options = HttpOptions::new().with_max_sessions_per_client(1).with_client_address_header("X-Forwarded-For");
        let behind_proxy = start_with(options).await;
        assert_eq!(initialize(from(behind_proxy.addr, "203.0.113.1")).await.status, StatusCode::OK);
        assert_eq!(initialize(from(behind_proxy.addr, "198.51.100.9, 203.0.113.2")).await.status, StatusCode::OK);
        let again = initialize(from(behind_proxy.addr, "203.0.113.1")).await;
        assert_eq!(again.status, StatusCode::TOO_MANY_REQUESTS);
    })
    .await;
}
