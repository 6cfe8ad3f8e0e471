//! OAuth 2.1 for a client of HTTP servers: [`OAuth`].

mod challenge;
mod discovery;
mod flow;

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};

pub(crate) use challenge::Challenge;
use discovery::Discovered;
use flow::{Registration, Token};

use crate::net::HttpClient;

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
    pub(crate) registered: Option<(String, Option<String>)>,
    pub(crate) metadata_document: Option<String>,
}

/// What the flows learnt: a registration per authorization server, the
/// token, and the scopes asked for so far.
#[derive(Default)]
struct State {
    registrations: Vec<(String, Registration)>,
    token: Option<Token>,
    scopes: Vec<String>,
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
/// there (pre-registered, a client ID metadata document, else dynamic
/// registration, RFC 7591; one per authorization server, never reused at
/// another); the authorization code flow with PKCE, its `state` and RFC 9207
/// `iss` checked; the token bound to the resource (RFC 8707). The scopes
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
/// Given to [`ClientBuilder::oauth`](super::ClientBuilder::oauth). Clones
/// share their tokens and registrations.
#[derive(Clone)]
pub struct OAuth {
    config: Arc<Config>,
    state: Arc<tokio::sync::Mutex<State>>,
    bearer: Arc<Mutex<Option<String>>>,
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuth")
            .field("redirect_uri", &self.config.redirect_uri)
            .field("client_name", &self.config.client_name)
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
            registered: None,
            metadata_document: None,
        };
        OAuth { config: Arc::new(config), state: Arc::default(), bearer: Arc::default() }
    }

    /// The name this client registers under (`codeagent` unless told).
    #[must_use]
    pub fn client_name(mut self, name: impl Into<String>) -> OAuth {
        Arc::make_mut(&mut self.config).client_name = name.into();
        self
    }

    /// A client id (and secret, for a confidential client) registered with
    /// the authorization server beforehand: used instead of registering.
    #[must_use]
    pub fn registered(mut self, client_id: impl Into<String>, client_secret: Option<String>) -> OAuth {
        Arc::make_mut(&mut self.config).registered = Some((client_id.into(), client_secret));
        self
    }

    /// The HTTPS URL of this client's metadata document (a client ID
    /// metadata document): its client id where an authorization server
    /// accepts them, instead of registering.
    #[must_use]
    pub fn metadata_document(mut self, url: impl Into<String>) -> OAuth {
        Arc::make_mut(&mut self.config).metadata_document = Some(url.into());
        self
    }

    /// The access token in use, once there is one.
    pub fn access_token(&self) -> Option<String> {
        self.bearer.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Answers `challenge` (from the server at `server_url`; `forbidden` for
    /// a 403) for a request that carried `sent`: a new token, or why not.
    pub(crate) async fn answer(
        &self,
        client: &HttpClient,
        server_url: &str,
        challenge: &Challenge,
        forbidden: bool,
        sent: Option<&str>,
    ) -> Result<(), String> {
        let mut state = self.state.lock().await;
        let current = state.token.as_ref().map(|token| token.access.as_str());
        if !forbidden && current.is_some() && current != sent {
            // Another request was authorized meanwhile: try its token.
            return Ok(());
        }
        let discovered = discovery::discover(client, server_url, challenge).await?;
        let issuer = discovered.server.issuer.clone();
        let refreshed = if forbidden { None } else { self.refreshed(client, &state, &discovered).await };
        if let Some(token) = refreshed {
            self.keep(&mut state, token);
            return Ok(());
        }
        let scopes = scopes(challenge, &discovered, &state.scopes);
        let registration = match state.registrations.iter().find(|(at, _)| *at == issuer) {
            Some((_, registration)) => registration.clone(),
            None => {
                let registration = flow::register(client, &self.config, &discovered.server).await?;
                state.registrations.push((issuer, registration.clone()));
                registration
            }
        };
        let token = flow::authorize(client, &self.config, &discovered, &registration, &scopes).await?;
        state.scopes = scopes;
        self.keep(&mut state, token);
        Ok(())
    }

    /// A refreshed token, when the token in use has a refresh token from the
    /// same authorization server and the refresh works.
    async fn refreshed(&self, client: &HttpClient, state: &State, discovered: &Discovered) -> Option<Token> {
        let token = state.token.as_ref().filter(|token| token.issuer == discovered.server.issuer)?;
        let refresh_token = token.refresh.as_deref()?;
        let (_, registration) = state.registrations.iter().find(|(at, _)| *at == token.issuer)?;
        match flow::refresh(client, discovered, registration, refresh_token).await {
            Ok(token) => Some(token),
            Err(error) => {
                tracing::debug!("refreshing the token failed, authorizing again: {error}");
                None
            }
        }
    }

    fn keep(&self, state: &mut State, token: Token) {
        *self.bearer.lock().unwrap_or_else(PoisonError::into_inner) = Some(token.access.clone());
        state.token = Some(token);
    }
}

/// The scopes to ask for: the challenge's, else those the resource lists;
/// with those asked before, and `offline_access` when the authorization
/// server offers it.
fn scopes(challenge: &Challenge, discovered: &Discovered, before: &[String]) -> Vec<String> {
    let mut scopes: Vec<String> = before.to_vec();
    let wanted = challenge.scopes().or_else(|| discovered.scopes_supported.clone()).unwrap_or_default();
    for scope in wanted {
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    let offline = "offline_access";
    let offered =
        discovered.server.scopes_supported.as_ref().is_some_and(|offered| offered.iter().any(|s| s == offline));
    if offered && !scopes.iter().any(|scope| scope == offline) {
        scopes.push(offline.to_owned());
    }
    scopes
}
