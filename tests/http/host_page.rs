//! The built-in host page (`HttpOptions::with_host_page`, the command line's
//! `--http ADDR --ui`): served at `/` beside `/mcp` with a policy that lets it
//! reach nothing but its own origin, refused to foreign hosts, and absent
//! unless asked for. What it does in a browser is tested in `tests/browser`.

use crate::common;

use codeagent::server::http::HttpOptions;
use hyper::{Method, StatusCode};
use serde_json::json;

use common::http::*;
use common::*;

fn page(addr: std::net::SocketAddr) -> Call {
    Call::new(addr, Method::GET).at_path("/")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_served_at_the_root_with_a_closed_policy() {
    bounded(async {
        let served = start(server(), HttpOptions::new().with_host_page()).await;
        let response = page(served.addr).send().await;
        assert_eq!(response.status, StatusCode::OK);
        assert_eq!(response.content_type(), "text/html; charset=utf-8");
        let policy = response.header("content-security-policy").expect("a policy").to_owned();
        for directive in ["default-src 'none'", "connect-src 'self'", "img-src data:", "frame-ancestors 'none'"] {
            assert!(policy.contains(directive), "{directive} in {policy}");
        }
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        let body = response.bytes().await;
        assert_eq!(body, codeagent::ui::host_page().as_bytes());
        // The endpoint is still where it was.
        let discover = modern(1, "server/discover", json!({}));
        let answer = modern_post(served.addr, &discover).send().await;
        assert_eq!(answer.status, StatusCode::OK);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_option_there_is_no_page() {
    bounded(async {
        let served = endpoint().await;
        let response = page(served.addr).send().await;
        assert_eq!(response.status, StatusCode::NOT_FOUND);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_foreign_host_gets_no_page() {
    bounded(async {
        let served = start(server(), HttpOptions::new().with_host_page()).await;
        let response = page(served.addr).header("host", "evil.example.com").send().await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
        let response = page(served.addr).header("origin", "http://evil.example.com").send().await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_names_an_endpoint_elsewhere_than_mcp() {
    bounded(async {
        let served = start(server(), HttpOptions::new().with_path("/api/mcp").with_host_page()).await;
        let body = page(served.addr).send().await.bytes().await;
        let body = String::from_utf8(body.to_vec()).unwrap();
        assert!(
            body.starts_with("<!DOCTYPE html>\n<html lang=\"en\" data-mcp-endpoint=\"/api/mcp\">"),
            "{}",
            &body[..80]
        );
    })
    .await;
}
