//! The rate limit per caller (feature `rate-limit`): one caller over its
//! allowance is refused with a JSON-RPC error, another is not.

use std::time::Duration;

use codeagent::server::middleware::{RATE_LIMITED, RateLimit};
use serde_json::json;

use super::{call, caller_from_client_name, modern_as, server, text};
use crate::common::client::{Client, Transport};
use crate::common::http::{modern, modern_post, start};

over_both!(one_caller_over_its_rate_limit_is_refused_another_is_not);

async fn one_caller_over_its_rate_limit_is_refused_another_is_not(transport: Transport) {
    let server = caller_from_client_name(server()).with_middleware(RateLimit::per_caller(2, Duration::from_secs(60)));
    let mut client = Client::start(transport, server).await;
    let add = || call("add", json!({"a": 1, "b": 2}));
    for id in [1, 2] {
        let result = client.result(id, "tools/call", modern_as("alice", add())).await;
        assert_eq!(text(&result), "3", "{transport}: alice's first two calls: {result}");
    }
    let error = client.error(3, "tools/call", modern_as("alice", add())).await;
    assert_eq!(error["code"], RATE_LIMITED, "{transport}: {error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.starts_with("Rate limit exceeded: caller `alice` may make 2 requests per 60 seconds"), "{message}");
    assert_eq!(error["data"]["reason"], "rate_limited", "{transport}: {error}");
    assert!(error["data"]["retryAfterMs"].as_u64().is_some_and(|ms| ms > 0), "{transport}: {error}");
    for id in [4, 5] {
        let result = client.result(id, "tools/call", modern_as("bob", add())).await;
        assert_eq!(text(&result), "3", "{transport}: bob has an allowance of his own: {result}");
    }
    // A legacy session's client is a caller too.
    client.initialize(crate::common::V2025_11).await;
    let result = client.result(6, "tools/call", add()).await;
    assert_eq!(text(&result), "3", "{transport}: {result}");
}

/// Over HTTP the caller can come from a header (as an authorisation layer
/// would set it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_callers_told_apart_by_a_header() {
    use codeagent::server::middleware::Caller;
    let server = server()
        .around(|mut request, next| async move {
            if let Some(user) = request.header("x-user").map(str::to_owned) {
                request.set_caller(Caller::new(user));
            }
            next.run(request).await
        })
        .with_middleware(RateLimit::per_caller(1, Duration::from_secs(60)));
    let endpoint = start(server, codeagent::server::http::HttpOptions::new()).await;
    let send = |id: i64, user: &'static str| {
        let message = modern(id, "tools/call", call("whoami", json!({})));
        modern_post(endpoint.addr, &message).header("x-user", user).header("accept", "application/json").send()
    };
    let first = send(1, "carol").await.json().await;
    assert_eq!(first["result"]["content"][0]["text"], "carol", "the tool sees the caller: {first}");
    let second = send(2, "carol").await.json().await;
    assert_eq!(second["error"]["code"], RATE_LIMITED, "{second}");
    let other = send(3, "dave").await.json().await;
    assert_eq!(other["result"]["content"][0]["text"], "dave", "{other}");
}
