//! MCP over Streamable HTTP, for both eras, on axum.
//!
//! - Legacy (2025-03-26 to 2025-11-25): `initialize` opens a session
//!   (`Mcp-Session-Id`), ended by DELETE; POSTed requests are answered as JSON,
//!   or as an SSE stream carrying their progress and log notifications; GET
//!   opens the session's stream of server notifications.
//! - Modern (2026-07-28): stateless POSTs whose `MCP-Protocol-Version`,
//!   `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*` headers must match the body.
//!   No per-process state is kept, so instances can sit behind a load balancer.
//!
//! Every request first passes the Host/Origin allow-list (against DNS
//! rebinding: only localhost when bound to loopback, unless configured), the
//! authorisation hook, a body size limit and a timeout.

pub(crate) mod accept;
mod answer;
mod channel;
mod client;
mod forward;
mod guard;
mod headers;
mod page;
mod respond;
mod resume;
mod routes;
mod session;
mod shared;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};

pub use guard::{Authorize, BearerToken, Unauthorized};

use super::engine::Engine;
use super::store::Store;
use guard::{AllowList, LOOPBACK_HOSTS};
use session::Sessions;
use shared::Shared;

/// What one legacy session keeps of its streams' events for resumption, in
/// bytes, unless [`HttpOptions::with_resume_bytes_per_session`] says otherwise.
pub(crate) const DEFAULT_RESUME_PER_SESSION: usize = 1 << 20;

/// What all legacy sessions together keep for resumption, in bytes, unless
/// [`HttpOptions::with_resume_bytes_total`] says otherwise.
pub(crate) const DEFAULT_RESUME_TOTAL: usize = 64 << 20;

/// The most live legacy sessions one client opens, unless
/// [`HttpOptions::with_max_sessions_per_client`] says otherwise.
pub(crate) const DEFAULT_SESSIONS_PER_CLIENT: usize = 64;

/// How the HTTP endpoint behaves.
///
/// ```
/// use std::time::Duration;
/// use codeagent_core::server::http::{BearerToken, HttpOptions};
///
/// let options = HttpOptions::new()
///     .with_allow_hosts(["mcp.example.com"])
///     .with_authorizer(BearerToken::new("s3cret"))
///     .with_body_limit(1 << 20)
///     .with_request_timeout(Duration::from_secs(30));
/// ```
#[derive(Clone)]
pub struct HttpOptions {
    pub(crate) path: String,
    hosts: Option<Vec<String>>,
    origins: Option<Vec<String>>,
    authorizer: Option<Arc<dyn Authorize>>,
    #[cfg(feature = "auth")]
    pub(crate) resource_server: Option<crate::server::auth::ResourceServer>,
    body_limit: usize,
    request_timeout: Duration,
    pub(crate) header_timeout: Duration,
    body_timeout: Duration,
    keep_alive: Duration,
    session_idle: Duration,
    max_sessions: usize,
    sessions_per_client: usize,
    pub(crate) client_address_header: Option<String>,
    resume_per_session: usize,
    resume_total: usize,
    host_page: bool,
    pub(crate) store: Option<Arc<dyn Store>>,
}

impl Default for HttpOptions {
    fn default() -> Self {
        HttpOptions::new()
    }
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("path", &self.path)
            .field("hosts", &self.hosts)
            .field("origins", &self.origins)
            .field("authorized", &self.authorizer.is_some())
            .field("body_limit", &self.body_limit)
            .field("request_timeout", &self.request_timeout)
            .field("max_sessions", &self.max_sessions)
            .field("sessions_per_client", &self.sessions_per_client)
            .field("client_address_header", &self.client_address_header)
            .field("resume_per_session", &self.resume_per_session)
            .field("resume_total", &self.resume_total)
            .field("host_page", &self.host_page)
            .field("shared_store", &self.store.is_some())
            .finish_non_exhaustive()
    }
}

impl HttpOptions {
    /// The defaults: endpoint `/mcp`, localhost-only Host and Origin checks,
    /// no authorisation, 4 MiB bodies, a 5-minute request timeout; at most
    /// 10,000 legacy sessions, 64 of them per client; 1 MiB of events kept
    /// for resumption per session, 64 MiB in all.
    pub fn new() -> Self {
        let loopback: Vec<String> = LOOPBACK_HOSTS.iter().map(|host| (*host).to_owned()).collect();
        HttpOptions {
            path: "/mcp".to_owned(),
            hosts: Some(loopback.clone()),
            origins: Some(loopback),
            authorizer: None,
            #[cfg(feature = "auth")]
            resource_server: None,
            body_limit: 4 * 1024 * 1024,
            request_timeout: Duration::from_secs(300),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            keep_alive: Duration::from_secs(15),
            session_idle: Duration::from_secs(3600),
            max_sessions: 10_000,
            sessions_per_client: DEFAULT_SESSIONS_PER_CLIENT,
            client_address_header: None,
            resume_per_session: DEFAULT_RESUME_PER_SESSION,
            resume_total: DEFAULT_RESUME_TOTAL,
            host_page: false,
            store: None,
        }
    }

    /// Serves the endpoint at `path` instead of `/mcp`.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// Answers only requests whose `Host` names one of `hosts` (any port), and
    /// browser requests whose `Origin` does.
    #[must_use]
    pub fn with_allow_hosts<S: Into<String>>(mut self, hosts: impl IntoIterator<Item = S>) -> Self {
        let hosts: Vec<String> = hosts.into_iter().map(Into::into).collect();
        self.origins = Some(hosts.clone());
        self.hosts = Some(hosts);
        self
    }

    /// Accepts any `Host` (for a server behind a proxy that checks it) while
    /// still refusing browser `Origin`s outside the allow-list.
    #[must_use]
    pub fn with_any_host(mut self) -> Self {
        self.hosts = None;
        self
    }

    /// Runs `authorizer` on every request before anything else is read.
    #[must_use]
    pub fn with_authorizer(mut self, authorizer: impl Authorize) -> Self {
        self.authorizer = Some(Arc::new(authorizer));
        self
    }

    /// Makes the endpoint an OAuth 2.1 resource server (feature `auth`):
    /// its protected resource metadata served, every request's bearer token
    /// checked by `resource_server`, scopes required per tool, resource and
    /// prompt; see [`server::auth`](crate::server::auth).
    #[cfg(feature = "auth")]
    #[must_use]
    pub fn with_resource_server(mut self, resource_server: crate::server::auth::ResourceServer) -> Self {
        self.resource_server = Some(resource_server);
        self
    }

    /// The largest request body, in bytes (4 MiB unless set); larger gets 413.
    #[must_use]
    pub fn with_body_limit(mut self, bytes: usize) -> Self {
        self.body_limit = bytes;
        self
    }

    /// How long a request may take, body and tool call together (5 minutes
    /// unless set); after that the tool is cancelled and an error returned.
    #[must_use]
    pub fn with_request_timeout(mut self, timeout: Duration) -> Self {
        self.request_timeout = timeout;
        self
    }

    /// Also serves the built-in host page at `/` (the command line's `--ui`):
    /// a browser page, an MCP client of this endpoint, that lists the tools,
    /// builds a form from each input schema, calls the tool and renders its
    /// result (see [`ui::host_page`](crate::ui::host_page)). Ignored when the
    /// endpoint itself is at `/`.
    #[must_use]
    pub fn with_host_page(mut self) -> Self {
        self.host_page = true;
        self
    }

    /// How long a client has to send a request's headers, and how long a
    /// kept-alive connection may wait for the next request (10 seconds);
    /// past it the connection is closed. Applies to
    /// [`Server::serve_http`](crate::server::Server::serve_http) and
    /// [`serve_http_on`](crate::server::Server::serve_http_on).
    #[must_use]
    pub fn with_header_timeout(mut self, timeout: Duration) -> Self {
        self.header_timeout = timeout;
        self
    }

    /// How long a client has to send a request's body once its headers
    /// arrived (30 seconds); past it the request is refused with 408.
    #[must_use]
    pub fn with_body_timeout(mut self, timeout: Duration) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// How long a legacy session may stay unused before it expires (an hour).
    /// Expired sessions are dropped when a client comes by and on a timer
    /// (at least once a minute), so abandoned ones do not pile up.
    #[must_use]
    pub fn with_session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.session_idle = timeout;
        self
    }

    /// The most legacy sessions kept at once (10,000, about 1 KB each when
    /// idle). At the cap, a new session ends the one unused the longest.
    #[must_use]
    pub fn with_max_sessions(mut self, sessions: usize) -> Self {
        self.max_sessions = sessions;
        self
    }

    /// The most live legacy sessions one client may open (64): past it,
    /// `initialize` gets `429 Too Many Requests` and a JSON-RPC error naming
    /// the limit, and the client's existing sessions, like everyone else's,
    /// stay. So one client cannot open sessions until the cap
    /// ([`with_max_sessions`](Self::with_max_sessions)) ends everyone
    /// else's. At least 1.
    ///
    /// A client is the authenticated caller where the endpoint is a resource
    /// server (its token's issuer and subject), otherwise its IP address (an
    /// IPv6 address by its `/64` prefix, which one host commonly holds whole).
    /// [`Server::serve_http`](crate::server::Server::serve_http) knows the
    /// address; a router mounted in an application of your own knows it only
    /// when served with
    /// `into_make_service_with_connect_info::<SocketAddr>()`, and without
    /// either the limit does not apply (the cap still does). Behind a
    /// reverse proxy every client has the proxy's address: see
    /// [`with_client_address_header`](Self::with_client_address_header).
    /// With a shared store ([`with_store`](Self::with_store)) each instance
    /// counts the sessions opened through it.
    #[must_use]
    pub fn with_max_sessions_per_client(mut self, sessions: usize) -> Self {
        self.sessions_per_client = sessions.max(1);
        self
    }

    /// Takes the client's address, for the per-client session limit, from
    /// the last entry of request header `name` (such as `X-Forwarded-For`,
    /// the entry the proxy in front of this server appended) instead of the
    /// connection. Only for a server every request reaches through a proxy
    /// that sets the header: anyone else can write any address in it. Not
    /// set, no header is trusted; a request without a usable entry counts
    /// against the connection's address.
    #[must_use]
    pub fn with_client_address_header(mut self, name: impl Into<String>) -> Self {
        self.client_address_header = Some(name.into());
        self
    }

    /// The most bytes of events one legacy session keeps for resumption
    /// (1 MiB), across its streams: past it its oldest events are dropped
    /// first. An event counts its length plus 64 bytes; one larger than the
    /// budget is sent but not kept. A client that reconnects with the
    /// `Last-Event-ID` of an event whose successor was dropped gets `404`
    /// and an error saying so, and sends its request again. With a shared
    /// store the budget also bounds what each instance writes there for a
    /// session (past it, the copy of the stream stops). A resume needs only
    /// the events since the connection was lost; 1 MiB holds thousands of
    /// progress notifications or a large result.
    #[must_use]
    pub fn with_resume_bytes_per_session(mut self, bytes: usize) -> Self {
        self.resume_per_session = bytes;
        self
    }

    /// The most bytes of events all legacy sessions together keep for
    /// resumption (64 MiB): past it the oldest events of all sessions are
    /// dropped first, so the process's memory for resumption stays bounded
    /// whatever the number of sessions.
    #[must_use]
    pub fn with_resume_bytes_total(mut self, bytes: usize) -> Self {
        self.resume_total = bytes;
        self
    }

    /// Keeps legacy sessions in `store`, shared with the other instances of
    /// this server, so that any of them can serve any session: its record
    /// (negotiated version, capabilities, log level, subscriptions), the
    /// events of its resumable streams, and, over the store's bus, a client's
    /// answer to a question or its cancellation reaching the instance that
    /// waits for it, the end of a session and list changes (see
    /// [`store`](crate::server::store)). Without it (the default) sessions
    /// live in this process only.
    ///
    /// [`Server::serve_http`](crate::server::Server::serve_http) also takes
    /// the `requestState` key from the store when neither
    /// [`STATE_KEY_VAR`](crate::server::STATE_KEY_VAR) nor
    /// [`Server::with_state_keys`](crate::server::Server::with_state_keys)
    /// gave one, so every instance accepts the states of the others. A
    /// request that needs the store while it fails gets 503 and an error
    /// naming the failure; the next request tries again.
    #[must_use]
    pub fn with_store(mut self, store: Arc<dyn Store>) -> Self {
        self.store = Some(store);
        self
    }
}

/// The shared state of an endpoint.
pub(crate) struct Http {
    engine: Arc<Engine>,
    options: HttpOptions,
    allow: AllowList,
    sessions: Arc<Sessions>,
    /// The host page, naming this endpoint (served only with the option).
    host_page: String,
}

/// The endpoint's router for `engine`; fails when a shared store is given
/// and the system gives no randomness for this instance's id.
pub(crate) fn router(engine: Arc<Engine>, options: HttpOptions) -> Result<Router, crate::RandomError> {
    let path = options.path.clone();
    // Used DPoP proofs and the nonce key go to the shared store too, unless
    // the resource server was given a store of its own.
    #[cfg(feature = "auth")]
    let mut options = options;
    #[cfg(feature = "auth")]
    if let Some(store) = &options.store {
        options.resource_server = options.resource_server.take().map(|resource_server| resource_server.sharing(store));
    }
    let budget = resume::Budget::new(options.resume_per_session, options.resume_total);
    let mut sessions =
        Sessions::new(options.session_idle, options.max_sessions).with_limits(budget, options.sessions_per_client);
    if let Some(store) = &options.store {
        // A stream's events stay until a request that started it could have ended.
        let stream_ttl = options.request_timeout.saturating_add(Duration::from_secs(60));
        sessions = sessions.with_shared(Shared::new(Arc::clone(store))?, stream_ttl);
    }
    let sessions = Arc::new(sessions);
    if let Some(shared) = sessions.shared() {
        let local: Arc<dyn shared::LocalSessions> = Arc::clone(&sessions) as _;
        shared.start(&engine, Arc::downgrade(&local));
    }
    let http = Http {
        engine,
        allow: AllowList { hosts: options.hosts.clone(), origins: options.origins.clone() },
        sessions,
        host_page: crate::ui::host_page_for(&options.path).into_owned(),
        options,
    };
    let page = http.options.host_page && path != "/";
    let router = Router::new().route(&path, post(routes::post).get(routes::get).delete(routes::delete));
    // With DPoP nonces, every answer of the endpoint carries a fresh one, so a
    // client rarely meets a `use_dpop_nonce` refusal (RFC 9449 §8.2).
    #[cfg(feature = "auth")]
    let router = match &http.options.resource_server {
        Some(resource_server) if resource_server.hands_out_nonces() => router
            .route_layer(axum::middleware::map_response_with_state(resource_server.clone(), routes::with_dpop_nonce)),
        _ => router,
    };
    let router = if page { router.route("/", get(page::get)) } else { router };
    #[cfg(feature = "auth")]
    let router = match &http.options.resource_server {
        Some(resource_server) => resource_server
            .metadata_paths()
            .iter()
            .fold(router, |router, path| router.route(path, get(routes::resource_metadata))),
        None => router,
    };
    Ok(router.with_state(Arc::new(http)))
}
