//! An rmcp 3.11 MCP server over stdio with one tool, `add(a, b)`, answering
//! the sum as text: the same tool as codeagent's gallery `add`, written the
//! way rmcp's documentation writes tools (`#[tool_router]`, `#[tool]`,
//! `Parameters<T>`).
//!
//! `rmcp_add_server` serves on `rmcp::transport::stdio()` (tokio's stdin and
//! stdout); `rmcp_add_server --pipes` serves on `stdio_pipes()`, rmcp's
//! non-blocking pipe transport.

use codeagent_bench::rmcp_adder::Adder;
use rmcp::ServiceExt;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pipes = std::env::args().skip(1).any(|arg| arg == "--pipes");
    let service = if pipes {
        Adder::new("rmcp-add").serve(rmcp::transport::stdio_pipes()).await?
    } else {
        Adder::new("rmcp-add").serve(rmcp::transport::stdio()).await?
    };
    service.waiting().await?;
    Ok(())
}
