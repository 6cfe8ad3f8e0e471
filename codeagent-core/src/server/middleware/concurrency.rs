//! A limit on how many tool calls run at once.

use std::sync::Arc;

use tokio::sync::Semaphore;

use super::{BoxFuture, Middleware, Next, Request, Response};

/// Lets at most a number of `tools/call` requests run at once (across every
/// client of the server); the others wait their turn, in order, and a
/// waiting request the client cancels leaves the queue.
///
/// ```
/// use codeagent_core::server::{Server, middleware::ConcurrencyLimit};
/// # let toolbox = codeagent_core::toolbox::Toolbox::new();
///
/// let server = Server::new(toolbox).with_middleware(ConcurrencyLimit::new(4));
/// # let _ = server;
/// ```
#[derive(Clone, Debug)]
pub struct ConcurrencyLimit {
    permits: Arc<Semaphore>,
    all_methods: bool,
}

impl ConcurrencyLimit {
    /// At most `limit` tool calls at once (at least one).
    pub fn new(limit: usize) -> Self {
        ConcurrencyLimit { permits: Arc::new(Semaphore::new(limit.max(1))), all_methods: false }
    }

    /// Counts every request, not only tool calls.
    #[must_use]
    pub fn all_methods(mut self) -> Self {
        self.all_methods = true;
        self
    }

    /// How many more requests could start now.
    pub fn available(&self) -> usize {
        self.permits.available_permits()
    }
}

impl Middleware for ConcurrencyLimit {
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
        if !self.all_methods && request.method() != "tools/call" {
            return Box::pin(next.run(request));
        }
        Box::pin(async move {
            let stop = request.cancellation().clone();
            let permit = tokio::select! {
                permit = Arc::clone(&self.permits).acquire_owned() => permit,
                () = stop.cancelled() => return Response::none(),
            };
            // The semaphore is never closed, so a permit always comes.
            let _permit = permit.ok();
            next.run(request).await
        })
    }
}
