//! A rate limit per caller (feature `rate-limit`, on the `governor` crate).

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use serde_json::json;

use super::{BoxFuture, Middleware, Next, Request, Response};
use crate::server::jsonrpc::RpcError;

/// The JSON-RPC error code of a request over its caller's rate limit: the
/// internal error, -32603, as MCP defines no code of its own for it (and
/// keeps -32000 to -32099 for the codes it defines); the error's
/// `data.reason` is `rate_limited` and `data.retryAfterMs` says when to
/// try again.
pub const RATE_LIMITED: i64 = crate::server::jsonrpc::INTERNAL_ERROR;

/// How a request's caller is told apart.
type KeyOf = dyn Fn(&Request) -> String + Send + Sync;

/// Lets each caller make at most so many requests per period (a token
/// bucket: GCRA, from the `governor` crate), and refuses the rest at once
/// with a JSON-RPC error ([`RATE_LIMITED`], `data.reason`
/// `rate_limited`, `data.retryAfterMs`) that says
/// when to try again. Every request counts but `initialize`, `ping` and
/// `server/discover`.
///
/// Callers are told apart by [`Request::caller`] (set by an authorisation
/// layer or a middleware before this one); requests without a caller share
/// one allowance. [`RateLimit::keyed`] picks another key.
///
/// ```
/// use std::time::Duration;
/// use codeagent_core::server::{Server, middleware::RateLimit};
/// # let toolbox = codeagent_core::toolbox::Toolbox::new();
///
/// // Ten requests a second per caller, in bursts of up to ten.
/// let server = Server::new(toolbox).with_middleware(RateLimit::per_caller(10, Duration::from_secs(1)));
/// # let _ = server;
/// ```
#[derive(Clone)]
pub struct RateLimit {
    limiter: Arc<DefaultKeyedRateLimiter<String>>,
    key: Arc<KeyOf>,
    requests: u32,
    period: Duration,
}

impl RateLimit {
    /// At most `requests` (at least one) per `period` for each caller.
    pub fn per_caller(requests: u32, period: Duration) -> Self {
        RateLimit::keyed(requests, period, |request| {
            request.caller().map_or_else(String::new, |caller| caller.subject().to_owned())
        })
    }

    /// At most `requests` per `period` for each key `key` gives a request.
    pub fn keyed(requests: u32, period: Duration, key: impl Fn(&Request) -> String + Send + Sync + 'static) -> Self {
        let burst = NonZeroU32::new(requests).unwrap_or(NonZeroU32::MIN);
        let interval = (period / burst.get()).max(Duration::from_nanos(1));
        let quota = Quota::with_period(interval).unwrap_or_else(|| Quota::per_second(burst)).allow_burst(burst);
        RateLimit { limiter: Arc::new(governor::RateLimiter::keyed(quota)), key: Arc::new(key), requests, period }
    }
}

impl std::fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimit").field("requests", &self.requests).field("period", &self.period).finish()
    }
}

impl Middleware for RateLimit {
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
        if matches!(request.method(), "initialize" | "ping" | "server/discover") {
            return Box::pin(next.run(request));
        }
        let key = (self.key)(&request);
        if let Err(not_until) = self.limiter.check_key(&key) {
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            let retry = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1);
            let who = if key.is_empty() { "anonymous callers".to_owned() } else { format!("caller `{key}`") };
            let message = format!(
                "Rate limit exceeded: {who} may make {} requests per {} seconds; retry in {retry} ms",
                self.requests,
                self.period.as_secs_f64()
            );
            let error = RpcError::new(RATE_LIMITED, message)
                .with_data(json!({ "reason": "rate_limited", "retryAfterMs": retry }));
            return Box::pin(std::future::ready(Response::error(error)));
        }
        // Keys of callers idle long enough to be full again are forgotten.
        if self.limiter.len() > 10_000 {
            self.limiter.retain_recent();
        }
        Box::pin(next.run(request))
    }
}
