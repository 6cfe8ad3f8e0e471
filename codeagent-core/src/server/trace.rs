//! A `tracing` span per request, continuing the caller's W3C trace
//! (SEP-414: `traceparent` and `tracestate` in the request's `_meta`).

use std::time::Instant;

use serde_json::{Map, Value};
use tracing::Instrument;
use tracing::field::Empty;

use super::middleware::{BoxFuture, Middleware, Next, Request, Response};

pub use crate::mcp::meta::{TRACEPARENT_KEY, TRACESTATE_KEY};

/// Runs each request in a `tracing` span named `mcp.request` (target
/// `codeagent::trace`), whose fields follow OpenTelemetry's conventions for
/// MCP: `otel.name` (`tools/call add`), `mcp.method.name`,
/// `gen_ai.tool.name`, `gen_ai.prompt.name` or `mcp.resource.uri`,
/// `mcp.protocol.version`, `jsonrpc.request.id`, and once the request is
/// answered `mcp.outcome` (`ok`, `tool_error`, `error`, `none`),
/// `rpc.jsonrpc.error_code`, `otel.status_code` and `duration_ms`.
///
/// A valid `traceparent` in the request's `_meta` is recorded as
/// `trace_id` and `parent_span_id`; with the `otel` feature and its layer
/// ([`otel::layer`](crate::server::otel::layer)) the span continues that trace.
///
/// ```
/// use codeagent_core::server::{Server, trace::Trace};
/// # let toolbox = codeagent_core::toolbox::Toolbox::new();
///
/// let server = Server::new(toolbox).with_middleware(Trace::new());
/// # let _ = server;
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Trace;

impl Trace {
    /// The span per request.
    pub fn new() -> Self {
        Trace
    }
}

impl Middleware for Trace {
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
        let method = request.method();
        let name = request.name();
        let span = tracing::info_span!(
            target: "codeagent::trace",
            "mcp.request",
            otel.name = Empty,
            otel.kind = "server",
            otel.status_code = Empty,
            mcp.method.name = method,
            gen_ai.tool.name = Empty,
            gen_ai.prompt.name = Empty,
            mcp.resource.uri = Empty,
            mcp.protocol.version = request.protocol_version().as_str(),
            jsonrpc.request.id = %request.id(),
            mcp.outcome = Empty,
            rpc.jsonrpc.error_code = Empty,
            duration_ms = Empty,
            trace_id = Empty,
            parent_span_id = Empty,
        );
        if span.is_disabled() {
            return Box::pin(next.run(request));
        }
        match name {
            Some(name) => span.record("otel.name", format!("{method} {name}").as_str()),
            None => span.record("otel.name", method),
        };
        if let Some(name) = name {
            let field = match method {
                "tools/call" => "gen_ai.tool.name",
                "prompts/get" => "gen_ai.prompt.name",
                _ => "mcp.resource.uri",
            };
            span.record(field, name);
        }
        if let Some(parent) = request.meta().and_then(TraceParent::from_meta) {
            span.record("trace_id", parent.trace_id.as_str());
            span.record("parent_span_id", parent.parent_id.as_str());
            #[cfg(feature = "otel")]
            super::otel::continue_trace(&span, request.meta());
        }
        Box::pin(async move {
            let started = Instant::now();
            let response = next.run(request).instrument(span.clone()).await;
            span.record("mcp.outcome", response.outcome());
            span.record("duration_ms", started.elapsed().as_secs_f64() * 1000.0);
            if let Some(error) = response.as_error() {
                span.record("rpc.jsonrpc.error_code", error.code);
            }
            span.record(
                "otel.status_code",
                if matches!(response.outcome(), "error" | "tool_error") { "ERROR" } else { "OK" },
            );
            response
        })
    }
}

/// A W3C `traceparent` (version `00`): `00-<trace id>-<parent id>-<flags>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceParent {
    /// The trace's id: 32 lowercase hex digits, not all zero.
    pub trace_id: String,
    /// The caller's span: 16 lowercase hex digits, not all zero.
    pub parent_id: String,
    /// The trace flags (`01`: sampled).
    pub flags: u8,
}

impl TraceParent {
    /// Parses `text`; `None` unless it is a valid `traceparent`.
    ///
    /// ```
    /// use codeagent_core::server::trace::TraceParent;
    ///
    /// let parent = TraceParent::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01").unwrap();
    /// assert_eq!(parent.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
    /// assert!(TraceParent::parse("00-00000000000000000000000000000000-00f067aa0ba902b7-01").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<TraceParent> {
        let mut parts = text.trim().split('-');
        let (version, trace_id, parent_id, flags) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let hex = |part: &str, length: usize| {
            part.len() == length && part.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
        };
        let zero = |part: &str| part.bytes().all(|byte| byte == b'0');
        // Version 00 has exactly four parts; later versions may add some.
        if !hex(version, 2) || version == "ff" || (version == "00" && parts.next().is_some()) {
            return None;
        }
        if !hex(trace_id, 32) || zero(trace_id) || !hex(parent_id, 16) || zero(parent_id) || !hex(flags, 2) {
            return None;
        }
        Some(TraceParent {
            trace_id: trace_id.to_owned(),
            parent_id: parent_id.to_owned(),
            flags: u8::from_str_radix(flags, 16).ok()?,
        })
    }

    /// The `traceparent` in a request's `_meta`, if it has a valid one.
    pub fn from_meta(meta: &Map<String, Value>) -> Option<TraceParent> {
        TraceParent::parse(meta.get(TRACEPARENT_KEY)?.as_str()?)
    }
}
