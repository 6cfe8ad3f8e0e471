//! Requests through the server's middleware: the chain runs as the
//! request's pending answer, and the method's handler at its end.

use std::sync::Arc;

use serde_json::Value;

use super::{Engine, Reply, Route};
use crate::mcp::ProtocolVersion;
use crate::mcp::meta::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY};
use crate::output::call_error;
use crate::server::era::Era;
use crate::server::jsonrpc::{self, INTERNAL_ERROR, RpcError, error_message, result_message};
use crate::server::middleware::{Handler, Next, Request, Response};
use crate::server::peer::{Peer, Slot};
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
                Ok(result) => result_message(&id, engine.finish(era, result)),
                Err(error) => error_message(&id, &error),
            })
        }))
    }
}

/// What middleware sees of `request`.
fn middleware_request(peer: &Peer, request: jsonrpc::Request, era: Era, slot: &Slot, route: &Route) -> Request {
    let jsonrpc::Request { id, method, params } = request;
    let object = |value: Option<&Value>| value.filter(|value| value.is_object()).cloned();
    let (client_info, client_capabilities) = if method == "initialize" {
        (object(params.get("clientInfo")), object(params.get("capabilities")))
    } else if era.is_modern() {
        let meta = params.get("_meta");
        (
            object(meta.and_then(|meta| meta.get(CLIENT_INFO_KEY))),
            object(meta.and_then(|meta| meta.get(CLIENT_CAPABILITIES_KEY))),
        )
    } else {
        (object(Some(&peer.client_info())), object(Some(&peer.capabilities())))
    };
    Request {
        id,
        method,
        params,
        version: era.version,
        client_info,
        client_capabilities,
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
    tracing::error!("handling {method} panicked: {message}");
    let text = format!("The server failed unexpectedly while handling {method} (it panicked: {message})");
    if method == "tools/call" {
        Response::result(call_error(text).into_call_result().into_wire(version, None))
    } else {
        Response::error(RpcError::new(INTERNAL_ERROR, text))
    }
}
