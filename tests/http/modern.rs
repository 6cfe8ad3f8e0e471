//! Streamable HTTP, 2026-07-28: stateless requests, their status codes, the
//! header checks (-32020), `x-mcp-header`, and two instances behind a load
//! balancer (`common::http`). What a request answers, the same over every
//! transport, is tested in `tests/behaviour`.

use crate::common;

use std::time::Duration;

use codeagent::server::{CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY};
use hyper::StatusCode;
use serde_json::json;

use common::http::*;
use common::tools::{observed, observed_within};
use common::*;

// ===========================================================================
// Modern Streamable HTTP (2026-07-28)
// ===========================================================================

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_progress_goes_on_the_calls_own_unbuffered_stream() {
    bounded(async {
        let served = endpoint().await;
        let call = modern(
            3,
            "tools/call",
            json!({"name": "steps", "arguments": {"count": 2}, "_meta": {"progressToken": 33}}),
        );
        let response = modern_post(served.addr, &call).send().await;
        assert_eq!(response.header("x-accel-buffering"), Some("no"));
        let (notes, message) = response.exchange().await;
        assert_eq!(notes.len(), 2, "{notes:?}");
        for note in &notes {
            check_notification(V2026, note);
            assert_eq!(note["params"]["progressToken"], 33);
        }
        check_result(V2026, "CallToolResult", &message);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_tools_call_answers_json_when_only_json_is_accepted() {
    bounded(async {
        let served = endpoint().await;
        for (id, name, arguments, text) in [
            (1, "add", json!({"a": 1, "b": 2}), "3"),
            (2, "steps", json!({"count": 3}), "3 steps"),
            (3, "add", json!({"a": 2, "b": 2}), "4"),
        ] {
            let call = modern(id, "tools/call", json!({"name": name, "arguments": arguments}));
            let response = modern_post(served.addr, &call).header("accept", "application/json").send().await;
            assert_eq!(response.status, StatusCode::OK, "tools/call {name} answered as JSON");
            let message = response.json().await;
            check_result(V2026, "CallToolResult", &message);
            assert_eq!(first_text(&message), text);
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_missing_protocol_version_header_is_400_header_mismatch() {
    bounded(async {
        let served = endpoint().await;
        let message = modern(4, "tools/list", json!({}));
        let response = modern_post(served.addr, &message).without("MCP-Protocol-Version").send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(4), V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().to_ascii_lowercase().contains("mcp-protocol-version"));
        // A header naming another version than the body is a mismatch too.
        let response = modern_post(served.addr, &message).header("MCP-Protocol-Version", "2025-11-25").send().await;
        expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(4), V2026).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_missing_or_wrong_method_header_is_400_header_mismatch() {
    bounded(async {
        let served = endpoint().await;
        let message = modern(5, "tools/list", json!({}));
        let response = modern_post(served.addr, &message).without("Mcp-Method").send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(5), V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().to_ascii_lowercase().contains("mcp-method"));
        for wrong in ["tools/call", "TOOLS/LIST"] {
            let response = modern_post(served.addr, &message).header("Mcp-Method", wrong).send().await;
            expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(5), V2026).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_missing_or_mismatching_name_header_is_400_header_mismatch() {
    bounded(async {
        let served = endpoint().await;
        let call = modern(6, "tools/call", json!({"name": "add", "arguments": {"a": 1, "b": 1}}));
        let response = modern_post(served.addr, &call).header("Mcp-Name", "greet").send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(6), V2026).await;
        let text = error["error"]["message"].as_str().unwrap();
        assert!(text.contains("greet") && text.contains("add"), "the mismatch is named: {text}");
        let response = modern_post(served.addr, &call).without("Mcp-Name").send().await;
        expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(6), V2026).await;
        // Base64-sentinel values are decoded before comparing.
        let encoded = format!("=?base64?{}?=", codeagent_test_support::base64_encode("add"));
        let response = modern_post(served.addr, &call).header("Mcp-Name", encoded).send().await;
        assert_eq!(response.status, StatusCode::OK);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_unsupported_version_is_400() {
    bounded(async {
        let served = endpoint().await;
        let mut message = modern(7, "server/discover", json!({}));
        message["params"]["_meta"][PROTOCOL_VERSION_KEY] = json!("2099-01-01");
        let response = modern_post(served.addr, &message).send().await;
        expect_error(response, StatusCode::BAD_REQUEST, UNSUPPORTED_VERSION, json!(7), V2026).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_missing_meta_is_400_invalid_params_with_the_request_id() {
    bounded(async {
        let served = endpoint().await;
        // No `_meta` at all, the version only in the header.
        let bare = request("no-meta", "tools/list", json!({}));
        let response = modern_post(served.addr, &bare).send().await;
        expect_error(response, StatusCode::BAD_REQUEST, INVALID_PARAMS, json!("no-meta"), V2026).await;
        // `_meta` without the client's capabilities.
        let mut partial = modern("no-caps", "tools/list", json!({}));
        partial["params"]["_meta"].as_object_mut().unwrap().remove(CLIENT_CAPABILITIES_KEY);
        let response = modern_post(served.addr, &partial).send().await;
        expect_error(response, StatusCode::BAD_REQUEST, INVALID_PARAMS, json!("no-caps"), V2026).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_removed_method_is_404_method_not_found() {
    bounded(async {
        let served = endpoint().await;
        for method in ["ping", "logging/setLevel", "initialize/nope"] {
            let message = modern(8, method, json!({}));
            let response = modern_post(served.addr, &message).send().await;
            expect_error(response, StatusCode::NOT_FOUND, METHOD_NOT_FOUND, json!(8), V2026).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_x_mcp_header_argument_is_accepted_plain_base64_or_absent() {
    bounded(async {
        let served = endpoint().await;
        let listing = modern_ok(served.addr, &modern(1, "tools/list", json!({})), "ListToolsResult").await;
        let listed = listing["result"]["tools"].as_array().unwrap().iter().find(|tool| tool["name"] == "forecast");
        let region = &listed.expect("the forecast tool")["inputSchema"]["properties"]["region"];
        assert_eq!(region["x-mcp-header"], "Region", "the annotation is listed: {region}");

        let plain =
            modern(2, "tools/call", json!({"name": "forecast", "arguments": {"city": "Oslo", "region": "us-west1"}}));
        let response = modern_post(served.addr, &plain).header("Mcp-Param-Region", "us-west1").send().await;
        assert_eq!(response.status, StatusCode::OK);
        let (_, message) = response.exchange().await;
        check_result(V2026, "CallToolResult", &message);
        assert_eq!(first_text(&message), "Oslo: sunny (from us-west1)");

        // A value that is not a plain token travels base64-encoded.
        let value = "zürich 1";
        let encoded = format!("=?base64?{}?=", codeagent_test_support::base64_encode(value));
        let call = modern(3, "tools/call", json!({"name": "forecast", "arguments": {"city": "Bern", "region": value}}));
        let response = modern_post(served.addr, &call).header("Mcp-Param-Region", encoded).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let (_, message) = response.exchange().await;
        assert_eq!(first_text(&message), "Bern: sunny (from zürich 1)");

        // Without the argument, no header is expected (absent or null).
        for arguments in [json!({"city": "Rome"}), json!({"city": "Rome", "region": null})] {
            let call = modern(4, "tools/call", json!({"name": "forecast", "arguments": arguments}));
            let response = modern_post(served.addr, &call).send().await;
            assert_eq!(response.status, StatusCode::OK);
            let (_, message) = response.exchange().await;
            check_result(V2026, "CallToolResult", &message);
            assert_eq!(first_text(&message), "Rome: sunny (from any region)");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_x_mcp_header_missing_or_mismatching_is_400_header_mismatch() {
    bounded(async {
        let served = endpoint().await;
        let call =
            modern(5, "tools/call", json!({"name": "forecast", "arguments": {"city": "Oslo", "region": "us-west1"}}));
        let response = modern_post(served.addr, &call).send().await;
        let error = expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(5), V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().contains("Mcp-Param-Region"), "{error}");
        for wrong in ["eu-central1", "US-WEST1", "=?base64?dXMtZWFzdDE=?=", "=?base64?not base64!?="] {
            let response = modern_post(served.addr, &call).header("Mcp-Param-Region", wrong).send().await;
            expect_error(response, StatusCode::BAD_REQUEST, HEADER_MISMATCH, json!(5), V2026).await;
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_closing_the_stream_cancels_the_tool() {
    bounded(async {
        let served = endpoint().await;
        let key = "modern-disconnect";
        let call = modern(
            9,
            "tools/call",
            json!({"name": "wait", "arguments": {"key": key, "ms": 20_000}, "_meta": {"progressToken": "p9"}}),
        );
        let mut stream = modern_post(served.addr, &call).send().await.sse();
        let started = stream.next_message().await.expect("the tool reports it started");
        check_notification(V2026, &started);
        assert!(observed(key).is_empty());
        drop(stream);
        let seen = observed_within(key, Duration::from_secs(5)).await;
        assert!(!seen.is_empty(), "the server did not notice the closed stream: the tool is still running");
        assert_eq!(seen, ["cancelled"], "the tool's ctx.cancelled() fired when the client closed the stream");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn modern_two_instances_behind_a_load_balancer() {
    bounded(async {
        let instances = [endpoint().await, endpoint().await];
        assert_ne!(instances[0].addr, instances[1].addr);
        let mut discovered = Vec::new();
        let mut listings = Vec::new();
        for i in 0..20_i64 {
            let addr = instances[(i % 2) as usize].addr;
            let discover = modern_ok(addr, &modern(i * 10, "server/discover", json!({})), "DiscoverResult").await;
            discovered.push(discover["result"].clone());
            let listing = modern_ok(addr, &modern(i * 10 + 1, "tools/list", json!({})), "ListToolsResult").await;
            listings.push(listing["result"].clone());
            let call = modern(i * 10 + 2, "tools/call", json!({"name": "add", "arguments": {"a": i, "b": 1000}}));
            let sum = modern_ok(addr, &call, "CallToolResult").await;
            assert_eq!(first_text(&sum), (i + 1000).to_string());
        }
        assert!(discovered.iter().all(|result| *result == discovered[0]), "identical discovery on both instances");
        assert!(listings.iter().all(|result| *result == listings[0]), "identical listings on both instances");
    })
    .await;
}
