//! An OAuth 2.1 resource server for Streamable HTTP, as the MCP
//! authorization spec (2025-11-25, 2026-07-28) asks of a server: its
//! protected resource metadata (RFC 9728) at
//! `/.well-known/oauth-protected-resource` and at that path followed by the
//! endpoint's; every request's bearer token (from the `Authorization` header
//! only) checked, a request without a valid one answered `401` with a
//! `WWW-Authenticate: Bearer resource_metadata="...", scope="..."` challenge
//! (and `error="invalid_token"` when a token was sent); a call of a tool,
//! resource or prompt whose scopes the token lacks answered `403` with
//! `error="insufficient_scope"` and the scopes needed.
//!
//! Tokens are JWTs checked against the issuer's published keys (found from
//! its RFC 8414 or OpenID Connect metadata, cached, fetched again for an
//! unknown key id at most every 30 seconds): asymmetric signatures only,
//! `iss` equal to the issuer exactly, `aud` naming this resource, `exp` and
//! `nbf` with a leeway. For opaque tokens, [`ResourceServer::with_introspection`]
//! asks the issuer instead (RFC 7662). A tool reads who called it with
//! [`Context::caller`](crate::toolbox::Context::caller): the token's subject,
//! scopes and claims. The token itself goes nowhere else.
//!
//! ```no_run
//! # async fn run(server: codeagent_core::server::Server) -> std::io::Result<()> {
//! use codeagent_core::server::auth::ResourceServer;
//! use codeagent_core::server::http::HttpOptions;
//!
//! let auth = ResourceServer::new("https://id.example.com", "https://tools.example.com/mcp")
//!     .with_scopes_supported(["sales:read", "sales:write"]);
//! server.serve_http(([0, 0, 0, 0], 8080).into(), HttpOptions::new().with_resource_server(auth)).await
//! # }
//! ```

mod filter;
mod keys;
mod token;

pub use filter::ScopeFilter;

use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use crate::net::{HttpClient, http_client};
use crate::toolbox::Caller;

/// The leeway on `exp` and `nbf` unless told otherwise.
pub const DEFAULT_LEEWAY: Duration = Duration::from_secs(30);
/// The least time between two fetches of the issuer's keys unless told otherwise.
pub const DEFAULT_KEY_REFETCH: Duration = Duration::from_secs(30);

/// Checks the bearer tokens of a Streamable HTTP endpoint; see the
/// [module](self). Given to [`HttpOptions::with_resource_server`](crate::server::http::HttpOptions::with_resource_server).
#[derive(Clone)]
pub struct ResourceServer {
    config: Arc<Config>,
    keys: Arc<keys::Keys>,
    client: HttpClient,
}

#[derive(Clone)]
struct Config {
    issuer: String,
    resource: String,
    scopes_supported: Vec<String>,
    leeway: Duration,
    key_refetch: Duration,
    introspection: Option<Introspection>,
}

#[derive(Clone)]
struct Introspection {
    endpoint: String,
    client_id: String,
    client_secret: String,
}

impl std::fmt::Debug for ResourceServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResourceServer")
            .field("issuer", &self.config.issuer)
            .field("resource", &self.config.resource)
            .field("scopes_supported", &self.config.scopes_supported)
            .field("introspection", &self.config.introspection.as_ref().map(|i| &i.endpoint))
            .finish_non_exhaustive()
    }
}

/// Why a request is refused: its status and challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// 401 or 403.
    pub(crate) status: u16,
    /// What the client is told.
    pub(crate) message: String,
    /// The `WWW-Authenticate` header.
    pub(crate) challenge: String,
}

impl ResourceServer {
    /// Accepts JWTs that `issuer` (its identifier, exactly as its metadata
    /// states it) signed for `resource` (this server's URL, as clients
    /// address it: the `aud` tokens must name).
    pub fn new(issuer: impl Into<String>, resource: impl Into<String>) -> Self {
        let issuer = issuer.into();
        let config = Config {
            resource: resource.into(),
            scopes_supported: Vec::new(),
            leeway: DEFAULT_LEEWAY,
            key_refetch: DEFAULT_KEY_REFETCH,
            introspection: None,
            issuer: issuer.clone(),
        };
        ResourceServer {
            config: Arc::new(config),
            keys: Arc::new(keys::Keys::new(&issuer)),
            client: http_client(Duration::from_secs(10)),
        }
    }

    fn edit(mut self, change: impl FnOnce(&mut Config)) -> Self {
        change(Arc::make_mut(&mut self.config));
        self
    }

    /// The scopes advertised in the metadata and named in the `401`
    /// challenge (what a client asks for first).
    #[must_use]
    pub fn with_scopes_supported<S: Into<String>>(self, scopes: impl IntoIterator<Item = S>) -> Self {
        let scopes = scopes.into_iter().map(Into::into).collect();
        self.edit(|config| config.scopes_supported = scopes)
    }

    /// The leeway on `exp` and `nbf` for clocks that differ
    /// ([`DEFAULT_LEEWAY`] unless set).
    #[must_use]
    pub fn with_leeway(self, leeway: Duration) -> Self {
        self.edit(|config| config.leeway = leeway)
    }

    /// The least time between two fetches of the issuer's keys, when a
    /// token names a key the cached set lacks ([`DEFAULT_KEY_REFETCH`]
    /// unless set): a rotated key is picked up at most this long after the
    /// last fetch.
    #[must_use]
    pub fn with_key_refetch(self, every: Duration) -> Self {
        self.edit(|config| config.key_refetch = every)
    }

    /// Checks tokens at the issuer's RFC 7662 introspection `endpoint`
    /// (authenticated as `client_id` with `client_secret`) instead of as
    /// JWTs: for opaque tokens.
    #[must_use]
    pub fn with_introspection(
        self,
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
    ) -> Self {
        let introspection = Introspection {
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
        };
        self.edit(|config| config.introspection = Some(introspection))
    }

    /// The issuer whose tokens are accepted.
    pub fn issuer(&self) -> &str {
        &self.config.issuer
    }

    /// This server's resource identifier.
    pub fn resource(&self) -> &str {
        &self.config.resource
    }

    /// The protected resource metadata document (RFC 9728).
    pub fn metadata(&self) -> Value {
        let mut document = json!({
            "resource": self.config.resource,
            "authorization_servers": [self.config.issuer],
            "bearer_methods_supported": ["header"],
        });
        if !self.config.scopes_supported.is_empty() {
            document["scopes_supported"] = json!(self.config.scopes_supported);
        }
        document
    }

    /// The URL of the metadata document: the well-known path followed by
    /// the resource's path (RFC 9728 §3.1).
    pub fn metadata_url(&self) -> String {
        let origin = crate::oauth::url::origin(&self.config.resource).unwrap_or_default();
        format!("{origin}/.well-known/oauth-protected-resource{}", crate::oauth::url::path(&self.config.resource))
    }

    /// The paths the metadata document is served at: the one
    /// [`metadata_url`](Self::metadata_url) names, and the root form.
    pub(crate) fn metadata_paths(&self) -> Vec<String> {
        let path = crate::oauth::url::path(&self.config.resource);
        let mut paths = vec!["/.well-known/oauth-protected-resource".to_owned()];
        if !path.is_empty() {
            paths.insert(0, format!("/.well-known/oauth-protected-resource{path}"));
        }
        paths
    }

    fn challenge(&self, scopes: &[String], error: Option<(&str, &str)>) -> String {
        let quote = |text: &str| text.replace('\\', "\\\\").replace('"', "\\\"");
        let mut challenge = format!(r#"Bearer resource_metadata="{}""#, quote(&self.metadata_url()));
        if !scopes.is_empty() {
            challenge.push_str(&format!(r#", scope="{}""#, quote(&scopes.join(" "))));
        }
        if let Some((error, description)) = error {
            challenge.push_str(&format!(r#", error="{error}", error_description="{}""#, quote(description)));
        }
        challenge
    }

    /// Checks the request's `Authorization` header: who it speaks for, or
    /// the `401` refusing it.
    pub(crate) async fn admit(&self, authorization: Option<&str>) -> Result<Caller, Refusal> {
        let supported = &self.config.scopes_supported;
        let Some(header) = authorization else {
            return Err(Refusal {
                status: 401,
                message: "Unauthorized: this server needs an OAuth access token (see its resource metadata)".into(),
                challenge: self.challenge(supported, None),
            });
        };
        let token = header
            .split_once(' ')
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
            .map(|(_, token)| token.trim())
            .filter(|token| !token.is_empty());
        let checked = match token {
            None => Err("the Authorization header is not `Bearer <token>`".to_owned()),
            Some(token) => self.check(token).await,
        };
        checked.map(token::Holder::into_caller).map_err(|reason| Refusal {
            status: 401,
            message: format!("Unauthorized: {reason}"),
            challenge: self.challenge(supported, Some(("invalid_token", &reason))),
        })
    }

    async fn check(&self, token: &str) -> Result<token::Holder, String> {
        let config = &*self.config;
        match &config.introspection {
            Some(at) => {
                let credentials = (at.client_id.as_str(), at.client_secret.as_str());
                token::introspect(&self.client, &at.endpoint, credentials, token, &config.issuer, &config.resource)
                    .await
            }
            None => {
                let timing = (config.leeway, config.key_refetch);
                token::verify_jwt(&self.client, &self.keys, token, &config.issuer, &config.resource, timing).await
            }
        }
    }

    /// The `403` for a caller lacking `missing` of the scopes `needed`, if
    /// it lacks any.
    pub(crate) fn forbid(&self, needed: &[String], missing: &[String]) -> Option<Refusal> {
        if missing.is_empty() {
            return None;
        }
        let description = format!("the token lacks the scope {}", missing.join(" "));
        Some(Refusal {
            status: 403,
            message: format!("Forbidden: {description}"),
            challenge: self.challenge(needed, Some(("insufficient_scope", &description))),
        })
    }
}
