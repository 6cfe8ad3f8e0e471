//! Serving a toolbox over MCP, for both eras of the protocol: legacy clients
//! open with `initialize` (2024-11-05 to 2025-11-25), modern clients send a
//! per-request `_meta` (2026-07-28). One process answers both.

mod apps;
mod ask;
#[cfg(feature = "auth")]
pub mod auth;
mod budget;
#[cfg(feature = "cli")]
mod cli;
mod engine;
mod era;
#[cfg(feature = "http")]
pub mod http;
mod info;
mod input;
pub mod jsonrpc;
mod lines;
pub mod middleware;
#[cfg(feature = "otel")]
pub mod otel;
mod outgoing;
mod outlet;
mod peer;
mod scopes;
#[cfg(feature = "skills")]
mod skills;
mod state;
mod stdio;
pub mod store;
#[cfg(feature = "tasks")]
pub(crate) mod tasks;
pub mod trace;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};

pub use crate::mcp::meta::{
    CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, PROTOCOL_VERSION_KEY, SERVER_INFO_KEY, SUBSCRIPTION_ID_KEY,
};
pub use budget::{DEFAULT_RESULT_STORE_BYTES, DEFAULT_RESULT_TTL, RESULT_MIME_TYPE, RESULT_URI_PREFIX};
pub use info::ServerInfo;
pub use state::{DEFAULT_STATE_TTL, MIN_KEY_BYTES, STATE_KEY_VAR, StateKeyError, StateKeys};
#[cfg(feature = "tasks")]
pub use tasks::{DEFAULT_TASK_LEASE, DEFAULT_TASK_POLL_INTERVAL, DEFAULT_TASK_TTL, TASKS_EXTENSION};

use crate::mcp::Icon;
use crate::toolbox::{ResultBudget, Toolbox};
use budget::ResultStore;
use engine::Engine;

/// The longest message a server reads unless told otherwise: 16 MiB.
pub const DEFAULT_MESSAGE_LIMIT: usize = 16 * 1024 * 1024;

/// An MCP server for a [`Toolbox`].
///
/// Its name and version default to the package that defined the toolbox's
/// first tool (your crate, not codeagent); set them with [`with_name`](Server::with_name)
/// and [`with_version`](Server::with_version).
///
/// ```no_run
/// # async fn example(toolbox: codeagent_core::toolbox::Toolbox) -> std::io::Result<()> {
/// use codeagent_core::server::Server;
///
/// Server::new(toolbox).with_instructions("Tools for sales data.").serve_stdio().await
/// # }
/// ```
#[derive(Clone)]
pub struct Server {
    engine: Engine,
    message_limit: usize,
    /// Why the server has no usable state keys, if it has none: serving
    /// then fails with it.
    state_key_problem: Option<StateKeyError>,
    /// Whether the state keys were given ([`Server::with_state_keys`], which
    /// the command line calls with those of [`STATE_KEY_VAR`]) rather than
    /// drawn for this process.
    state_keys_given: bool,
    /// Whether the tasks' store was given ([`Server::with_task_store`]):
    /// else tasks use the HTTP endpoint's shared store, when it has one.
    #[cfg(feature = "tasks")]
    task_store_given: bool,
}

impl Server {
    /// A server for `toolbox`.
    pub fn new(toolbox: Toolbox) -> Self {
        let (name, version) = toolbox
            .tools()
            .origin()
            .map_or_else(default_identity, |(name, version)| (name.to_owned(), version.to_owned()));
        // The environment is the command line's to read (`run`), or the
        // caller's (`StateKeys::from_env`): a library constructor never does.
        let (state_keys, state_key_problem) = match StateKeys::process_key() {
            Ok(keys) => (keys, None),
            Err(problem) => (StateKeys::none(), Some(problem)),
        };
        Server {
            engine: Engine {
                toolbox,
                info: ServerInfo {
                    name,
                    version,
                    title: None,
                    description: None,
                    website_url: None,
                    icons: Vec::new(),
                },
                modern_info: Value::Null,
                instructions: None,
                discover_ttl: Duration::from_secs(3600),
                state_keys,
                state_ttl: DEFAULT_STATE_TTL,
                ask_timeout: ask::DEFAULT_ASK_TIMEOUT,
                budget: ResultBudget::new(),
                results: Arc::new(ResultStore::new(DEFAULT_RESULT_TTL, DEFAULT_RESULT_STORE_BYTES)),
                #[cfg(feature = "http")]
                shared_results: None,
                middleware: Arc::new([]),
                #[cfg(feature = "skills")]
                skills: None,
                #[cfg(feature = "tasks")]
                tasks: Arc::new(tasks::Tasks::in_memory()),
            },
            message_limit: DEFAULT_MESSAGE_LIMIT,
            state_key_problem,
            state_keys_given: false,
            #[cfg(feature = "tasks")]
            task_store_given: false,
        }
    }

    /// Sets the server's programmatic name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.engine.info.name = name.into();
        self
    }

    /// Sets the server's version.
    #[must_use]
    pub fn with_version(mut self, version: impl Into<String>) -> Self {
        self.engine.info.version = version.into();
        self
    }

    /// Sets the display title (sent from 2025-06-18).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.engine.info.title = Some(title.into());
        self
    }

    /// Sets the description (sent from 2025-11-25).
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.engine.info.description = Some(description.into());
        self
    }

    /// Sets the website (sent from 2025-11-25).
    #[must_use]
    pub fn with_website_url(mut self, url: impl Into<String>) -> Self {
        self.engine.info.website_url = Some(url.into());
        self
    }

    /// Adds an icon (sent from 2025-11-25).
    #[must_use]
    pub fn with_icon(mut self, icon: Icon) -> Self {
        self.engine.info.icons.push(icon);
        self
    }

    /// Sets the instructions clients may show the model.
    #[must_use]
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.engine.instructions = Some(instructions.into());
        self
    }

    /// Sets how long clients may cache `server/discover` (an hour unless set).
    #[must_use]
    pub fn with_discover_ttl(mut self, ttl: Duration) -> Self {
        self.engine.discover_ttl = ttl;
        self
    }

    /// Sets the longest message read, in bytes (16 MiB unless set). A longer
    /// line is answered with an error and skipped, never buffered whole.
    #[must_use]
    pub fn with_message_limit(mut self, bytes: usize) -> Self {
        self.message_limit = bytes.max(1);
        self
    }

    /// Signs and verifies 2026-07-28 `requestState` with `keys` instead of
    /// the process's random key (or, over HTTP with a shared store, the key
    /// the store holds). Instances serving one endpoint need the same keys:
    /// `StateKeys::from_env()` reads them from [`STATE_KEY_VAR`], as `run`
    /// does.
    #[must_use]
    pub fn with_state_keys(mut self, keys: StateKeys) -> Self {
        self.engine.state_keys = keys;
        self.state_key_problem = None;
        self.state_keys_given = true;
        self
    }

    /// How long a 2026-07-28 `requestState` stays valid ([`DEFAULT_STATE_TTL`] unless set).
    #[must_use]
    pub fn with_state_ttl(mut self, ttl: Duration) -> Self {
        self.engine.state_ttl = ttl;
        self
    }

    /// How long a tool's question to a legacy client waits for the answer
    /// (5 minutes unless set); then the tool gets [`AskError::TimedOut`](crate::toolbox::AskError::TimedOut).
    #[must_use]
    pub fn with_ask_timeout(mut self, timeout: Duration) -> Self {
        self.engine.ask_timeout = timeout;
        self
    }

    /// Sets the result budget of tools without one of their own
    /// ([`ResultBudget::new`] unless set: 32 KiB of portable value, 1 MiB on
    /// the wire). A result over it is sent as a bounded preview plus, from
    /// 2025-06-18, a `resource_link` to the whole result (older versions: the
    /// preview's note names its URI), which the server keeps for
    /// [`with_result_ttl`](Server::with_result_ttl) and serves through
    /// `resources/read`. [`ResultBudget::unlimited`] sends every result whole.
    #[must_use]
    pub fn with_result_budget(mut self, budget: ResultBudget) -> Self {
        self.engine.budget = budget;
        self
    }

    /// How long a result over budget is kept to be read back
    /// ([`DEFAULT_RESULT_TTL`], 10 minutes, unless set). Zero keeps none: the
    /// preview is then all a client gets (and no `resources` capability is
    /// offered for it). Setting it starts an empty store.
    #[must_use]
    pub fn with_result_ttl(mut self, ttl: Duration) -> Self {
        let limit = self.engine.results.limit();
        self.engine.results = Arc::new(ResultStore::new(ttl, limit));
        self
    }

    /// How many bytes of results over budget the server keeps in all
    /// ([`DEFAULT_RESULT_STORE_BYTES`], 128 MiB, unless set); the oldest give
    /// way to new ones, and a result larger than this is not kept. Setting it
    /// starts an empty store.
    #[must_use]
    pub fn with_result_store_limit(mut self, bytes: usize) -> Self {
        let ttl = self.engine.results.ttl();
        self.engine.results = Arc::new(ResultStore::new(ttl, bytes));
        self
    }

    /// Adds `middleware` around every request the server handles, inside
    /// the middleware added before it (the first added runs first and sees
    /// the response last). See [`middleware`].
    ///
    /// ```
    /// use std::time::Duration;
    /// use codeagent_core::server::{Server, middleware::{ConcurrencyLimit, RequestLog, Timeout}};
    /// # let toolbox = codeagent_core::toolbox::Toolbox::new();
    ///
    /// let server = Server::new(toolbox)
    ///     .with_middleware(RequestLog::new())
    ///     .with_middleware(ConcurrencyLimit::new(8))
    ///     .with_middleware(Timeout::new(Duration::from_secs(60)));
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn with_middleware(mut self, middleware: impl middleware::Middleware) -> Self {
        let mut chain: Vec<Arc<dyn middleware::Middleware>> = self.engine.middleware.iter().cloned().collect();
        chain.push(Arc::new(middleware));
        self.engine.middleware = chain.into();
        self
    }

    /// Adds a closure around every request: it gets the
    /// [`Request`](middleware::Request) and the [`Next`](middleware::Next)
    /// step, and returns the [`Response`](middleware::Response).
    ///
    /// ```
    /// use codeagent_core::server::Server;
    /// # let toolbox = codeagent_core::toolbox::Toolbox::new();
    ///
    /// let server = Server::new(toolbox).around(|request, next| async move {
    ///     let method = request.method().to_owned();
    ///     let response = next.run(request).await;
    ///     tracing::debug!(method, outcome = response.outcome(), "answered");
    ///     response
    /// });
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn around<F, Fut>(self, around: F) -> Self
    where
        F: Fn(middleware::Request, middleware::Next) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = middleware::Response> + Send + 'static,
    {
        self.with_middleware(around)
    }

    /// Adds a closure around every `tools/call` (other requests pass it by).
    ///
    /// ```
    /// use codeagent_core::server::{Server, middleware::Response};
    /// # let toolbox = codeagent_core::toolbox::Toolbox::new();
    ///
    /// let server = Server::new(toolbox).around_calls(|call, next| async move {
    ///     if call.name() == Some("drop_tables") {
    ///         return Response::tool_error(&call, "drop_tables is switched off on this server");
    ///     }
    ///     next.run(call).await
    /// });
    /// # let _ = server;
    /// ```
    #[must_use]
    pub fn around_calls<F, Fut>(self, around: F) -> Self
    where
        F: Fn(middleware::Request, middleware::Next) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = middleware::Response> + Send + 'static,
    {
        self.with_middleware(middleware::Only::methods(&["tools/call"], around))
    }

    /// Why the server has no usable state keys, when it has none: serving
    /// then fails with this error.
    fn check_state_keys(&self) -> std::io::Result<()> {
        match &self.state_key_problem {
            Some(problem) => Err(std::io::Error::other(format!("no requestState key: {problem}"))),
            None => Ok(()),
        }
    }

    /// The toolbox served.
    pub fn toolbox(&self) -> &Toolbox {
        &self.engine.toolbox
    }

    /// The server's identity.
    pub fn info(&self) -> &ServerInfo {
        &self.engine.info
    }

    fn engine(&self) -> Arc<Engine> {
        let mut engine = self.engine.clone();
        engine.modern_info = engine.info.to_wire(crate::mcp::ProtocolVersion::LATEST);
        Arc::new(engine)
    }

    /// Serves one client over `reader` and `writer`, newline-delimited
    /// JSON-RPC, until `reader` ends. Requests still running then finish and
    /// are answered before this returns.
    pub async fn serve<R, W>(&self, reader: R, writer: W) -> std::io::Result<()>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        self.check_state_keys()?;
        stdio::serve_stream(self.engine(), reader, writer, self.message_limit).await
    }

    /// The MCP endpoint as an axum router, to mount in an application; what
    /// [`Server::serve_http`] serves, with the same checks: it fails when the
    /// server has no usable `requestState` key, and with a shared store
    /// ([`HttpOptions::with_store`](http::HttpOptions::with_store)) and no
    /// keys of the caller's ([`Server::with_state_keys`]) the key is the one
    /// the store holds, so every instance mounting the endpoint accepts the
    /// others' `requestState`.
    ///
    /// ```
    /// # async fn mount() -> std::io::Result<()> {
    /// use codeagent_core::{server::Server, server::http::HttpOptions, toolbox::Toolbox};
    ///
    /// let mcp = Server::new(Toolbox::new()).http_router(HttpOptions::new()).await?;
    /// let app: axum::Router = axum::Router::new().merge(mcp);
    /// # let _ = app; Ok(()) }
    /// ```
    #[cfg(feature = "http")]
    pub async fn http_router(&self, options: http::HttpOptions) -> std::io::Result<axum::Router> {
        self.check_state_keys()?;
        let mut server = self.clone();
        if let Some(store) = options.store.as_ref().filter(|_| !self.state_keys_given) {
            server.engine.state_keys = store::shared_state_keys(&**store).await?;
        }
        let mut engine = server.engine();
        if let Some(store) = &options.store {
            let engine = Arc::make_mut(&mut engine);
            engine.shared_results = Some(Arc::clone(store));
            #[cfg(feature = "tasks")]
            if !self.task_store_given {
                engine.tasks = Arc::new(engine.tasks.with_store(Arc::clone(store)));
            }
        }
        http::router(engine, options)
            .map_err(|error| std::io::Error::other(format!("the endpoint cannot share its store: {error}")))
    }

    /// Serves the MCP endpoint over HTTP at `address` until the process ends.
    /// Bound to a loopback address, only `localhost` Host and Origin headers
    /// are accepted unless `options` say otherwise.
    #[cfg(feature = "http")]
    pub async fn serve_http(&self, address: std::net::SocketAddr, options: http::HttpOptions) -> std::io::Result<()> {
        let listener = tokio::net::TcpListener::bind(address).await?;
        self.serve_http_on(listener, options).await
    }

    /// [`serve_http`](Server::serve_http) on a listener the caller bound
    /// (to learn the port of `127.0.0.1:0`, or to pass a socket in).
    ///
    /// Every accepted connection gets `TCP_NODELAY`: an SSE response is
    /// written as its headers and then its events, and without it Nagle's
    /// algorithm holds each event back until the client acknowledges the
    /// previous write, which a client delaying its ACKs does only after
    /// some 40 ms. JSON responses, written in one piece, are unaffected.
    /// A client must send each request's headers within the header timeout
    /// ([`HttpOptions::with_header_timeout`](http::HttpOptions::with_header_timeout)),
    /// idle kept-alive connections included, and its body within the body
    /// timeout. Mounting [`http_router`](Server::http_router) in an `axum::serve`
    /// of your own gives none of this: set them there.
    #[cfg(feature = "http")]
    pub async fn serve_http_on(
        &self,
        listener: tokio::net::TcpListener,
        options: http::HttpOptions,
    ) -> std::io::Result<()> {
        let (path, header_timeout) = (options.path.clone(), options.header_timeout);
        let router = self.http_router(options).await?;
        tracing::info!("serving MCP over HTTP at http://{}{path}", listener.local_addr()?);
        http::accept::serve(listener, router, header_timeout).await
    }

    /// Serves one client on standard input and output. Nothing but MCP
    /// messages is written to standard output; logs go to standard error.
    pub async fn serve_stdio(&self) -> std::io::Result<()> {
        #[cfg(target_os = "linux")]
        if let Some((reader, writer)) = stdio_pipes() {
            return self.serve(reader, writer).await;
        }
        self.serve(tokio::io::stdin(), tokio::io::stdout()).await
    }

    /// The standard entry point: a small command line around the server.
    ///
    /// - no flag: serve MCP on stdio (when stdin is a terminal, first say on
    ///   standard error what this is and how to try it);
    /// - `--list [--protocol VERSION]`: print the `tools/list` result;
    /// - `--call NAME 'ARGS_JSON'`: run one tool and print its tool-result event
    ///   (the three channels);
    /// - `--help`.
    ///
    /// Returns the process's exit code (0 on success, 1 when a `--call`ed tool
    /// failed, 2 for a usage error or a failure to serve), for `main` to return.
    #[cfg(feature = "cli")]
    pub async fn run(self) -> std::process::ExitCode {
        self.run_with_args(std::env::args().skip(1)).await
    }

    /// [`run`](Server::run) with the arguments given rather than the
    /// process's (without the program name), for an application that embeds
    /// the command line.
    ///
    /// ```
    /// # async fn embed() {
    /// use codeagent_core::{server::Server, toolbox::Toolbox};
    ///
    /// let code = Server::new(Toolbox::new()).run_with_args(["--list"]).await;
    /// assert_eq!(code, std::process::ExitCode::SUCCESS);
    /// # }
    /// ```
    #[cfg(feature = "cli")]
    pub fn run_with_args<I, S>(self, args: I) -> impl Future<Output = std::process::ExitCode> + Send
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        cli::run(self, args.into_iter().map(Into::into).collect())
    }
}

/// Serving a [`Toolbox`] with a default [`Server`]: `toolbox.run().await` in
/// `main`. In the prelude.
pub trait Serve: Sized {
    /// Serves on stdio with a default server: [`Server::serve_stdio`].
    fn serve_stdio(self) -> impl Future<Output = std::io::Result<()>> + Send;

    /// The standard entry point with a default server: [`Server::run`].
    #[cfg(feature = "cli")]
    fn run(self) -> impl Future<Output = std::process::ExitCode> + Send;
}

impl Serve for Toolbox {
    async fn serve_stdio(self) -> std::io::Result<()> {
        Server::new(self).serve_stdio().await
    }

    #[cfg(feature = "cli")]
    async fn run(self) -> std::process::ExitCode {
        Server::new(self).run().await
    }
}

/// Standard input and output as non-blocking pipes, when they are pipes (as
/// when an MCP client starts the server): reads and writes then go through the
/// runtime's reactor instead of a blocking thread each. They are reopened
/// through `/proc`, so the process's own descriptors stay blocking.
#[cfg(target_os = "linux")]
fn stdio_pipes() -> Option<(tokio::net::unix::pipe::Receiver, tokio::net::unix::pipe::Sender)> {
    let input = std::fs::File::open("/proc/self/fd/0").ok()?;
    let output = std::fs::OpenOptions::new().write(true).open("/proc/self/fd/1").ok()?;
    let reader = tokio::net::unix::pipe::Receiver::from_file(input).ok()?;
    let writer = tokio::net::unix::pipe::Sender::from_file(output).ok()?;
    Some((reader, writer))
}

/// The executable's name and an unknown version, when no tool says which crate it is.
fn default_identity() -> (String, String) {
    let name = std::env::current_exe()
        .ok()
        .and_then(|path| path.file_stem().map(|stem| stem.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "codeagent-server".to_owned());
    (name, "0.0.0".to_owned())
}
