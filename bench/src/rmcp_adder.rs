//! The rmcp 3.11 side of the benchmarks: one tool, `add(a, b)`, answering the
//! sum as text (the same text block as codeagent's gallery `add`), written the
//! way rmcp's documentation writes tools (`#[tool_router]`, `#[tool]` with
//! `Parameters<T>`, `#[tool_handler]`). Served over stdio by `rmcp_add_server`
//! and over Streamable HTTP by `rmcp_http_add_server`.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;

/// The arguments of `add`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

/// The server: its name, and the router built once.
#[derive(Clone)]
pub struct Adder {
    name: &'static str,
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

#[tool_router]
impl Adder {
    /// The server, named `name` in its `serverInfo`.
    pub fn new(name: &'static str) -> Self {
        Adder { name, tool_router: Self::tool_router() }
    }

    /// Add two integers.
    #[tool(annotations(read_only_hint = true, idempotent_hint = true, open_world_hint = false))]
    fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> String {
        (a + b).to_string()
    }
}

// The router is built once and kept in the server (rather than the macro
// default, `Self::tool_router()` per request), rmcp's fastest setup.
#[tool_handler(router = self.tool_router)]
impl ServerHandler for Adder {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(self.name, env!("CARGO_PKG_VERSION")))
    }
}
