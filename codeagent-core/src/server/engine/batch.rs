//! JSON-RPC batches, which exist only in protocol version 2025-03-26: every
//! message in one is handled as if it came alone (so a duplicate id is refused
//! the same way), its requests run concurrently, and the responses come back
//! as one array in the order of the requests.

use std::sync::Arc;

use serde_json::Value;
use tokio::task::JoinSet;

use super::{Engine, Reply, Route};
use crate::mcp::{Method, ProtocolVersion};
use crate::server::jsonrpc::{INVALID_REQUEST, Incoming, RpcError, classify, error_message};
use crate::server::outgoing::Outgoing;
use crate::server::peer::Peer;

impl Engine {
    /// Handles batch `messages` from `peer`.
    pub(super) fn batch(self: &Arc<Self>, peer: &Arc<Peer>, messages: Vec<Value>, route: &Route) -> Reply {
        let refuse = |message: &str| Reply::error(&Value::Null, &RpcError::new(INVALID_REQUEST, message));
        if messages.is_empty() {
            return refuse("Invalid request: an empty batch");
        }
        if !peer.negotiated().version.is_some_and(ProtocolVersion::has_batches) {
            return refuse("Invalid request: JSON-RPC batches exist only in protocol version 2025-03-26");
        }
        let mut answered = Vec::new();
        let mut running = JoinSet::new();
        for (position, message) in messages.into_iter().enumerate() {
            let refusal = match classify(message) {
                Incoming::Request(request) if request.method == Method::Initialize.name() => {
                    Some((request.id, "Invalid request: initialize cannot be part of a batch"))
                }
                Incoming::Batch(_) => Some((Value::Null, "Invalid request: a batch cannot hold a batch")),
                message => {
                    match self.receive(peer, message, route) {
                        Reply::Now(Some(response)) => answered.push((position, response)),
                        Reply::Now(None) => {}
                        Reply::Later(pending) => {
                            running.spawn(async move { (position, pending.await) });
                        }
                    }
                    None
                }
            };
            if let Some((id, refusal)) = refusal {
                answered.push((position, error_message(&id, &RpcError::new(INVALID_REQUEST, refusal))));
            }
        }
        if running.is_empty() {
            return Reply::Now(assemble(answered));
        }
        Reply::Later(Box::pin(async move {
            while let Some(joined) = running.join_next().await {
                match joined {
                    Ok((position, Some(response))) => answered.push((position, response)),
                    Ok((_, None)) => {}
                    Err(error) => tracing::error!("a batched request failed: {error}"),
                }
            }
            assemble(answered)
        }))
    }
}

/// The batch's responses in request order; none when every message was a
/// notification (or a cancelled request).
fn assemble(mut answered: Vec<(usize, Outgoing)>) -> Option<Outgoing> {
    if answered.is_empty() {
        return None;
    }
    answered.sort_by_key(|(position, _)| *position);
    Some(Outgoing::batch(answered.into_iter().map(|(_, response)| response).collect()))
}
