//! Finding who issues tokens for a server: its protected resource metadata
//! (RFC 9728; from the challenge's `resource_metadata`, else at the
//! well-known URLs), whose `resource` must cover the server, then its
//! authorization server's metadata (RFC 8414 or OpenID Connect discovery),
//! whose `issuer` must be the issuer asked for, exactly.

use serde::Deserialize;

use super::challenge::Challenge;
use crate::net::HttpClient;
use crate::oauth::fetch::get_json;
use crate::oauth::url;

/// An authorization server's metadata, the fields this client uses.
#[derive(Clone, Debug, Deserialize)]
pub(crate) struct ServerMetadata {
    pub(crate) issuer: String,
    /// Absent where the server offers only grants without a person.
    #[serde(default)]
    pub(crate) authorization_endpoint: Option<String>,
    pub(crate) token_endpoint: String,
    #[serde(default)]
    pub(crate) registration_endpoint: Option<String>,
    #[serde(default)]
    pub(crate) scopes_supported: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) token_endpoint_auth_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) token_endpoint_auth_signing_alg_values_supported: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) code_challenge_methods_supported: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) client_id_metadata_document_supported: Option<bool>,
    #[serde(default)]
    pub(crate) authorization_response_iss_parameter_supported: Option<bool>,
}

/// What discovery found for a server.
#[derive(Clone, Debug)]
pub(crate) struct Discovered {
    /// The resource to ask tokens for, as its metadata publishes it.
    pub(crate) resource: String,
    /// The scopes its metadata lists, if it lists some.
    pub(crate) scopes_supported: Option<Vec<String>>,
    /// The authorization server.
    pub(crate) server: ServerMetadata,
}

#[derive(Deserialize)]
struct ResourceMetadata {
    resource: String,
    #[serde(default)]
    authorization_servers: Vec<String>,
    #[serde(default)]
    scopes_supported: Option<Vec<String>>,
}

/// Discovers the authorization of the server at `server_url` that sent
/// `challenge`.
pub(crate) async fn discover(
    client: &HttpClient,
    server_url: &str,
    challenge: &Challenge,
) -> Result<Discovered, String> {
    let candidates = match &challenge.resource_metadata {
        Some(url) => vec![url.clone()],
        None => url::well_known(server_url, "oauth-protected-resource"),
    };
    let mut tried = Vec::new();
    let mut metadata = None;
    for candidate in candidates {
        let answer = get_json(client, &candidate).await?;
        if answer.status.is_success() {
            let document: ResourceMetadata = serde_json::from_value(answer.json)
                .map_err(|error| format!("the protected resource metadata at {candidate} is not valid: {error}"))?;
            metadata = Some(document);
            break;
        }
        tried.push(format!("{candidate} (HTTP {})", answer.status.as_u16()));
    }
    let Some(metadata) = metadata else {
        return Err(format!("the server has no protected resource metadata: tried {}", tried.join(", ")));
    };
    if !url::covers(&metadata.resource, server_url) {
        return Err(format!(
            "the protected resource metadata is for `{}`, not for this server ({server_url}): refused",
            metadata.resource
        ));
    }
    let issuer = metadata
        .authorization_servers
        .first()
        .ok_or("the protected resource metadata names no authorization server")?
        .clone();
    let server = server_metadata(client, &issuer).await?;
    Ok(Discovered { resource: metadata.resource, scopes_supported: metadata.scopes_supported, server })
}

/// The metadata of the authorization server `issuer` (the authorization
/// code flow checks that it supports PKCE with S256).
async fn server_metadata(client: &HttpClient, issuer: &str) -> Result<ServerMetadata, String> {
    let (found_at, document) = crate::oauth::server_metadata(client, issuer).await?;
    serde_json::from_value(document)
        .map_err(|error| format!("the authorization server metadata at {found_at} is not valid: {error}"))
}
