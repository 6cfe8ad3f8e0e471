//! The OAuth 2.1 resource server (feature `auth`) against a real issuer:
//! oauth2-mock-server (`tests/auth/issuer.mjs`), whose tokens a codeagent
//! endpoint checks. Every refusal is asserted by its exact status and
//! `WWW-Authenticate` challenge (`refusals`); the Python `mcp` client's own
//! OAuth discovers the issuer from the 401 and calls the gallery in both eras
//! (`python`). DPoP (RFC 9449): proofs made by an independent library
//! (Python's joserfc, `tests/auth/dpop.py`), each probe refused by its exact
//! status and challenge in both eras, nonces, two instances sharing a store,
//! introspected tokens (`dpop`). A gateway acting for its caller: a mounted
//! protected server reached with tokens exchanged for each caller (RFC 8693)
//! or with the gateway's client credentials, never the caller's (`gateway`).
//!
//! The issuer and joserfc (in `.venv`) are installed by
//! `bash tests/auth/install.sh` (which `.ci/run` runs); the tests are `#[ignore]`d, so `cargo test --features auth` leaves them
//! out and `-- --include-ignored` runs them, failing with the install hint when
//! the issuer is missing.

#[path = "../common/mod.rs"]
mod common;
mod dpop;
mod gateway;
mod issuer;
mod paths;
mod python;
mod refusals;

use std::time::Duration;

use codeagent::Server;
use codeagent::prelude::*;
use codeagent::server::auth::{ResourceServer, ScopeFilter};
use codeagent::server::http::HttpOptions;

use common::http::{Endpoint, start_on};
use issuer::Issuer;

/// Reads the sales figures: any valid token will do.
#[tool(read_only)]
fn sales_total() -> String {
    "1200".to_owned()
}

/// Deletes a region's records: the token needs `sales:write`.
#[tool(destructive, scopes = ["sales:write"])]
fn delete_region(
    /// The region whose records to delete, such as "eu-west".
    region: String,
) -> String {
    format!("deleted {region}")
}

/// The caller's subject and scopes, as the tool sees them.
#[tool]
fn whoami(ctx: &Context) -> String {
    match ctx.caller() {
        Some(caller) => format!("{} {}", caller.subject(), caller.scopes().join(" ")),
        None => "nobody".to_owned(),
    }
}

/// The ledger behind the sales figures: reading it needs `sales:write`.
#[resource(uri = "sales://ledger", mime_type = "text/plain", scopes = ["sales:write"])]
fn ledger() -> String {
    "north 1200".to_owned()
}

/// A prompt to plan deletions: getting it needs `sales:write`.
#[prompt(scopes = ["sales:write"])]
fn plan_deletion() -> String {
    "Which regions should go?".to_owned()
}

/// A codeagent endpoint whose tokens `issuer` issues, fetching its keys
/// again at most every `refetch`: the endpoint, and its resource identifier
/// (`http://127.0.0.1:PORT/mcp`).
async fn protected(issuer: &Issuer, refetch: Duration) -> (Endpoint, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
    let auth = ResourceServer::new(&issuer.url, &resource)
        .with_scopes_supported(["sales:read", "sales:write"])
        .with_key_refetch(refetch);
    let toolbox =
        Toolbox::new().tool(sales_total).tool(delete_region).tool(whoami).resource(ledger).prompt(plan_deletion);
    let server = Server::new(toolbox.clone()).with_middleware(ScopeFilter::new(&toolbox));
    (start_on(listener, server, HttpOptions::new().with_resource_server(auth)).await, resource)
}
