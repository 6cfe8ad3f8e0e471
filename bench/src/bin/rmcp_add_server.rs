//! An rmcp 3.11 MCP server over stdio with one tool, `add(a, b)`, answering
//! the sum as text: the same tool as codeagent's gallery `add`, written the
//! way rmcp's documentation writes tools (`#[tool_router]`, `#[tool]`,
//! `Parameters<T>`).
//!
//! `rmcp_add_server` serves on `rmcp::transport::stdio()` (tokio's stdin and
//! stdout); `rmcp_add_server --pipes` serves on `stdio_pipes()`, rmcp's
//! non-blocking pipe transport.

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, ServiceExt, schemars, tool, tool_handler, tool_router};
use serde::Deserialize;

/// The arguments of `add`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct AddArgs {
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
}

#[derive(Clone)]
struct Adder {
    tool_router: rmcp::handler::server::router::tool::ToolRouter<Self>,
}

#[tool_router]
impl Adder {
    fn new() -> Self {
        Adder { tool_router: Self::tool_router() }
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
            .with_server_info(Implementation::new("rmcp-add", env!("CARGO_PKG_VERSION")))
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pipes = std::env::args().skip(1).any(|arg| arg == "--pipes");
    let service = if pipes {
        Adder::new().serve(rmcp::transport::stdio_pipes()).await?
    } else {
        Adder::new().serve(rmcp::transport::stdio()).await?
    };
    service.waiting().await?;
    Ok(())
}
