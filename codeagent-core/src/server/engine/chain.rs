//! Requests through the server's middleware: the chain runs as the
//! request's pending answer, and the method's handler at its end.

use std::sync::Arc;

use super::{Engine, Reply, Route};
use crate::mcp::ProtocolVersion;
use crate::output::call_error;
use crate::server::era::Era;
use crate::server::jsonrpc::{self, INTERNAL_ERROR, RpcError, error_message, result_message};
use crate::server::middleware::{Handler, Next, Request, Response};
use crate::server::peer::{Declared, Peer, Slot};
use crate::toolbox::run::CatchPanic;

impl Engine {
    /// Runs registered `request` through the middleware, then its handler.
    /// The request's id stays in flight until the last middleware is done;
    /// a request the client withdraws meanwhile gets no response.
    pub(super) fn through_middleware(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        request: jsonrpc::Request,
        era: Era,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        let request = middleware_request(peer, request, era, &slot, route);
        let (id, method) = (request.id.clone(), request.method.clone());
        let handler: Handler = {
            let (engine, peer, slot, route) = (Arc::clone(self), Arc::clone(peer), Arc::clone(&slot), route.clone());
            Box::new(move |request: Request| {
                let mut route = route;
                route.caller = request.caller;
                let request = jsonrpc::Request { id: request.id, method: request.method, params: request.params };
                match engine.dispatch(&peer, request, era, slot, &route) {
                    Reply::Now(message) => Box::pin(std::future::ready(Response::from_message(message))),
                    Reply::Later(pending) => Box::pin(async move { Response::from_message(pending.await) }),
                }
            })
        };
        let chain = Next::new(Arc::clone(&self.middleware), handler).run(request);
        let caught = CatchPanic::new(Box::pin(async move { Ok(chain.await) }), Err);
        let (engine, peer, hangup) = (Arc::clone(self), Arc::clone(peer), route.hangup.clone().unwrap_or_default());
        Reply::Later(Box::pin(async move {
            let done = tokio::select! {
                done = caught => Some(done),
                () = slot.withdrawn.cancelled() => None,
                () = hangup.cancelled() => None,
            };
            slot.finish();
            peer.complete_slot(&id, &slot);
            if slot.withdrawn.is_cancelled() || hangup.is_cancelled() {
                return None;
            }
            let response = match done? {
                Ok(response) => response,
                Err(panic) => panicked(&method, era.version, &panic),
            };
            Some(match response.into_outcome()? {
                // A handler's result is finished already; one a middleware
                // made gets what every result of its era carries.
                Ok(result) if era.is_modern() && result.get("resultType").is_none() => {
                    result_message(&id, engine.finish(era, result))
                }
                Ok(result) => result_message(&id, result),
                Err(error) => error_message(&id, &error),
            })
        }))
    }
}

/// What middleware sees of `request`.
fn middleware_request(peer: &Peer, request: jsonrpc::Request, era: Era, slot: &Slot, route: &Route) -> Request {
    let jsonrpc::Request { id, method, params } = request;
    // A 2026-07-28 request (and `initialize`) states its client itself.
    let declared = if era.is_modern() || method == "initialize" { Declared::default() } else { peer.declared() };
    Request {
        id,
        method,
        params,
        version: era.version,
        declared,
        caller: route.caller.clone(),
        #[cfg(feature = "http")]
        headers: route.headers.clone(),
        stop: slot.stop.clone(),
    }
}

/// The answer to a request whose middleware (or handler) panicked with
/// `message`: like a panicking tool's, an error result for `tools/call`; a
/// JSON-RPC internal error for anything else.
fn panicked(method: &str, version: ProtocolVersion, message: &str) -> Response {
    let (method_text, message_text) = (crate::log_text::escaped(method), crate::log_text::escaped(message));
    tracing::error!("handling {method_text} panicked: {message_text}");
    let text = format!("The server failed unexpectedly while handling {method} (it panicked: {message})");
    if method == "tools/call" {
        Response::result(call_error(text).into_call_result().into_wire(version, None))
    } else {
        Response::error(RpcError::new(INTERNAL_ERROR, text))
    }
}
