//! `Server::http_router` inside an axum application of your own: the app
//! keeps its routes (a page that counts its visitors, and `/health`), and MCP
//! is one more route, `/mcp`, whose tools read the same state as the app.
//!
//! ```sh
//! cargo run --example axum_app                     # listens on 127.0.0.1:3000
//! cargo run --example axum_app -- 127.0.0.1:8080
//! curl http://127.0.0.1:3000/                      # the app's own page
//! ```
//!
//! MCP clients connect to `http://127.0.0.1:3000/mcp`. `axum::serve` is the
//! app's, so the header and body timeouts of `Server::serve_http` are the
//! app's to set (see the HTTP chapter of the guide).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::Router;
use axum::extract::State as AppState;
use axum::routing::get;
use codeagent::Server;
use codeagent::prelude::*;
use codeagent::server::http::HttpOptions;

/// What the app and its tools share.
#[derive(Default)]
struct Visits {
    count: AtomicU64,
}

/// The app's tools, on a handle to its state.
struct Tools(Arc<Visits>);

#[toolbox]
impl Tools {
    /// How many times the app's home page was visited.
    #[tool(read_only)]
    fn visits(&self) -> String {
        format!("The home page was visited {} times.", self.0.count.load(Ordering::SeqCst))
    }

    /// Set the visit counter back to zero; returns the count it had.
    #[tool(destructive)]
    fn reset_visits(&self) -> u64 {
        self.0.count.swap(0, Ordering::SeqCst)
    }
}

/// The app's home page: counts the visit.
async fn home(AppState(visits): AppState<Arc<Visits>>) -> String {
    let count = visits.count.fetch_add(1, Ordering::SeqCst) + 1;
    format!("Hello, visitor number {count}!\n")
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let address: SocketAddr = match std::env::args().nth(1) {
        Some(address) => address.parse().map_err(std::io::Error::other)?,
        None => SocketAddr::from(([127, 0, 0, 1], 3000)),
    };
    let visits = Arc::new(Visits::default());

    // The MCP endpoint: a router with the route `/mcp` (`HttpOptions::with_path` moves it).
    // Its default checks accept only localhost `Host` and `Origin` headers; an app on a
    // public address names its hosts with `with_allow_hosts`.
    let mcp = Server::new(Toolbox::new().tool_set(Tools(Arc::clone(&visits))))
        .with_name("codeagent-axum-app")
        .http_router(HttpOptions::new())
        .await?;
    let app =
        Router::new().route("/", get(home)).route("/health", get(|| async { "ok\n" })).with_state(visits).merge(mcp);

    let listener = tokio::net::TcpListener::bind(address).await?;
    eprintln!("the app on http://{0}/, MCP on http://{0}/mcp", listener.local_addr()?);
    // With each connection's address, so that one client's sessions count
    // against its own limit (`HttpOptions::with_max_sessions_per_client`).
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await
}
