//! An rmcp 3.11 MCP server over Streamable HTTP with one tool, `add(a, b)`,
//! answering the sum as text: the tool of `rmcp_add_server.rs`, served by
//! rmcp's `StreamableHttpService` nested in an axum router and run by
//! `axum::serve`, the way rmcp's documentation and tests serve it.
//!
//! ```sh
//! rmcp_http_add_server [--listen 127.0.0.1:8080] [--nodelay] [--stateless] [--json]
//! ```
//!
//! - no flag: rmcp as it ships (`StreamableHttpServerConfig::default()`):
//!   legacy sessions (`Mcp-Session-Id`), every answer an SSE stream;
//!   2026-07-28 requests are served statelessly, also as SSE.
//! - `--nodelay`: sets TCP_NODELAY on every accepted socket.
//! - `--stateless`: `legacy_session_mode: false`, no sessions at all.
//! - `--json`: `json_response: true`; rmcp honours it only for requests served
//!   statelessly (2026-07-28, or every request with `--stateless`), so it is
//!   the only way rmcp answers a legacy request with a JSON body.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt;
use codeagent_bench::rmcp_adder::Adder;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

struct Options {
    listen: SocketAddr,
    nodelay: bool,
    stateless: bool,
    json: bool,
}

fn usage() -> ! {
    eprintln!("usage: rmcp_http_add_server [--listen ADDR] [--nodelay] [--stateless] [--json]");
    std::process::exit(2)
}

fn parse_options() -> Options {
    let mut options =
        Options { listen: SocketAddr::from(([127, 0, 0, 1], 8080)), nodelay: false, stateless: false, json: false };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--listen" => options.listen = args.next().and_then(|text| text.parse().ok()).unwrap_or_else(|| usage()),
            "--nodelay" => options.nodelay = true,
            "--stateless" => options.stateless = true,
            "--json" => options.json = true,
            _ => usage(),
        }
    }
    options
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let options = parse_options();
    // The router is built once and cloned per session, as in the stdio server.
    let adder = Adder::new("rmcp-http-add");
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(!options.stateless)
        .with_json_response(options.json);
    let service =
        StreamableHttpService::new(move || Ok(adder.clone()), Arc::new(LocalSessionManager::default()), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(options.listen).await?;
    if options.nodelay {
        let listener = listener.tap_io(|socket| {
            if let Err(error) = socket.set_nodelay(true) {
                eprintln!("rmcp_http_add_server: TCP_NODELAY: {error}");
            }
        });
        axum::serve(listener, router).await
    } else {
        axum::serve(listener, router).await
    }
}
