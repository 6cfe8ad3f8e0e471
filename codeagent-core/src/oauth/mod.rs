//! The OAuth plumbing both sides share: the client's authorization
//! ([`client::OAuth`](crate::client::OAuth)) and the server's token checks
//! (`server::auth`): URL arithmetic on identifiers as published, the bounded
//! HTTP exchanges, and an authorization server's metadata found and checked.

pub(crate) mod fetch;
pub(crate) mod url;

use serde_json::Value;

use crate::net::HttpClient;

/// The metadata of the authorization server `issuer` (RFC 8414, else OpenID
/// Connect discovery), from the first well-known URL that has it, with the
/// URL it came from; its `issuer` must be `issuer`, exactly (RFC 8414 §3.3).
pub(crate) async fn server_metadata(client: &HttpClient, issuer: &str) -> Result<(String, Value), String> {
    let mut tried = Vec::new();
    for candidate in url::server_metadata_urls(issuer) {
        let answer = fetch::get_json(client, &candidate).await?;
        if !answer.status.is_success() {
            tried.push(format!("{candidate} (HTTP {})", answer.status.as_u16()));
            continue;
        }
        let named = answer.json["issuer"].as_str().unwrap_or_default();
        if named != issuer {
            return Err(format!(
                "the authorization server metadata at {candidate} is for issuer `{named}`, not `{issuer}`: refused"
            ));
        }
        return Ok((candidate, answer.json));
    }
    Err(format!("no metadata for the authorization server `{issuer}`: tried {}", tried.join(", ")))
}
