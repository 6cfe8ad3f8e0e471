//! Streamable HTTP, legacy era (2025-03-26 to 2025-11-25): sessions, SSE
//! streams, resumability, batches, cancellation (`common::http`): how
//! messages travel. What they say, the same over every transport, is tested
//! in `tests/behaviour`.

use crate::common;

use std::time::Duration;

use codeagent::server::http::HttpOptions;
use hyper::StatusCode;
use serde_json::{Value, json};

use common::http::*;
use common::tools::late;
use common::*;

// ===========================================================================
// Legacy Streamable HTTP (2025-03-26 to 2025-11-25)
// ===========================================================================

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_initialize_opens_a_session() {
    bounded(async {
        let served = endpoint().await;
        let mut ids = Vec::new();
        for version in [V2025_03, V2025_06, V2025_11] {
            let response = post(served.addr).json(&initialize_request(version)).send().await;
            assert_eq!(response.status, StatusCode::OK);
            let id = response.header("mcp-session-id").expect("an Mcp-Session-Id header").to_owned();
            assert!(!id.is_empty() && id.bytes().all(|byte| (0x21..=0x7e).contains(&byte)), "visible ASCII: {id:?}");
            ids.push(id);
            let message = response.json().await;
            assert_eq!(message["id"], 0);
            check_result(version, "InitializeResult", &message);
        }
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 3, "every session gets its own id");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_initialized_notification_is_202() {
    bounded(async {
        let served = endpoint().await;
        let response = post(served.addr).json(&initialize_request(V2025_11)).send().await;
        let id = response.header("mcp-session-id").unwrap().to_owned();
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let response = post(served.addr)
            .header("Mcp-Session-Id", &id)
            .header("MCP-Protocol-Version", "2025-11-25")
            .json(&initialized)
            .send()
            .await;
        assert_eq!(response.status, StatusCode::ACCEPTED);
        assert!(response.bytes().await.is_empty(), "a 202 has no body");
    })
    .await;
}

/// A session of each version answers requests accepting JSON only with a
/// 200 and a JSON body (`Session::call` asserts both).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_tools_list_in_a_session_is_json() {
    bounded(async {
        let served = endpoint().await;
        for version in [V2025_03, V2025_06, V2025_11] {
            let session = open_session(served.addr, version).await;
            session.call(1, "tools/list", json!({}), "ListToolsResult").await;
            let add = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
            session.call(2, "tools/call", add, "CallToolResult").await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_request_without_a_session_is_400() {
    bounded(async {
        let served = endpoint().await;
        let response = post(served.addr)
            .header("MCP-Protocol-Version", "2025-11-25")
            .json(&request(1, "tools/list", json!({})))
            .send()
            .await;
        // The error carries the request's id, which the server could read.
        let message = expect_error(response, StatusCode::BAD_REQUEST, INVALID_REQUEST, json!(1), V2025_11).await;
        assert!(message["error"]["message"].as_str().unwrap().contains("Mcp-Session-Id"), "{message}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_unknown_session_is_404() {
    bounded(async {
        let served = endpoint().await;
        let response = post(served.addr)
            .header("Mcp-Session-Id", "no-such-session")
            .header("MCP-Protocol-Version", "2025-11-25")
            .json(&request(7, "tools/list", json!({})))
            .send()
            .await;
        expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, json!(7), V2025_11).await;
        let response = get(served.addr).header("Mcp-Session-Id", "no-such-session").send().await;
        expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, Value::Null, V2025_11).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_notifications_and_responses_need_a_known_session() {
    bounded(async {
        let served = endpoint().await;
        let notification = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let response = json!({"jsonrpc": "2.0", "id": 0, "result": {}});
        for message in [notification, response] {
            let unknown = post(served.addr)
                .header("Mcp-Session-Id", "no-such-session")
                .header("MCP-Protocol-Version", "2025-11-25")
                .json(&message)
                .send()
                .await;
            expect_error(unknown, StatusCode::NOT_FOUND, INVALID_REQUEST, Value::Null, V2025_11).await;
            let missing = post(served.addr).header("MCP-Protocol-Version", "2025-11-25").json(&message).send().await;
            expect_error(missing, StatusCode::BAD_REQUEST, INVALID_REQUEST, Value::Null, V2025_11).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_sessions_past_the_cap_end_the_least_recently_used() {
    bounded(async {
        let served = start(server(), HttpOptions::new().with_max_sessions(3)).await;
        let mut sessions = Vec::new();
        for _ in 0..5 {
            sessions.push(open_session(served.addr, V2025_11).await);
        }
        for (index, session) in sessions.iter().enumerate() {
            let response = session.post().json(&request(1, "tools/list", json!({}))).send().await;
            if index < 2 {
                expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, json!(1), V2025_11).await;
            } else {
                assert_eq!(response.status, StatusCode::OK, "session {index}");
            }
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_delete_ends_the_session() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        session.call(1, "tools/list", json!({}), "ListToolsResult").await;
        let response = delete(served.addr).header("Mcp-Session-Id", &session.id).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let response = session.post().json(&request(2, "tools/list", json!({}))).send().await;
        expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, json!(2), V2025_11).await;
        let response = delete(served.addr).header("Mcp-Session-Id", &session.id).send().await;
        expect_error(response, StatusCode::NOT_FOUND, INVALID_REQUEST, Value::Null, V2025_11).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_unsupported_protocol_version_header_is_400() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_06).await;
        for bad in ["1999-01-01", "not-a-version"] {
            let response = session
                .post()
                .header("MCP-Protocol-Version", bad)
                .json(&request(3, "tools/list", json!({})))
                .send()
                .await;
            assert_eq!(response.status, StatusCode::BAD_REQUEST, "MCP-Protocol-Version: {bad}");
            let message = response.json().await;
            check_error(V2025_11, &message);
            assert!(message["error"]["message"].as_str().unwrap().contains("MCP-Protocol-Version"), "{message}");
        }
        // The session still works with the right header.
        session.call(4, "tools/list", json!({}), "ListToolsResult").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_progress_goes_on_the_request_sse_stream() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_06).await;
        let call = request(
            5,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 3}, "_meta": {"progressToken": "tok-5"}}),
        );
        let response = session.post().header("accept", ACCEPT_BOTH).json(&call).send().await;
        assert_eq!(response.status, StatusCode::OK);
        assert!(response.is_sse(), "an SSE answer: {:?}", response.content_type());
        let (notes, message) = response.exchange().await;
        assert_eq!(notes.len(), 3, "every progress notification on the call's stream: {notes:?}");
        for note in &notes {
            check_notification(V2025_06, note);
            assert_eq!(note["method"], "notifications/progress", "{note}");
        }
        assert_eq!(message["id"], 5, "then the response, on the same stream");
        check_result(V2025_06, "CallToolResult", &message);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_json_only_accept_gets_a_json_answer() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_06).await;
        let call = request(
            6,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 2}, "_meta": {"progressToken": "tok-6"}}),
        );
        let response = session.post().header("accept", "application/json").json(&call).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let message = response.json().await;
        assert_eq!(message["id"], 6);
        check_result(V2025_06, "CallToolResult", &message);
        assert_eq!(first_text(&message), "2 steps");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_get_stream_receives_list_changed() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        let mut stream = session.get().send().await.sse();
        // Give the stream's task a moment to subscribe to the toolbox: the GET
        // handler (server/http/routes.rs) subscribes inside a spawned task, so
        // a change made right after the headers arrive can be missed (without
        // this pause 3 runs in 40 missed the notification).
        tokio::time::sleep(Duration::from_millis(200)).await;
        served.toolbox.tools().try_add(late).expect("adding a tool");
        let note = stream.next_message().await.expect("a notification on the GET stream");
        check_notification(V2025_11, &note);
        assert_eq!(note["method"], "notifications/tools/list_changed");
        assert!(note.get("id").is_none());
        // Ending the session ends the stream.
        let response = delete(served.addr).header("Mcp-Session-Id", &session.id).send().await;
        assert_eq!(response.status, StatusCode::OK);
        assert!(stream.rest().await.iter().all(|event| !event.has_message()), "the stream ends with the session");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_get_without_a_session_is_405() {
    bounded(async {
        let served = endpoint().await;
        let response = get(served.addr).send().await;
        assert_eq!(response.header("allow"), Some("POST"));
        expect_error(response, StatusCode::METHOD_NOT_ALLOWED, INVALID_REQUEST, Value::Null, V2025_11).await;
        let response = delete(served.addr).send().await;
        expect_error(response, StatusCode::METHOD_NOT_ALLOWED, INVALID_REQUEST, Value::Null, V2025_11).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_resumable_stream_primes_and_replays_after_last_event_id() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        let call = request(
            8,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 4}, "_meta": {"progressToken": "tok-8"}}),
        );
        let mut stream = session.post().json(&call).send().await.sse();
        let priming = stream.next().await.expect("a priming event");
        let stream_id = priming.id.clone().expect("the priming event has an id");
        assert_eq!(priming.data.as_deref(), Some(""), "the priming event's data is empty: {priming:?}");
        assert!(priming.retry.is_some(), "the priming event says when to reconnect: {priming:?}");
        let first = stream.next().await.expect("the first progress event");
        let first_id = first.id.clone().expect("every event has an id");
        assert_ne!(first_id, stream_id);
        let note = first.message();
        check_notification(V2025_11, &note);
        assert_eq!(note["params"]["progress"], 1.0);
        // The client loses the connection; the request goes on (in legacy
        // sessions a disconnect is not a cancellation).
        drop(stream);
        let resumed = session.get().header("Last-Event-ID", &first_id).send().await.sse();
        let events = resumed.rest().await;
        let messages: Vec<Value> = events.iter().filter(|event| event.has_message()).map(Event::message).collect();
        assert!(events.iter().filter(|event| event.has_message()).all(|event| event.id.is_some()), "{events:?}");
        let (response, notes) = messages.split_last().expect("replayed messages");
        let progress: Vec<&Value> = notes.iter().map(|note| &note["params"]["progress"]).collect();
        assert_eq!(progress, [2.0, 3.0, 4.0], "the rest of the stream, without what was seen: {messages:?}");
        for note in notes {
            check_notification(V2025_11, note);
            assert_eq!(note["params"]["progressToken"], "tok-8");
        }
        assert_eq!(response["id"], 8);
        check_result(V2025_11, "CallToolResult", response);
        assert_eq!(first_text(response), "4 steps");
        let ids: Vec<&str> = events.iter().filter_map(|event| event.id.as_deref()).collect();
        let mut unique = ids.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), ids.len(), "event ids are unique: {ids:?}");
        assert!(!ids.contains(&first_id.as_str()), "the event already seen is not replayed");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_log_messages_go_on_the_call_stream() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        session.call(1, "logging/setLevel", json!({"level": "warning"}), "EmptyResult").await;
        let response =
            session.post().json(&request(2, "tools/call", json!({"name": "chatty", "arguments": {}}))).send().await;
        let (notes, message) = response.exchange().await;
        assert_eq!(notes.len(), 2, "both messages the level lets through, on the call's stream: {notes:?}");
        for note in &notes {
            check_notification(V2025_11, note);
            assert_eq!(note["method"], "notifications/message");
        }
        check_result(V2025_11, "CallToolResult", &message);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_batch_in_a_2025_03_26_session_is_one_json_array() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_03).await;
        let batch = json!([
            request(1, "tools/list", json!({})),
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "x", "progress": 1}},
            request(2, "tools/call", json!({"name": "add", "arguments": {"a": 20, "b": 22}})),
            request(3, "no/such/method", json!({})),
        ]);
        assert_schema(V2025_03, "JSONRPCBatchRequest", &batch);
        let response = session.post().json(&batch).send().await;
        assert_eq!(response.status, StatusCode::OK);
        // One JSON body (not a stream) holding the array.
        let answer = response.json().await;
        assert_schema(V2025_03, "JSONRPCBatchResponse", &answer);
        assert_eq!(answer.as_array().map(Vec::len), Some(3), "one response per request: {answer}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_batch_in_a_2025_11_25_session_is_400() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_11).await;
        let batch = json!([request(1, "tools/list", json!({})), request(2, "tools/list", json!({}))]);
        let response = session.post().json(&batch).send().await;
        expect_error(response, StatusCode::BAD_REQUEST, INVALID_REQUEST, Value::Null, V2025_11).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_cancelled_notification_ends_the_call_stream_without_a_result() {
    bounded(async {
        let served = endpoint().await;
        let session = open_session(served.addr, V2025_06).await;
        // Several rounds: whether a result slips out can depend on scheduling.
        for round in 0..6 {
            let key = format!("legacy-cancel-{round}");
            let id = 100 + round;
            let call = request(
                id,
                "tools/call",
                json!({"name": "wait", "arguments": {"key": key, "ms": 20_000}, "_meta": {"progressToken": key}}),
            );
            let mut stream = session.post().json(&call).send().await.sse();
            let started = stream.next_message().await.expect("the tool reports it started");
            assert_eq!(started["params"]["message"], "started");
            let cancel = json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": id, "reason": "the user changed their mind"},
            });
            let response = session.post().json(&cancel).send().await;
            assert_eq!(response.status, StatusCode::ACCEPTED);
            let mut after = Vec::new();
            while let Some(message) = stream.next_message().await {
                after.push(message);
            }
            assert!(
                after.iter().all(|message| message.get("id").is_none()),
                "round {round}: a cancelled request gets no response, but the stream carried {after:?}"
            );
        }
    })
    .await;
}

/// `Server::serve_http_on` sets TCP_NODELAY on the connections it accepts:
/// without it, each SSE answer on a kept-alive connection (headers first, the
/// event in a second small write) waits for the client's delayed ACK, some
/// 40 ms, while a JSON answer takes well under a millisecond.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sse_answers_on_a_kept_alive_connection_are_not_held_back() {
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    use hyper_util::rt::TokioIo;

    bounded(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("binding 127.0.0.1:0");
        let addr = listener.local_addr().unwrap();
        let serving = tokio::spawn(async move {
            let _ = server().serve_http_on(listener, codeagent::server::http::HttpOptions::new()).await;
        });
        let stream = tokio::net::TcpStream::connect(addr).await.expect("connecting");
        stream.set_nodelay(true).unwrap();
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.expect("HTTP handshake");
        let _connection = Connection(tokio::spawn(async move {
            let _ = connection.await;
        }));
        let mut session = None;
        let mut times = Vec::new();
        for id in 0..12u64 {
            let message = if id == 0 {
                initialize_request(V2025_06)
            } else {
                request(id, "tools/call", json!({"name": "add", "arguments": {"a": id, "b": 1}}))
            };
            let mut call = hyper::Request::post("/mcp")
                .header("host", addr.to_string())
                .header("content-type", "application/json")
                .header("accept", ACCEPT_BOTH)
                .header("mcp-protocol-version", V2025_06.as_str());
            if let Some(session) = &session {
                call = call.header("mcp-session-id", session);
            }
            let call = call.body(Full::new(Bytes::from(message.to_string()))).unwrap();
            let started = std::time::Instant::now();
            sender.ready().await.expect("the connection is kept alive");
            let response = sender.send_request(call).await.expect("an answer");
            assert_eq!(response.status(), StatusCode::OK);
            let sse = response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream");
            assert!(sse || id == 0, "call {id} is answered as an SSE stream");
            if let Some(id) = response.headers().get("mcp-session-id") {
                session = Some(id.to_str().unwrap().to_owned());
            }
            let body = response.into_body().collect().await.expect("the whole stream").to_bytes();
            times.push(started.elapsed());
            let text = String::from_utf8_lossy(&body);
            assert!(text.contains(&format!("\"id\":{id}")), "the stream answers call {id}: {text}");
            if id > 0 {
                assert!(text.contains(&format!("\"text\":\"{}\"", id + 1)), "the sum of call {id}: {text}");
            }
        }
        times.sort();
        let median = times[times.len() / 2];
        assert!(median < Duration::from_millis(20), "SSE answers took {times:?} (median {median:?})");
        serving.abort();
    })
    .await;
}
