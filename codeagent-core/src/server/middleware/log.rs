//! A log line per request, through `tracing`.

use std::time::Instant;

use super::{BoxFuture, Middleware, Next, Request, Response};

/// Logs every request once it is answered, as a `tracing` event at `INFO`
/// with target `codeagent::request`: the method, the tool, prompt or
/// resource, the protocol version, the caller, the outcome (`ok`,
/// `tool_error`, `error` with its code, `none`) and the duration in
/// milliseconds.
///
/// ```
/// use codeagent_core::server::{Server, middleware::RequestLog};
/// # let toolbox = codeagent_core::toolbox::Toolbox::new();
///
/// let server = Server::new(toolbox).with_middleware(RequestLog::new());
/// # let _ = server;
/// ```
///
/// ```text
/// INFO codeagent::request: request method="tools/call" name="add" version="2025-11-25" caller="-" outcome="ok" code=0 ms=0.21
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct RequestLog;

impl RequestLog {
    /// The request log.
    pub fn new() -> Self {
        RequestLog
    }
}

impl Middleware for RequestLog {
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
        if !tracing::enabled!(target: "codeagent::request", tracing::Level::INFO) {
            return Box::pin(next.run(request));
        }
        Box::pin(async move {
            let started = Instant::now();
            let method = request.method().to_owned();
            let name = request.name().unwrap_or("-").to_owned();
            let version = request.protocol_version().as_str();
            let caller = request.caller().map_or_else(|| "-".to_owned(), |caller| caller.subject().to_owned());
            let response = next.run(request).await;
            let code = response.as_error().map_or(0, |error| error.code);
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            tracing::info!(
                target: "codeagent::request",
                method = method.as_str(),
                name = name.as_str(),
                version,
                caller = caller.as_str(),
                outcome = response.outcome(),
                code,
                ms,
                "request"
            );
            response
        })
    }
}
