//! The built-in limits: a timeout per tool and a concurrency limit.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codeagent::server::middleware::{ConcurrencyLimit, Timeout};
use serde_json::json;

use super::{call, modern, server, text};
use crate::common::V2025_11;
use crate::common::client::{Client, Transport};
use crate::common::tools::{observed_until, saw_cancellation};

over_both!(a_tool_over_its_time_limit_is_a_tool_error_naming_it, the_concurrency_limit_queues_calls);

async fn a_tool_over_its_time_limit_is_a_tool_error_naming_it(transport: Transport) {
    let limits = Timeout::per_tool().tool("wait", Duration::from_millis(300));
    let mut client = Client::start(transport, server().with_middleware(limits)).await;
    client.initialize(V2025_11).await;
    for (id, modern_era) in [(1, false), (2, true)] {
        let key = format!("mw-timeout-{transport}-{id}");
        let params = call("wait", json!({"key": key, "ms": 20_000}));
        let params = if modern_era { modern(params) } else { params };
        let started = Instant::now();
        let result = client.result(id, "tools/call", params).await;
        assert!(started.elapsed() < Duration::from_secs(5), "{transport}: stopped at its limit");
        assert_eq!(result["isError"], true, "{transport}: {result}");
        assert_eq!(text(&result), "The tool `wait` timed out after 0.3 seconds", "{transport}: {result}");
        let seen = observed_until(&key, Duration::from_secs(5), saw_cancellation).await;
        assert!(saw_cancellation(&seen), "{transport}: the tool saw its cancellation: {seen:?}");
    }
    // Other tools have no limit.
    let result = client.result(3, "tools/call", call("nap", json!({"ms": 400, "n": 7}))).await;
    assert_eq!(text(&result), "7", "{transport}: {result}");
}

async fn the_concurrency_limit_queues_calls(transport: Transport) {
    let running = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let server = {
        let (running, most) = (Arc::clone(&running), Arc::clone(&most));
        server().with_middleware(ConcurrencyLimit::new(2)).around_calls(move |call, next| {
            let (running, most) = (Arc::clone(&running), Arc::clone(&most));
            async move {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                let response = next.run(call).await;
                running.fetch_sub(1, Ordering::SeqCst);
                response
            }
        })
    };
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    let started = Instant::now();
    for id in 1..=6 {
        let params = call("nap", json!({"ms": 200, "n": id}));
        client.send_request(id, "tools/call", if id % 2 == 0 { modern(params) } else { params }).await;
    }
    let mut answered = Vec::new();
    for _ in 1..=6 {
        let response = client.recv().await;
        answered.push(response["id"].as_i64().unwrap());
        assert_eq!(
            response["result"]["content"][0]["text"],
            json!(response["id"].to_string()),
            "{transport}: {response}"
        );
    }
    answered.sort_unstable();
    assert_eq!(answered, [1, 2, 3, 4, 5, 6], "{transport}: every call answered");
    assert_eq!(most.load(Ordering::SeqCst), 2, "{transport}: at most two at once, and two did run at once");
    assert!(
        started.elapsed() >= Duration::from_millis(600),
        "{transport}: three rounds of two: {:?}",
        started.elapsed()
    );
}
