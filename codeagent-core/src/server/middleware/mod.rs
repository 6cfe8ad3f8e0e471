//! Middleware: code that wraps every request the engine handles.
//!
//! Every request (`tools/call`, `resources/read`, `prompts/get`,
//! `completion/complete`, the lists, `initialize`, `server/discover`,
//! `ping`, `subscriptions/listen`...) passes through the server's
//! middleware, in both eras (2026-07-28 requests with `_meta`, legacy
//! `initialize` sessions) and over every transport (stdio, Streamable HTTP).
//! A middleware sees the [`Request`] (its method and parameters, the client
//! and its capabilities where known, the protocol version, the caller's
//! identity, the HTTP headers where there are some) and the [`Next`] step;
//! it may pass the request on (changed or not) with [`Next::run`], change
//! the [`Response`] that comes back (a result, filter a list, turn it into
//! an error), or answer instead of the handler.
//!
//! ```
//! use codeagent_core::server::Server;
//! use codeagent_core::toolbox::Toolbox;
//!
//! let server = Server::new(Toolbox::new()).around_calls(|call, next| async move {
//!     tracing::info!(tool = call.name(), "calling");
//!     next.run(call).await
//! });
//! # let _ = server;
//! ```
//!
//! Middleware composes in the order it is added: the first added is the
//! outermost, seeing each request first and its response last.
//!
//! Built in, each one line to turn on: [`Timeout`] (per tool),
//! [`ConcurrencyLimit`], `RateLimit` (per caller, feature `rate-limit`),
//! [`RequestLog`] and [`Trace`](crate::server::trace::Trace) (a span per
//! request that continues the caller's W3C trace).
//!
//! # What the client receives
//!
//! A middleware's [`Response::error`] reaches the client as a JSON-RPC
//! error; [`Response::tool_error`] as a tool's error result
//! (`isError: true`), which the model reads. A middleware that panics does
//! not take the server down: like a panicking tool, a `tools/call` gets an
//! error result naming the panic, any other request a JSON-RPC internal
//! error. A request the client cancels (or a client that goes away) gets no
//! response, whatever the middleware answers. Requests the engine refuses
//! before dispatch (malformed JSON-RPC, an unsupported protocol version, a
//! duplicate id) never reach middleware.
//!
//! # Why a trait of its own, not `tower::Layer`
//!
//! `tower` is the ecosystem's convention for HTTP, but here it would fit
//! badly: the plain stdio server does not depend on tower (it comes with
//! axum, behind the `http` feature); the engine answers most requests
//! synchronously and a transport polls an answer once inline, which a
//! `Service` with `poll_ready`, `&mut self` and a clone per request would
//! box and complicate; and MCP's semantics are not HTTP's: a timeout on
//! `tools/call` is a tool's error result the model can read, a rate limit
//! is keyed by the caller, a list is filtered by item, all of which tower's
//! generic layers cannot express. A closure is the whole of a middleware
//! here; an HTTP concern (CORS, compression) still belongs in tower, on the
//! router of [`Server::http_router`](crate::server::Server::http_router).

mod concurrency;
mod log;
mod request;
mod response;
mod timeout;

#[cfg(feature = "rate-limit")]
mod rate;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

pub use concurrency::ConcurrencyLimit;
pub use log::RequestLog;
#[cfg(feature = "rate-limit")]
pub use rate::{RATE_LIMITED, RateLimit};
pub use request::Request;
pub use response::Response;
pub use timeout::Timeout;

pub use crate::toolbox::Caller;

/// A boxed future that is `Send`, what [`Middleware::handle`] returns.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Wraps the handling of a request; see the [module](self).
///
/// A closure `Fn(Request, Next) -> impl Future<Output = Response>` is a
/// middleware; implement the trait on a type of your own when it keeps
/// state or configuration.
///
/// ```
/// use codeagent_core::server::middleware::{BoxFuture, Middleware, Next, Request, Response};
///
/// /// Hides every tool whose name starts with `admin_`.
/// struct HideAdmin;
///
/// impl Middleware for HideAdmin {
///     fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
///         Box::pin(async move {
///             let listing = request.method() == "tools/list";
///             let mut response = next.run(request).await;
///             if listing {
///                 response.retain_listed(|tool| !tool["name"].as_str().is_some_and(|name| name.starts_with("admin_")));
///             }
///             response
///         })
///     }
/// }
/// ```
pub trait Middleware: Send + Sync + 'static {
    /// Handles `request`: pass it on with [`Next::run`], or answer it.
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response>;
}

impl<F, Fut> Middleware for F
where
    F: Fn(Request, Next) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Response> + Send + 'static,
{
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
        Box::pin(self(request, next))
    }
}

/// The middleware of a server, outermost first.
pub(crate) type Chain = Arc<[Arc<dyn Middleware>]>;

/// What handles a request once every middleware has passed it on.
pub(crate) type Handler = Box<dyn FnOnce(Request) -> BoxFuture<'static, Response> + Send>;

/// The rest of the chain: the middleware after this one, then the handler.
pub struct Next {
    chain: Chain,
    index: usize,
    handler: Handler,
}

impl Next {
    /// The whole of `chain`, ending in `handler`.
    pub(crate) fn new(chain: Chain, handler: Handler) -> Next {
        Next { chain, index: 0, handler }
    }

    /// Passes `request` on to the next middleware, or to the handler, and
    /// returns its response.
    pub async fn run(self, request: Request) -> Response {
        match self.chain.get(self.index).cloned() {
            Some(middleware) => {
                let next = Next { index: self.index + 1, ..self };
                middleware.handle(request, next).await
            }
            None => (self.handler)(request).await,
        }
    }
}

impl std::fmt::Debug for Next {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next").field("remaining", &(self.chain.len().saturating_sub(self.index))).finish()
    }
}

/// A middleware applied to some methods only; others pass it by.
///
/// ```
/// use codeagent_core::server::middleware::{Only, Request, Next};
///
/// let quiet = Only::methods(&["tools/list"], |request: Request, next: Next| async move { next.run(request).await });
/// # let _ = quiet;
/// ```
pub struct Only<M> {
    methods: Vec<String>,
    inner: M,
}

impl<M: Middleware> Only<M> {
    /// `inner`, for requests of `methods` only.
    pub fn methods(methods: &[&str], inner: M) -> Self {
        Only { methods: methods.iter().map(|method| (*method).to_owned()).collect(), inner }
    }
}

impl<M: Middleware> Middleware for Only<M> {
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
        if self.methods.iter().any(|method| method == request.method()) {
            self.inner.handle(request, next)
        } else {
            Box::pin(next.run(request))
        }
    }
}
