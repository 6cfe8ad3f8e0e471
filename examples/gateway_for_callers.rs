//! A gateway that acts for its caller: it serves the tools of a protected
//! MCP server as its own, and each caller (verified by the gateway's own
//! resource server) reaches the mounted server with a token exchanged for
//! them at the issuer (RFC 8693): the mounted server sees the caller's
//! subject in a token issued for its own audience, with the gateway as the
//! actor. The caller's token is never forwarded. The gateway authenticates
//! at the issuer as its own client (`GATEWAY_CLIENT_ID`, secret in
//! `GATEWAY_SECRET`), and lists the mounted server with its own client
//! credentials.
//!
//! ```sh
//! GATEWAY_CLIENT_ID=gateway GATEWAY_SECRET=... \
//!     cargo run --features auth --example gateway_for_callers -- \
//!     https://auth.example.com https://docs.example.com/mcp 127.0.0.1:8080
//! ```
//!
//! The command line of every codeagent server does the same:
//! `--mount docs=URL --client-credentials gateway:GATEWAY_SECRET --token-exchange --issuer ISSUER`.

use codeagent::Server;
use codeagent::client::{Client, Credential, OAuth};
use codeagent::prelude::*;
use codeagent::server::auth::ResourceServer;
use codeagent::server::http::HttpOptions;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: gateway_for_callers ISSUER MOUNTED_URL ADDR (GATEWAY_CLIENT_ID and GATEWAY_SECRET set)";
    let (Some(issuer), Some(mounted), Some(address)) = (args.next(), args.next(), args.next()) else {
        return Err(usage.into());
    };
    let address: std::net::SocketAddr = address.parse()?;
    let client_id = std::env::var("GATEWAY_CLIENT_ID").map_err(|_| "GATEWAY_CLIENT_ID is not set")?;
    let secret = std::env::var("GATEWAY_SECRET").map_err(|_| "GATEWAY_SECRET is not set")?;

    // The mounted server: reached as the gateway for listing, and with a
    // token exchanged for each caller for their calls.
    let oauth = OAuth::client_credentials(&issuer, client_id, Credential::secret(secret)).token_exchange();
    let docs = Client::builder().oauth(oauth).http(&mounted).await?;
    let toolbox = Toolbox::new();
    toolbox.mount("docs", docs).await?;

    // The gateway's own resource server: callers bring tokens of the same
    // issuer for the gateway.
    let listener = tokio::net::TcpListener::bind(address).await?;
    let resource = format!("http://{}/mcp", listener.local_addr()?);
    let auth = ResourceServer::new(&issuer, &resource);
    eprintln!("gateway serving MCP at {resource}");
    Server::new(toolbox).serve_http_on(listener, HttpOptions::new().with_resource_server(auth)).await?;
    Ok(())
}
