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
//! scopes and claims. The token itself goes nowhere else, with one
//! exception: the [`Caller`] keeps it in a private field that no tool,
//! middleware or log can read, for a mounted server reached by RFC 8693
//! token exchange (`OAuth::token_exchange` of the client),
//! which exchanges it at the issuer for a token of the mounted server and
//! never forwards it.
//!
//! With [`ResourceServer::with_dpop`] it also accepts DPoP-bound tokens (RFC
//! 9449): `Authorization: DPoP <token>` with a `DPoP` proof of the key the
//! token's `cnf.jkt` names, checked for this request's method and URL, its
//! age and the token's hash, used once across every instance sharing a
//! [`Store`]; optionally required, optionally with nonces (see
//! [`DpopPolicy`]). A DPoP-bound token is never accepted as a bearer token.
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

mod dpop;
mod filter;
mod keys;
mod token;

pub use dpop::{DEFAULT_NONCE_LIFETIME, DEFAULT_PROOF_AGE, DpopPolicy};
pub use filter::ScopeFilter;

use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderMap;
use axum::http::header::AUTHORIZATION;
use serde_json::{Value, json};

use crate::net::{HttpClient, http_client};
use crate::server::store::{MemoryStore, Store, StoreError};
use crate::toolbox::Caller;

/// The request header a DPoP proof comes in.
const DPOP_HEADER: &str = "dpop";

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
    /// Where used DPoP proofs are remembered and the nonce key is kept.
    store: Arc<dyn Store>,
    /// Whether `store` was given ([`with_store`](Self::with_store)), not this
    /// process's own.
    store_given: bool,
    nonces: Arc<dpop::Nonces>,
}

#[derive(Clone)]
struct Config {
    issuer: String,
    resource: String,
    scopes_supported: Vec<String>,
    leeway: Duration,
    key_refetch: Duration,
    introspection: Option<Introspection>,
    dpop: Option<DpopPolicy>,
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
            .field("dpop", &self.config.dpop)
            .field("store_given", &self.store_given)
            .finish_non_exhaustive()
    }
}

/// Why a request is refused: its status and challenges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// 401 or 403 (503 when the store that proofs are checked against failed).
    pub(crate) status: u16,
    /// What the client is told.
    pub(crate) message: String,
    /// The `WWW-Authenticate` headers, one per scheme.
    pub(crate) challenges: Vec<String>,
    /// The `DPoP-Nonce` header.
    pub(crate) nonce: Option<String>,
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
            dpop: None,
            issuer: issuer.clone(),
        };
        ResourceServer {
            config: Arc::new(config),
            keys: Arc::new(keys::Keys::new(&issuer)),
            client: http_client(Duration::from_secs(10)),
            store: Arc::new(MemoryStore::new()),
            store_given: false,
            nonces: Arc::new(dpop::Nonces::new(None)),
        }
    }

    /// Accepts DPoP-bound tokens (RFC 9449) as `policy` says: with
    /// [`DpopPolicy::allowed`], `Authorization: DPoP` with a proof beside
    /// `Bearer`; with [`DpopPolicy::required`], only that. See
    /// [`DpopPolicy`] for the checks and the nonces. Without it, DPoP is
    /// refused (and a DPoP-bound token as well: it is no bearer token).
    #[must_use]
    pub fn with_dpop(mut self, policy: DpopPolicy) -> Self {
        let secret = policy.nonces.as_ref().and_then(|nonces| nonces.secret.clone());
        self.nonces = Arc::new(dpop::Nonces::new(secret));
        self.edit(|config| config.dpop = Some(policy))
    }

    /// Remembers used DPoP proofs and keeps the nonce key in `store`, shared
    /// with the other instances of this server, so that a proof used on one
    /// is refused on every other, and a nonce one made every other accepts.
    /// Unless set, the store of
    /// [`HttpOptions::with_store`](crate::server::http::HttpOptions::with_store)
    /// is used, or else one of this process's own.
    #[must_use]
    pub fn with_store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = store;
        self.store_given = true;
        let secret = self.config.dpop.as_ref().and_then(|dpop| dpop.nonces.as_ref()?.secret.clone());
        self.nonces = Arc::new(dpop::Nonces::new(secret));
        self
    }

    /// `self` with `store` unless one was given: the endpoint's shared store.
    pub(crate) fn sharing(self, store: &Arc<dyn Store>) -> Self {
        if self.store_given { self } else { self.with_store(Arc::clone(store)) }
    }

    /// How DPoP is treated, when it is accepted.
    pub fn dpop(&self) -> Option<&DpopPolicy> {
        self.config.dpop.as_ref()
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
        if let Some(dpop) = &self.config.dpop {
            document["dpop_signing_alg_values_supported"] = json!(dpop::algorithm_names());
            if dpop.is_required() {
                document["dpop_bound_access_tokens_required"] = json!(true);
            }
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

    /// The challenge of `scheme` naming `scopes`, with `error` (its code and
    /// description) when a credential was wrong.
    fn challenge(&self, scheme: Scheme, scopes: &[String], error: Option<(&str, &str)>) -> String {
        let quote = |text: &str| text.replace('\\', "\\\\").replace('"', "\\\"");
        let name = match scheme {
            Scheme::Bearer => "Bearer",
            Scheme::Dpop => "DPoP",
        };
        let mut challenge = format!(r#"{name} resource_metadata="{}""#, quote(&self.metadata_url()));
        if !scopes.is_empty() {
            challenge.push_str(&format!(r#", scope="{}""#, quote(&scopes.join(" "))));
        }
        if scheme == Scheme::Dpop {
            challenge.push_str(&format!(r#", algs="{}""#, dpop::algorithm_names().join(" ")));
        }
        if let Some((error, description)) = error {
            challenge.push_str(&format!(r#", error="{error}", error_description="{}""#, quote(description)));
        }
        challenge
    }

    /// The `401` of a request without a usable credential: the challenge of
    /// every scheme accepted, `error` (the scheme it is about, its code, its
    /// description) in that scheme's (else in the other's), and a fresh
    /// nonce when the server hands them out.
    async fn refuse(&self, error: Option<(Scheme, &str, &str)>) -> Refusal {
        let scopes = &self.config.scopes_supported;
        let dpop = self.config.dpop.as_ref();
        let mut offered = Vec::new();
        if !dpop.is_some_and(DpopPolicy::is_required) {
            offered.push(Scheme::Bearer);
        }
        if dpop.is_some() {
            offered.push(Scheme::Dpop);
        }
        // The error goes in the challenge of the scheme it is about, else in the one offered.
        let erring =
            error.and_then(|(scheme, ..)| offered.contains(&scheme).then_some(scheme).or(offered.last().copied()));
        let challenges = offered
            .iter()
            .map(|scheme| {
                let error = error.filter(|_| erring == Some(*scheme)).map(|(_, code, description)| (code, description));
                self.challenge(*scheme, scopes, error)
            })
            .collect();
        let message = match error {
            Some((_, _, description)) => format!("Unauthorized: {description}"),
            None => "Unauthorized: this server needs an OAuth access token (see its resource metadata)".to_owned(),
        };
        Refusal { status: 401, message, challenges, nonce: self.fresh_nonce().await }
    }

    /// Whether the server hands out DPoP nonces (and requires them).
    pub(crate) fn hands_out_nonces(&self) -> bool {
        self.config.dpop.as_ref().is_some_and(|dpop| dpop.nonces.is_some())
    }

    /// A nonce to hand out in a response, when the server requires them.
    pub(crate) async fn next_nonce(&self) -> Option<String> {
        self.fresh_nonce().await
    }

    /// A nonce to hand out, when the server requires them.
    async fn fresh_nonce(&self) -> Option<String> {
        let lifetime = self.config.dpop.as_ref()?.nonces.as_ref()?.lifetime;
        let made = self.nonces.make(&*self.store, &self.config.resource, lifetime, dpop::unix_now()).await;
        made.inspect_err(|error| tracing::warn!("no DPoP nonce could be made: {error}")).ok()
    }

    /// The `503` of a request whose proof could not be checked because the
    /// store failed: refused, never let through.
    fn store_failed(error: &StoreError) -> Refusal {
        tracing::warn!("the store of DPoP proofs failed: {error}");
        Refusal {
            status: 503,
            message: format!("Service Unavailable: the store that DPoP proofs are checked against failed: {error}"),
            challenges: Vec::new(),
            nonce: None,
        }
    }

    /// Checks the request's `Authorization` header (and, for DPoP, its
    /// `DPoP` proof, made for `method` at `path`): who it speaks for, or the
    /// refusal.
    pub(crate) async fn admit(&self, headers: &HeaderMap, method: &str, path: &str) -> Result<Caller, Refusal> {
        let authorization = headers.get(AUTHORIZATION).and_then(|value| value.to_str().ok());
        let Some(header) = authorization else {
            return Err(self.refuse(None).await);
        };
        let dpop = self.config.dpop.as_ref();
        let (scheme, token) = match header.split_once(' ') {
            Some((scheme, token)) if !token.trim().is_empty() => (scheme, token.trim()),
            _ => (header, ""),
        };
        let scheme = if scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() {
            Scheme::Bearer
        } else if scheme.eq_ignore_ascii_case("dpop") && !token.is_empty() && dpop.is_some() {
            Scheme::Dpop
        } else {
            let description = match dpop {
                None => "the Authorization header is not `Bearer <token>`",
                Some(policy) if policy.is_required() => "the Authorization header is not `DPoP <token>`",
                Some(_) => "the Authorization header is not `Bearer <token>` or `DPoP <token>`",
            };
            return Err(self.refuse(Some((Scheme::Bearer, "invalid_token", description))).await);
        };
        match scheme {
            Scheme::Bearer => self.admit_bearer(token).await,
            Scheme::Dpop => self.admit_dpop(headers, token, method, path).await,
        }
    }

    async fn admit_bearer(&self, token: &str) -> Result<Caller, Refusal> {
        let invalid = |description| error(Scheme::Bearer, "invalid_token", description);
        if self.config.dpop.as_ref().is_some_and(DpopPolicy::is_required) {
            let description =
                "this server accepts only DPoP-bound tokens: send `Authorization: DPoP <token>` with a DPoP proof";
            return Err(self.refuse(Some((Scheme::Dpop, "invalid_token", description))).await);
        }
        let holder = match self.check(token).await {
            Ok(holder) => holder,
            Err(reason) => return Err(self.refuse(invalid(&reason)).await),
        };
        match holder.binding() {
            Ok(None) => Ok(holder.into_caller(token)),
            Ok(Some(_)) => {
                let description = match self.config.dpop {
                    Some(_) => {
                        "the token is bound to a DPoP key (cnf.jkt): send it as `Authorization: DPoP <token>` with a proof made with that key"
                    }
                    None => {
                        "the token is bound to a DPoP key (cnf.jkt), and this server does not accept DPoP: a bound token is no bearer token"
                    }
                };
                Err(self.refuse(invalid(description)).await)
            }
            Err(reason) => Err(self.refuse(invalid(&reason)).await),
        }
    }

    async fn admit_dpop(&self, headers: &HeaderMap, token: &str, method: &str, path: &str) -> Result<Caller, Refusal> {
        let Some(policy) = self.config.dpop.as_ref() else {
            return Err(self.refuse(Some((Scheme::Bearer, "invalid_token", "this server does not accept DPoP"))).await);
        };
        let bad_proof = |description| error(Scheme::Dpop, "invalid_dpop_proof", description);
        let mut proofs = headers.get_all(DPOP_HEADER).iter();
        let proof = match (proofs.next(), proofs.next()) {
            (None, _) => return Err(self.refuse(bad_proof("the request has no DPoP header (its proof)")).await),
            (Some(_), Some(_)) => {
                return Err(self.refuse(bad_proof("the request has more than one DPoP header")).await);
            }
            (Some(proof), None) => proof,
        };
        if proof.len() > dpop::MAX_PROOF {
            let description = format!("the DPoP proof is longer than {} bytes", dpop::MAX_PROOF);
            return Err(self.refuse(bad_proof(&description)).await);
        }
        let Ok(proof) = proof.to_str() else {
            return Err(self.refuse(bad_proof("the DPoP header is not ASCII text")).await);
        };
        let Some(url) = crate::oauth::url::origin(&self.config.resource).map(|origin| format!("{origin}{path}")) else {
            let description = "this server's resource identifier has no origin to check the proof's htu against";
            return Err(self.refuse(bad_proof(description)).await);
        };
        let now = dpop::unix_now();
        let proof = match dpop::check(proof, method, &url, now, policy.proof_age) {
            Ok(proof) => proof,
            Err(reason) => return Err(self.refuse(bad_proof(&reason)).await),
        };
        if let Some(nonces) = &policy.nonces {
            let refusal = match &proof.nonce {
                None => Some("this server requires a nonce in DPoP proofs: use the one its DPoP-Nonce header gives"),
                Some(nonce) => {
                    let resource = &self.config.resource;
                    match self.nonces.accepts(&*self.store, resource, nonces.lifetime, now, nonce).await {
                        Ok(true) => None,
                        Ok(false) => Some(
                            "the DPoP proof's nonce is not one this server handed out recently: use the one its DPoP-Nonce header gives",
                        ),
                        Err(error) => return Err(Self::store_failed(&error)),
                    }
                }
            };
            if let Some(description) = refusal {
                return Err(self.refuse(Some((Scheme::Dpop, "use_dpop_nonce", description))).await);
            }
        }
        match &proof.ath {
            None => return Err(self.refuse(bad_proof("the DPoP proof has no `ath` (the access token's hash)")).await),
            Some(ath) if *ath != dpop::sha256_b64(token) => {
                let description = "the DPoP proof's `ath` is not the hash of the access token sent with it";
                return Err(self.refuse(bad_proof(description)).await);
            }
            Some(_) => {}
        }
        let invalid = |description| error(Scheme::Dpop, "invalid_token", description);
        let holder = match self.check(token).await {
            Ok(holder) => holder,
            Err(reason) => return Err(self.refuse(invalid(&reason)).await),
        };
        match holder.binding() {
            Ok(Some(jkt)) if jkt == proof.jkt => {}
            Ok(Some(jkt)) => {
                let description = format!(
                    "the DPoP proof's key (thumbprint {}) is not the key the token is bound to (cnf.jkt {jkt})",
                    proof.jkt
                );
                return Err(self.refuse(bad_proof(&description)).await);
            }
            Ok(None) => {
                let description =
                    "the token is not bound to a DPoP key (it has no cnf.jkt), so no proof can stand for it";
                return Err(self.refuse(invalid(description)).await);
            }
            Err(reason) => return Err(self.refuse(invalid(&reason)).await),
        }
        // Last, once everything else passed: a proof is used once, on any instance.
        let seen = format!("dpop-jti:{}", dpop::sha256_b64(&format!("{}\n{}", proof.jkt, proof.jti)));
        let marker = match crate::random::hex::<16>() {
            Ok(marker) => marker,
            Err(error) => return Err(Self::store_failed(&StoreError::new(format!("no randomness: {error}")))),
        };
        let remember = policy.proof_age.saturating_mul(2).saturating_add(Duration::from_secs(5));
        match self.store.set_if_absent(&seen, marker.clone(), remember).await {
            Ok(value) if value == marker => Ok(holder.into_caller(token)),
            Ok(_) => {
                let description = "the DPoP proof was used before (its jti): make a new proof for every request";
                Err(self.refuse(bad_proof(description)).await)
            }
            Err(error) => Err(Self::store_failed(&error)),
        }
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

    /// The `403` for `caller` lacking `missing` of the scopes `needed`, if
    /// it lacks any: in the challenge of the scheme its token came with.
    pub(crate) fn forbid(&self, needed: &[String], missing: &[String], caller: Option<&Caller>) -> Option<Refusal> {
        if missing.is_empty() {
            return None;
        }
        let bound = caller.and_then(|caller| caller.claim("cnf")).and_then(|cnf| cnf.get("jkt")).is_some();
        let scheme = if bound { Scheme::Dpop } else { Scheme::Bearer };
        let description = format!("the token lacks the scope {}", missing.join(" "));
        Some(Refusal {
            status: 403,
            message: format!("Forbidden: {description}"),
            challenges: vec![self.challenge(scheme, needed, Some(("insufficient_scope", &description)))],
            nonce: None,
        })
    }
}

/// The error of a refusal: the scheme it is about, its code, its description.
fn error<'a>(scheme: Scheme, code: &'a str, description: &'a str) -> Option<(Scheme, &'a str, &'a str)> {
    Some((scheme, code, description))
}

/// An authorization scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scheme {
    /// RFC 6750.
    Bearer,
    /// RFC 9449.
    Dpop,
}
