//! Composition order, answering instead of the handler, changing a result,
//! filtering a listing, and a middleware that panics.

use std::sync::{Arc, Mutex};

use codeagent::server::jsonrpc::RpcError;
use codeagent::server::middleware::{BoxFuture, Next, Request, Response};
use serde_json::json;

use super::{call, modern, server, text, tool_names};
use crate::common::V2025_11;
use crate::common::client::{Client, Transport};

over_both!(
    middleware_runs_in_the_order_added,
    a_middleware_answers_instead_of_the_handler,
    a_middleware_changes_a_result,
    a_middleware_filters_tools_list,
    a_panicking_middleware_is_an_error_and_the_server_lives_on,
    every_method_passes_through,
);

/// Records `name>` on the way in and `<name` on the way out.
fn recorder(
    name: &'static str,
    log: &Arc<Mutex<Vec<String>>>,
) -> impl Fn(Request, Next) -> BoxFuture<'static, Response> + Send + Sync + 'static {
    let log = Arc::clone(log);
    move |request, next| {
        let log = Arc::clone(&log);
        Box::pin(async move {
            log.lock().unwrap().push(format!("{name}>"));
            let response = next.run(request).await;
            log.lock().unwrap().push(format!("<{name}"));
            response
        })
    }
}

async fn middleware_runs_in_the_order_added(transport: Transport) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let server = server().around(recorder("a", &log)).around(recorder("b", &log)).around_calls(recorder("calls", &log));
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    log.lock().unwrap().clear();
    let result = client.result(1, "tools/call", call("add", json!({"a": 2, "b": 3}))).await;
    assert_eq!(text(&result), "5", "{transport}: {result}");
    assert_eq!(*log.lock().unwrap(), ["a>", "b>", "calls>", "<calls", "<b", "<a"], "{transport}: legacy");
    log.lock().unwrap().clear();
    client.result(2, "tools/list", modern(json!({}))).await;
    assert_eq!(*log.lock().unwrap(), ["a>", "b>", "<b", "<a"], "{transport}: 2026-07-28 tools/list skips around_calls");
}

async fn a_middleware_answers_instead_of_the_handler(transport: Transport) {
    let server = server().around(|request, next| async move {
        match (request.method(), request.name()) {
            ("tools/call", Some("greet")) => Response::tool_error(&request, "greet is switched off here"),
            ("prompts/list", _) => Response::error(RpcError::new(-32600, "prompts are closed today")),
            _ => next.run(request).await,
        }
    });
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    for (id, params) in [(1, call("greet", json!({"name": "Ada"}))), (2, modern(call("greet", json!({"name": "Ada"}))))]
    {
        let result = client.result(id, "tools/call", params).await;
        assert_eq!(result["isError"], true, "{transport}: {result}");
        assert_eq!(text(&result), "greet is switched off here", "{transport}: {result}");
    }
    let modern_result = client.result(3, "tools/call", modern(call("greet", json!({"name": "Ada"})))).await;
    assert_eq!(
        modern_result["resultType"], "complete",
        "{transport}: a 2026 answer is a whole 2026 result: {modern_result}"
    );
    for (id, params) in [(4, json!({})), (5, modern(json!({})))] {
        let error = client.error(id, "prompts/list", params).await;
        assert_eq!(error["code"], -32600, "{transport}: {error}");
        assert_eq!(error["message"], "prompts are closed today", "{transport}: {error}");
    }
    // Everything else still reaches its handler.
    let result = client.result(6, "tools/call", call("add", json!({"a": 1, "b": 1}))).await;
    assert_eq!(text(&result), "2", "{transport}: {result}");
}

async fn a_middleware_changes_a_result(transport: Transport) {
    let server = server().around_calls(|call, next| async move {
        let mut response = next.run(call).await;
        if let Some(result) = response.result_mut() {
            let shown = result["content"][0]["text"].as_str().unwrap_or_default().to_owned();
            result["content"][0]["text"] = json!(format!("{shown} (checked)"));
        }
        response
    });
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    for (id, params) in [(1, call("add", json!({"a": 2, "b": 3}))), (2, modern(call("add", json!({"a": 2, "b": 3}))))] {
        let result = client.result(id, "tools/call", params).await;
        assert_eq!(text(&result), "5 (checked)", "{transport}: {result}");
    }
}

async fn a_middleware_filters_tools_list(transport: Transport) {
    let server = server().around(|request, next| async move {
        let listing = request.method() == "tools/list";
        let mut response = next.run(request).await;
        if listing {
            response.retain_listed(|tool| tool["name"] != "greet");
        }
        response
    });
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    for (id, params) in [(1, json!({})), (2, modern(json!({})))] {
        let list = client.result(id, "tools/list", params).await;
        let names = tool_names(&list);
        assert!(!names.contains(&"greet"), "{transport}: {names:?}");
        assert!(names.contains(&"add"), "{transport}: {names:?}");
    }
}

async fn a_panicking_middleware_is_an_error_and_the_server_lives_on(transport: Transport) {
    let server = server().around(|request, next| async move {
        if request.name() == Some("greet") || request.method() == "prompts/list" {
            panic!("middleware kaboom");
        }
        next.run(request).await
    });
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    for (id, params) in [(1, call("greet", json!({"name": "Ada"}))), (2, modern(call("greet", json!({"name": "Ada"}))))]
    {
        let result = client.result(id, "tools/call", params).await;
        assert_eq!(result["isError"], true, "{transport}: like a panicking tool, an error result: {result}");
        assert!(text(&result).contains("middleware kaboom"), "{transport}: {result}");
    }
    let error = client.error(3, "prompts/list", json!({})).await;
    assert_eq!(error["code"], crate::common::INTERNAL_ERROR, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains("middleware kaboom"), "{transport}: {error}");
    let result = client.result(4, "tools/call", call("add", json!({"a": 1, "b": 2}))).await;
    assert_eq!(text(&result), "3", "{transport}: the server lives on: {result}");
}

/// Every method of both eras reaches middleware, which sees its era.
async fn every_method_passes_through(transport: Transport) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let server = {
        let seen = Arc::clone(&seen);
        server().around(move |request, next| {
            let seen = Arc::clone(&seen);
            async move {
                let modern = request.is_modern();
                let client = request.client_name().unwrap_or("-").to_owned();
                seen.lock().unwrap().push(format!(
                    "{} {} {client}",
                    request.method(),
                    if modern { "modern" } else { "legacy" }
                ));
                next.run(request).await
            }
        })
    };
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    client.result(1, "ping", json!({})).await;
    client.result(2, "resources/list", json!({})).await;
    client.result(3, "prompts/list", json!({})).await;
    client.result(4, "server/discover", modern(json!({}))).await;
    client.result(5, "resources/templates/list", modern(json!({}))).await;
    let seen = seen.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            "initialize legacy behaviour-tests",
            "ping legacy behaviour-tests",
            "resources/list legacy behaviour-tests",
            "prompts/list legacy behaviour-tests",
            "server/discover modern behaviour-tests",
            "resources/templates/list modern behaviour-tests",
        ],
        "{transport}"
    );
}
