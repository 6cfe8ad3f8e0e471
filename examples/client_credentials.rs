//! A client without a person: an agent in a backend or a CI job calls a
//! tool of a protected MCP server with a token of the OAuth client
//! credentials grant (RFC 6749 §4.4). The secret comes from the environment,
//! never the command line; `CLIENT_KEY` (a PEM file) signs a client
//! assertion instead (`private_key_jwt`).
//!
//! ```sh
//! CLIENT_ID=reporting-agent CLIENT_SECRET=... \
//!     cargo run --example client_credentials -- https://auth.example.com https://tools.example.com/mcp sales_total
//! ```

use codeagent::client::{Client, ClientKey, Credential, OAuth};
use serde_json::json;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: client_credentials ISSUER SERVER_URL TOOL (CLIENT_ID and CLIENT_SECRET or CLIENT_KEY set)";
    let (Some(issuer), Some(server), Some(tool)) = (args.next(), args.next(), args.next()) else {
        return Err(usage.into());
    };
    let client_id = std::env::var("CLIENT_ID").map_err(|_| "CLIENT_ID is not set")?;
    let credential = match (std::env::var("CLIENT_KEY"), std::env::var("CLIENT_SECRET")) {
        (Ok(path), _) => Credential::private_key(ClientKey::from_pem(&std::fs::read_to_string(path)?)?),
        (_, Ok(secret)) => Credential::secret(secret),
        _ => return Err("set CLIENT_SECRET, or CLIENT_KEY to a PEM private key".into()),
    };
    // Discovery finds the token endpoint from the server's 401; the
    // credentials are used with `issuer` only.
    let oauth = OAuth::client_credentials(issuer, client_id, credential);
    let client = Client::builder().oauth(oauth).http(&server).await?;
    let output = client.call(tool, json!({})).await?;
    println!("{}", output.result().value());
    Ok(())
}
