//! OAuth 2.1 for a client of HTTP servers: [`OAuth`].

mod challenge;
mod discovery;
mod flow;
mod keys;
mod machine;
mod token;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

pub(crate) use challenge::Challenge;
use discovery::Discovered;
use flow::Registration;
pub use keys::{ClientKey, KeyError};
pub use machine::{Assertion, Credential, IdentityProvider};
use machine::{Grant, Machine};
use token::{Dpop, Token};

use crate::log_text::escaped;
use crate::net::{HttpClient, Reach, http_client_reaching, is_internal};

/// The answer of an authorizer: the URL the authorization server redirected
/// to, or why there is none.
type Redirected = Pin<Box<dyn Future<Output = Result<String, String>> + Send>>;

/// Who approves an authorization request.
#[derive(Clone)]
pub(crate) enum Authorizer {
    /// The application: it shows the URL to a person and returns where the
    /// browser was redirected.
    Person(Arc<dyn Fn(String) -> Redirected + Send + Sync>),
    /// No one: the authorization endpoint redirects at once.
    Unattended,
}

/// The settings of an [`OAuth`].
#[derive(Clone)]
pub(crate) struct Config {
    pub(crate) authorizer: Authorizer,
    pub(crate) redirect_uri: String,
    pub(crate) client_name: String,
    /// Credentials registered beforehand, each with the one issuer it is for.
    pub(crate) registered: Vec<Registered>,
    pub(crate) metadata_document: Option<String>,
    /// A grant without a person, instead of the authorization code flow.
    pub(crate) machine: Option<Machine>,
    /// The scopes asked for, in place of the challenge's or the resource's.
    pub(crate) scopes: Option<Vec<String>>,
}

/// A client id (and secret) registered beforehand at one authorization server.
#[derive(Clone)]
pub(crate) struct Registered {
    /// The issuer it was registered with, exactly as its metadata's `issuer`.
    pub(crate) issuer: String,
    pub(crate) client_id: String,
    pub(crate) secret: Option<String>,
}

/// Whom a token is for: the authorization server that issued it and the
/// protected resource it is bound to (RFC 8707). A token is attached only to
/// requests to a server whose own discovery named this pair.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Audience {
    pub(crate) issuer: String,
    pub(crate) resource: String,
}

/// A token held for one [`Audience`], and the scopes asked for it so far.
struct Held {
    token: Token,
    scopes: Vec<String>,
}

/// What the flows learnt: a registration per authorization server, and a
/// grant per audience (issuer and resource).
#[derive(Default)]
struct State {
    registrations: Vec<(String, Registration)>,
    grants: HashMap<Audience, Held>,
    /// Hashes of the workload JWTs refused for good, never presented again.
    refused: Vec<[u8; 32]>,
}

/// OAuth 2.1 for a client of HTTP servers, as the MCP authorization spec
/// (2025-11-25 and 2026-07-28) describes it: a request answered `401` (or
/// `403 insufficient_scope`) with a `WWW-Authenticate: Bearer` challenge
/// starts the flow, and the request is sent again with the token.
///
/// The flow: the server's protected resource metadata (RFC 9728; the
/// challenge's `resource_metadata`, else the well-known URLs), whose
/// `resource` must cover the server; its authorization server's metadata
/// (RFC 8414, else OpenID Connect discovery), whose `issuer` must match
/// exactly and which must support PKCE with S256; the client's identity
/// there (credentials pre-registered for that issuer, a client ID metadata
/// document, else dynamic registration, RFC 7591; one per authorization
/// server, never used at another); the authorization code flow with PKCE,
/// its `state` and RFC 9207 `iss` checked, the authorization URL handed to
/// the application only when it is `https://` (or `http://` on loopback);
/// the token bound to the resource (RFC 8707). The scopes
/// asked for are the challenge's, else those the resource lists, plus those
/// asked before (a `403` asks for more: step-up), plus `offline_access` when
/// the authorization server offers it; a `401` with a refresh token refreshes
/// first. A request is authorized at most three times before it fails with
/// [`ClientError::Unauthorized`](super::ClientError::Unauthorized).
///
/// Where a person approves, the application opens the authorization URL in
/// a browser and hands back the URL it was redirected to:
///
/// ```no_run
/// # async fn run() -> Result<(), codeagent_core::client::ClientError> {
/// use codeagent_core::client::{Client, OAuth};
///
/// let oauth = OAuth::new("http://127.0.0.1:8976/callback", |authorization_url: String| async move {
///     println!("open {authorization_url}, then paste the address you land on:");
///     let mut landed = String::new();
///     std::io::stdin().read_line(&mut landed).map_err(|error| error.to_string())?;
///     Ok(landed.trim().to_owned())
/// });
/// let client = Client::builder().oauth(oauth).http("https://tools.example.com/mcp").await?;
/// # Ok(()) }
/// ```
///
/// Without a person, the same discovery leads to another grant, each bound
/// to the one issuer its credentials are for:
/// [`client_credentials`](OAuth::client_credentials) (a secret or a private
/// key), [`enterprise_managed`](OAuth::enterprise_managed) (an ID token
/// exchanged at the identity provider) and
/// [`workload_identity`](OAuth::workload_identity) (a workload's JWT).
/// [`dpop`](OAuth::dpop) binds the tokens of any of them to a key of the
/// client (RFC 9449).
///
/// Given to [`ClientBuilder::oauth`](super::ClientBuilder::oauth). Clones
/// share their tokens and registrations, so one `OAuth` may serve several
/// clients: each token is kept for the pair (issuer, resource) it was issued
/// for, and a connection attaches only the token of the pair its own
/// server's discovery named, never another server's. Discovery and the
/// flow's other requests reach only public addresses when the server is on
/// one ([`ClientBuilder::allow_private_discovery`](super::ClientBuilder::allow_private_discovery)).
#[derive(Clone)]
pub struct OAuth {
    config: Arc<Config>,
    state: Arc<tokio::sync::Mutex<State>>,
    /// The access token of each audience, for the requests' headers.
    bearers: Arc<Mutex<Bearers>>,
    /// The DPoP key and nonces, when the client uses DPoP (or why it has no key).
    dpop: Option<Arc<Result<Dpop, String>>>,
    /// The tokens exchanged for callers, when requests made for a caller
    /// use token exchange ([`token_exchange`](OAuth::token_exchange)).
    exchange: Option<Arc<Exchanges>>,
}

/// What token exchange for callers keeps: each server's discovery, and a
/// token per caller and audience until it expires.
#[derive(Default)]
struct Exchanges {
    discovered: tokio::sync::Mutex<HashMap<String, Discovered>>,
    tokens: Mutex<HashMap<(String, Audience), Exchanged>>,
}

/// A token obtained for one caller, and until when it is used.
struct Exchanged {
    presented: Presented,
    until: std::time::Instant,
}

/// How long before its expiry an exchanged token is no longer used.
const EXPIRY_MARGIN: std::time::Duration = std::time::Duration::from_secs(30);

/// The access tokens in use, read without waiting for a flow.
#[derive(Default)]
struct Bearers {
    by_audience: HashMap<Audience, Presented>,
    last: Option<String>,
}

/// An access token as a request presents it.
#[derive(Clone)]
pub(crate) struct Presented {
    pub(crate) token: String,
    /// Bound to the DPoP key: the `DPoP` scheme, with a proof.
    pub(crate) dpop: bool,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth")
            .field("redirect_uri", &self.config.redirect_uri)
            .field("client_name", &self.config.client_name)
            .field("registered_issuers", &self.config.registered.iter().map(|known| &known.issuer).collect::<Vec<_>>())
            .field("machine", &self.config.machine)
            .field("dpop", &self.dpop.is_some())
            .field("token_exchange", &self.exchange.is_some())
            .field("scopes", &self.config.scopes)
            .field("authorized", &self.access_token().is_some())
            .finish_non_exhaustive()
    }
}

impl OAuth {
    /// Authorization approved by a person: `authorize` gets the
    /// authorization URL to open, and returns the URL (on `redirect_uri`)
    /// that the authorization server redirected the browser to, or why
    /// there is none.
    pub fn new<F, Fut>(redirect_uri: impl Into<String>, authorize: F) -> OAuth
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<String, String>> + Send + 'static,
    {
        let authorizer = Authorizer::Person(Arc::new(move |url| Box::pin(authorize(url)) as Redirected));
        OAuth::with(authorizer, redirect_uri.into())
    }

    /// Authorization without a person, for authorization servers that
    /// approve this client at once (a test issuer, consent given before):
    /// the client reads the authorization endpoint's redirect itself.
    pub fn unattended(redirect_uri: impl Into<String>) -> OAuth {
        OAuth::with(Authorizer::Unattended, redirect_uri.into())
    }

    fn with(authorizer: Authorizer, redirect_uri: String) -> OAuth {
        let config = Config {
            authorizer,
            redirect_uri,
            client_name: "codeagent".into(),
            registered: Vec::new(),
            metadata_document: None,
            machine: None,
            scopes: None,
        };
        OAuth { config: Arc::new(config), state: Arc::default(), bearers: Arc::default(), dpop: None, exchange: None }
    }

    fn machine(issuer: String, client_id: String, grant: Grant) -> OAuth {
        let mut oauth = OAuth::with(Authorizer::Unattended, String::new());
        Arc::make_mut(&mut oauth.config).machine = Some(Machine { issuer, client_id, grant });
        oauth
    }

    /// The client credentials grant (RFC 6749 §4.4; the MCP OAuth client
    /// credentials extension), for a client acting on its own behalf: no
    /// person, no browser. The client is `client_id` at the authorization
    /// server `issuer` (exactly as its metadata's `issuer` reads; see
    /// [`issuer_of`](OAuth::issuer_of) where it is not known) and proves it
    /// with `credential`: a secret ([`Credential::secret`], HTTP Basic
    /// unless the server takes only `client_secret_post`) or a private key
    /// ([`Credential::private_key`], `private_key_jwt`).
    ///
    /// Discovery runs as for the authorization code flow; a server whose
    /// discovery names another issuer never gets the credentials. The token
    /// request names the resource (RFC 8707) and the scopes of the
    /// challenge, else those the resource lists; a `401` later asks again
    /// (there is no refresh token to use).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
    /// use codeagent_core::client::{Client, ClientKey, Credential, OAuth};
    ///
    /// let key = ClientKey::from_pem(&std::fs::read_to_string("client-key.pem")?)?;
    /// let oauth = OAuth::client_credentials("https://auth.example.com", "reporting-agent", Credential::private_key(key));
    /// let client = Client::builder().oauth(oauth).http("https://tools.example.com/mcp").await?;
    /// # Ok(()) }
    /// ```
    pub fn client_credentials(
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        credential: Credential,
    ) -> OAuth {
        OAuth::machine(issuer.into(), client_id.into(), Grant::ClientCredentials(credential))
    }

    /// Enterprise-managed authorization (the MCP enterprise-managed
    /// authorization extension): the person signed in to this client at
    /// the enterprise's identity provider, and `provider` exchanges their
    /// ID token for an identity assertion grant for the MCP server (RFC
    /// 8693, `requested_token_type` `urn:ietf:params:oauth:token-type:id-jag`,
    /// `audience` the issuer, `resource` the server). The client presents
    /// that grant to the authorization server `issuer` with the JWT bearer
    /// grant (RFC 7523), as `client_id` proven with `credential`. No browser
    /// opens; each new token needs a new exchange, made when a `401` comes.
    pub fn enterprise_managed(
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        credential: Credential,
        provider: IdentityProvider,
    ) -> OAuth {
        OAuth::machine(issuer.into(), client_id.into(), Grant::Enterprise { credential, provider })
    }

    /// Workload identity federation: the platform the client runs on
    /// (Kubernetes, a CI system, a cloud) gives the workload a JWT, which
    /// the client presents to the authorization server `issuer` with the
    /// JWT bearer grant (RFC 7523) as the public client `client_id`. The
    /// JWT is read from `assertion` at each request for a token, so a file
    /// the platform rotates is picked up. A JWT refused with
    /// `invalid_grant`, `invalid_scope` or `unauthorized_client` is not
    /// presented again, and no other grant is tried.
    pub fn workload_identity(issuer: impl Into<String>, client_id: impl Into<String>, assertion: Assertion) -> OAuth {
        OAuth::machine(issuer.into(), client_id.into(), Grant::Workload(assertion))
    }

    /// DPoP (RFC 9449): tokens bound to a key of this client, so a token
    /// that leaks is useless without it. An ES256 key is made now, for this
    /// `OAuth` and its clones (it never leaves memory); every token request
    /// carries a proof, and so does every request to a server that
    /// presents a DPoP-bound token (with the `DPoP` scheme, a fresh `jti`
    /// and the token's hash, `ath`). A server's `use_dpop_nonce` answer is
    /// followed by one more request with its nonce; its later nonces are
    /// kept. A server that issues bearer tokens regardless gets them
    /// presented as bearer tokens.
    #[must_use]
    pub fn dpop(mut self) -> OAuth {
        self.dpop = Some(Arc::new(Dpop::new()));
        self
    }

    /// Requests made for a caller (a tool, resource or prompt of a server
    /// [mounted](crate::toolbox::Toolbox::mount) with this client, used by
    /// a caller whose access token this application's resource server
    /// verified) carry a token obtained for that caller by RFC 8693 token
    /// exchange, never the caller's own token: at the authorization server
    /// the mounted server's discovery names, the caller's access token is
    /// the `subject_token`, the mounted server's resource is the `resource`
    /// and the `audience`, and this client authenticates with the
    /// credentials of [`client_credentials`](OAuth::client_credentials)
    /// (token exchange needs them, and fails naming them otherwise). The
    /// token is kept per caller (its [`identity`](crate::toolbox::Caller::identity))
    /// and server until 30 seconds before its `expires_in` (not kept when
    /// the answer has none); a `401` for it drops it and exchanges once more.
    ///
    /// The client's own requests (the handshake, listings, notifications)
    /// use the client credentials grant as before: the gateway's own
    /// identity. A request made for a caller who came without a verified
    /// token (no resource server, or an identity a middleware set) fails
    /// instead of falling back to the client's own identity.
    ///
    /// ```no_run
    /// # async fn run(secret: String) -> Result<(), Box<dyn std::error::Error>> {
    /// use codeagent_core::client::{Client, Credential, OAuth};
    /// use codeagent_core::toolbox::Toolbox;
    ///
    /// let oauth = OAuth::client_credentials("https://auth.example.com", "gateway", Credential::secret(secret))
    ///     .token_exchange();
    /// let docs = Client::builder().oauth(oauth).http("https://docs.example.com/mcp").await?;
    /// let toolbox = Toolbox::new();
    /// toolbox.mount("docs", docs).await?;
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn token_exchange(mut self) -> OAuth {
        self.exchange = Some(Arc::default());
        self
    }

    /// The scopes to ask for, in place of those the server's challenge or
    /// resource metadata names (the client credentials grant and the other
    /// grants without a person), and the scopes of exchanged tokens (none
    /// unless set: the authorization server decides).
    #[must_use]
    pub fn scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> OAuth {
        Arc::make_mut(&mut self.config).scopes = Some(scopes.into_iter().map(Into::into).collect());
        self
    }

    /// Whether requests made for a caller use token exchange.
    pub(crate) fn exchanges(&self) -> bool {
        self.exchange.is_some()
    }

    /// The token for a request to the server at `server_url` made for
    /// `caller`, by token exchange (see [`token_exchange`](OAuth::token_exchange)):
    /// the one kept for this caller and server while it lasts, else a new
    /// one; `fresh` drops the one kept first. Why there is none otherwise.
    pub(crate) async fn for_caller(
        &self,
        client: &HttpClient,
        server_url: &str,
        caller: Option<&crate::toolbox::Caller>,
        fresh: bool,
    ) -> Result<Presented, String> {
        let exchanges = self.exchange.as_ref().ok_or("this client does not use token exchange")?;
        let caller = caller.ok_or(
            "this request is made for a caller, and there is none: the mounted server is reached only with \
             tokens exchanged for callers whose access token a resource server verified",
        )?;
        let subject_token = caller.admitted_token().ok_or_else(|| {
            format!(
                "the caller `{}` came without an access token a resource server verified, so there is none to \
                 exchange for the mounted server: refused (its own token is never forwarded)",
                escaped(caller.subject())
            )
        })?;
        let machine = self.config.machine.as_ref().ok_or(
            "token exchange needs the client's own credentials: build it with OAuth::client_credentials(..).token_exchange()",
        )?;
        let discovered = {
            let mut known = exchanges.discovered.lock().await;
            match known.get(server_url) {
                Some(discovered) => discovered.clone(),
                None => {
                    let discovered = discovery::discover(client, server_url, &Challenge::default()).await?;
                    known.insert(server_url.to_owned(), discovered.clone());
                    discovered
                }
            }
        };
        let audience = Audience { issuer: discovered.server.issuer.clone(), resource: discovered.resource.clone() };
        let key = (caller.identity(), audience);
        {
            let mut tokens = exchanges.tokens.lock().unwrap_or_else(PoisonError::into_inner);
            let now = std::time::Instant::now();
            tokens.retain(|_, kept| kept.until > now);
            if fresh {
                tokens.remove(&key);
            } else if let Some(kept) = tokens.get(&key) {
                return Ok(kept.presented.clone());
            }
        }
        let dpop = self.dpop_state()?;
        let scopes = self.config.scopes.clone().unwrap_or_default();
        let (token, lifetime) = machine.exchange(client, &discovered, subject_token, &scopes, dpop).await?;
        let presented = Presented { token: token.access, dpop: token.dpop };
        let kept = lifetime
            .map(std::time::Duration::from_secs)
            .and_then(|lifetime| lifetime.checked_sub(EXPIRY_MARGIN))
            .filter(|left| !left.is_zero());
        if let Some(left) = kept {
            let until = std::time::Instant::now() + left;
            let mut tokens = exchanges.tokens.lock().unwrap_or_else(PoisonError::into_inner);
            tokens.insert(key, Exchanged { presented: presented.clone(), until });
        }
        Ok(presented)
    }

    /// The JWK SHA-256 thumbprint (RFC 7638) of this client's DPoP key,
    /// what the `cnf.jkt` of its tokens names; `None` without DPoP.
    pub fn dpop_thumbprint(&self) -> Option<String> {
        self.dpop.as_deref()?.as_ref().ok().map(|dpop| dpop.thumbprint().to_owned())
    }

    /// The DPoP state, or why the client has none though it should.
    fn dpop_state(&self) -> Result<Option<&Dpop>, String> {
        match self.dpop.as_deref() {
            None => Ok(None),
            Some(Ok(dpop)) => Ok(Some(dpop)),
            Some(Err(error)) => Err(format!("DPoP has no key: {error}")),
        }
    }

    /// A DPoP proof for a request (`method` on `url`) presenting `token`.
    pub(crate) fn proof(&self, method: &str, url: &str, token: &str) -> Result<String, String> {
        let dpop = self.dpop_state()?.ok_or("this client does not use DPoP")?;
        dpop.proof(method, url, Some(token))
    }

    /// Keeps the DPoP nonce the server of `url` gave; whether it is new.
    pub(crate) fn remember_nonce(&self, url: &str, nonce: &str) -> bool {
        matches!(self.dpop_state(), Ok(Some(dpop)) if dpop.remember(url, nonce))
    }

    /// The name this client registers under (`codeagent` unless told).
    #[must_use]
    pub fn client_name(mut self, name: impl Into<String>) -> OAuth {
        Arc::make_mut(&mut self.config).client_name = name.into();
        self
    }

    /// A client id (and secret, for a confidential client) registered
    /// beforehand with the authorization server `issuer` (exactly as its
    /// metadata's `issuer` reads): used instead of registering, with that
    /// issuer only (SEP-2352). A server whose metadata names another issuer
    /// never gets them: there the client uses its metadata document or
    /// registers, and fails naming both issuers when it can do neither.
    /// Repeat it for credentials at several issuers; a second call for the
    /// same issuer replaces the first.
    #[must_use]
    pub fn registered(
        mut self,
        issuer: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: Option<String>,
    ) -> OAuth {
        let issuer = issuer.into();
        let registered = &mut Arc::make_mut(&mut self.config).registered;
        registered.retain(|known| known.issuer != issuer);
        registered.push(Registered { issuer, client_id: client_id.into(), secret: client_secret });
        self
    }

    /// The issuer the server at `server_url` names, found as a client does
    /// (its protected resource metadata at the well-known URLs, whose
    /// `resource` must cover the server; its authorization server's
    /// metadata, whose `issuer` must match): for [`registered`](OAuth::registered)
    /// credentials where the issuer is not known beforehand. Trusting the
    /// answer trusts the server to name its issuer; give the issuer yourself
    /// where you know it. Reaches only public addresses unless the server
    /// is on an internal one.
    pub async fn issuer_of(server_url: &str) -> Result<String, super::ClientError> {
        let failed = |reason: String| super::ClientError::Unauthorized { url: server_url.to_owned(), reason };
        let uri: hyper::Uri = server_url
            .parse()
            .map_err(|error| super::ClientError::BadUrl { url: server_url.to_owned(), reason: format!("{error}") })?;
        let client = discovery_client(&uri, false).await;
        let discovered = discovery::discover(&client, server_url, &Challenge::default()).await.map_err(failed)?;
        Ok(discovered.server.issuer)
    }

    /// The HTTPS URL of this client's metadata document (a client ID
    /// metadata document): its client id where an authorization server
    /// accepts them, instead of registering.
    #[must_use]
    pub fn metadata_document(mut self, url: impl Into<String>) -> OAuth {
        Arc::make_mut(&mut self.config).metadata_document = Some(url.into());
        self
    }

    /// The access token obtained last (for whichever server), once there is
    /// one. Each connection attaches only the token of its own server.
    pub fn access_token(&self) -> Option<String> {
        self.bearers.lock().unwrap_or_else(PoisonError::into_inner).last.clone()
    }

    /// The access token held for `audience`, if there is one.
    pub(crate) fn token_for(&self, audience: &Audience) -> Option<Presented> {
        self.bearers.lock().unwrap_or_else(PoisonError::into_inner).by_audience.get(audience).cloned()
    }

    /// Answers `challenge` (from the server at `server_url`; `forbidden` for
    /// a 403) for a request that carried `sent`, on a connection bound to
    /// `bound` (the audience its last answer named): the audience whose
    /// token the connection attaches from now on, or why there is none.
    pub(crate) async fn answer(
        &self,
        client: &HttpClient,
        server_url: &str,
        challenge: &Challenge,
        forbidden: bool,
        sent: Option<&str>,
        bound: Option<&Audience>,
    ) -> Result<Audience, String> {
        let mut state = self.state.lock().await;
        let newer = |state: &State, audience: &Audience| {
            let current = state.grants.get(audience).map(|held| held.token.access.as_str());
            !forbidden && current.is_some() && current != sent
        };
        if let Some(audience) = bound.filter(|audience| newer(&state, audience)) {
            // Another request to this server was authorized meanwhile: try its token.
            return Ok(audience.clone());
        }
        let discovered = discovery::discover(client, server_url, challenge).await?;
        let audience = Audience { issuer: discovered.server.issuer.clone(), resource: discovered.resource.clone() };
        if newer(&state, &audience) {
            // Another connection to the same resource holds a token: try it.
            return Ok(audience);
        }
        let refreshed = if forbidden { None } else { self.refreshed(client, &state, &audience, &discovered).await };
        if let Some(token) = refreshed {
            self.keep(&mut state, &audience, token, None);
            return Ok(audience);
        }
        let before = state.grants.get(&audience).map(|held| held.scopes.as_slice()).unwrap_or_default();
        let dpop = self.dpop_state()?;
        if let Some(machine) = &self.config.machine {
            let scopes = match &self.config.scopes {
                Some(configured) => configured.clone(),
                None => scopes(challenge, &discovered, before, false),
            };
            let state = &mut *state;
            let token = machine.token(client, &discovered, &scopes, dpop, &mut state.refused).await?;
            self.keep(state, &audience, token, Some(scopes));
            return Ok(audience);
        }
        let scopes = scopes(challenge, &discovered, before, true);
        let issuer = audience.issuer.clone();
        let registration = match state.registrations.iter().find(|(at, _)| *at == issuer) {
            Some((_, registration)) => registration.clone(),
            None => {
                let registration = flow::register(client, &self.config, &discovered.server, server_url).await?;
                state.registrations.push((issuer, registration.clone()));
                registration
            }
        };
        let token = flow::authorize(client, &self.config, &discovered, &registration, &scopes, dpop).await?;
        self.keep(&mut state, &audience, token, Some(scopes));
        Ok(audience)
    }

    /// A refreshed token for `audience`, when its token has a refresh token
    /// and the refresh works.
    async fn refreshed(
        &self,
        client: &HttpClient,
        state: &State,
        audience: &Audience,
        discovered: &Discovered,
    ) -> Option<Token> {
        let token = &state.grants.get(audience)?.token;
        let refresh_token = token.refresh.as_deref()?;
        let (_, registration) = state.registrations.iter().find(|(at, _)| *at == audience.issuer)?;
        let dpop = self.dpop_state().ok()?;
        match flow::refresh(client, discovered, registration, refresh_token, dpop).await {
            Ok(token) => Some(token),
            Err(error) => {
                tracing::debug!("refreshing the token failed, authorizing again: {}", escaped(&error));
                None
            }
        }
    }

    /// Keeps `token` for `audience` (with the scopes asked, when new ones were).
    fn keep(&self, state: &mut State, audience: &Audience, token: Token, scopes: Option<Vec<String>>) {
        let mut bearers = self.bearers.lock().unwrap_or_else(PoisonError::into_inner);
        bearers.by_audience.insert(audience.clone(), Presented { token: token.access.clone(), dpop: token.dpop });
        bearers.last = Some(token.access.clone());
        drop(bearers);
        match state.grants.get_mut(audience) {
            Some(grant) => {
                grant.token = token;
                if let Some(scopes) = scopes {
                    grant.scopes = scopes;
                }
            }
            None => {
                state.grants.insert(audience.clone(), Held { token, scopes: scopes.unwrap_or_default() });
            }
        }
    }
}

/// The client for the OAuth requests made for the server at `server`:
/// limited to public addresses unless `allow_private` or the server is on an
/// internal address itself (an IP address, `localhost`, or a name resolving
/// to one).
pub(crate) async fn discovery_client(server: &hyper::Uri, allow_private: bool) -> HttpClient {
    let reach = if allow_private || server_is_internal(server).await { Reach::Any } else { Reach::Public };
    http_client_reaching(DISCOVERY_CONNECT_TIMEOUT, reach)
}

/// How long the OAuth requests wait for a connection.
const DISCOVERY_CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Whether the server at `uri` is on an internal address. A name that does
/// not resolve counts as public (the guard stays on).
async fn server_is_internal(uri: &hyper::Uri) -> bool {
    let host = uri.host().unwrap_or_default().trim_start_matches('[').trim_end_matches(']');
    if let Ok(address) = host.parse::<std::net::IpAddr>() {
        return is_internal(address);
    }
    let host = host.to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    let port = uri.port_u16().unwrap_or(if uri.scheme_str() == Some("https") { 443 } else { 80 });
    match tokio::net::lookup_host((host.as_str(), port)).await {
        Ok(mut addresses) => addresses.any(|address| is_internal(address.ip())),
        Err(_) => false,
    }
}

/// The scopes to ask for: the challenge's, else those the resource lists;
/// with those asked before, and (`offline`, for a grant with refresh
/// tokens) `offline_access` when the authorization server offers it.
fn scopes(challenge: &Challenge, discovered: &Discovered, before: &[String], offline: bool) -> Vec<String> {
    let mut scopes: Vec<String> = before.to_vec();
    let wanted = challenge.scopes().or_else(|| discovered.scopes_supported.clone()).unwrap_or_default();
    for scope in wanted {
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    let offline_access = "offline_access";
    let offered =
        discovered.server.scopes_supported.as_ref().is_some_and(|offered| offered.iter().any(|s| s == offline_access));
    if offline && offered && !scopes.iter().any(|scope| scope == offline_access) {
        scopes.push(offline_access.to_owned());
    }
    scopes
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::{Challenge, discovery, discovery_client};

    /// A listener on 127.0.0.1 answering every request with protected
    /// resource metadata: its port, and how many connections it accepted.
    async fn internal_service() -> (u16, Arc<AtomicUsize>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let accepted = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&accepted);
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                counted.fetch_add(1, Ordering::SeqCst);
                let mut request = [0u8; 4096];
                let _ = stream.read(&mut request).await;
                let body = r#"{"resource":"http://93.184.216.34/mcp","authorization_servers":[]}"#;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
            }
        });
        (port, accepted)
    }

    fn pointing_at(url: String) -> Challenge {
        Challenge { resource_metadata: Some(url), ..Challenge::default() }
    }

    #[tokio::test]
    async fn a_public_server_cannot_point_discovery_at_internal_addresses() {
        let (port, accepted) = internal_service().await;
        let server = "http://93.184.216.34/mcp";
        let client = discovery_client(&server.parse().unwrap(), false).await;
        for url in [
            format!("http://127.0.0.1:{port}/metadata"),
            format!("http://[::ffff:127.0.0.1]:{port}/metadata"),
            format!("http://localhost:{port}/metadata"),
            "http://169.254.169.254/latest/meta-data".to_owned(),
            "http://[fd00::1]/metadata".to_owned(),
        ] {
            let error = discovery::discover(&client, server, &pointing_at(url.clone())).await.unwrap_err();
            assert!(error.contains("internal") && error.contains("refused"), "{url}: {error}");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 0, "no connection reached the internal service");

        // Allowed by the knob, the same request reaches it.
        let allowed = discovery_client(&server.parse().unwrap(), true).await;
        let url = format!("http://127.0.0.1:{port}/metadata");
        let error = discovery::discover(&allowed, server, &pointing_at(url)).await.unwrap_err();
        assert!(error.contains("names no authorization server"), "{error}");
        assert_eq!(accepted.load(Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_server_on_an_internal_address_may_use_internal_discovery() {
        let (port, accepted) = internal_service().await;
        for server in ["http://127.0.0.1:1/mcp", "http://localhost:1/mcp", "http://[::1]:1/mcp", "http://10.0.0.7/mcp"]
        {
            let client = discovery_client(&server.parse().unwrap(), false).await;
            let url = format!("http://127.0.0.1:{port}/metadata");
            let error = discovery::discover(&client, server, &pointing_at(url)).await.unwrap_err();
            assert!(!error.contains("internal"), "{server}: {error}");
        }
        assert_eq!(accepted.load(Ordering::SeqCst), 4);
    }
}
