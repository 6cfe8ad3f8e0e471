//! With a shared store, the messages of a legacy session that belong to
//! another instance: a client's answer to a question this instance did not
//! ask, and its cancellation of a request this instance does not run. They
//! go over the bus to the instance that waits for them, alone or out of a
//! 2025-03-26 batch.

use serde_json::Value;

use super::session::HttpSession;
use super::shared::Shared;
use crate::mcp::{Notification, ProtocolVersion};
use crate::server::jsonrpc::{Incoming, classify};
use crate::server::store::StoreError;

/// `message` less what was forwarded to other instances: `Ok(None)` when
/// nothing is left to answer here.
pub(super) async fn forward(
    shared: Option<&Shared>,
    session: &HttpSession,
    message: Incoming,
) -> Result<Option<Incoming>, StoreError> {
    let Some(shared) = shared else { return Ok(Some(message)) };
    match message {
        // A batch the session's version refuses is refused whole, here.
        Incoming::Batch(items) if session.peer.negotiated().version.is_some_and(ProtocolVersion::has_batches) => {
            let mut kept = Vec::with_capacity(items.len());
            for item in items {
                let forwarded = may_belong_elsewhere(&item)
                    && forward_one(shared, session, classify(item.clone())).await?.is_none();
                if !forwarded {
                    kept.push(item);
                }
            }
            Ok((!kept.is_empty()).then_some(Incoming::Batch(kept)))
        }
        message => forward_one(shared, session, message).await,
    }
}

/// Whether batch item `item` is a response or a cancellation (the only
/// messages another instance may wait for), without reading all of it.
fn may_belong_elsewhere(item: &Value) -> bool {
    match item.get("method") {
        None => item.get("id").is_some(),
        Some(method) => method == Notification::Cancelled.name(),
    }
}

/// One message: forwarded when another instance waits for it (`Ok(None)`),
/// else returned to be answered here.
async fn forward_one(
    shared: &Shared,
    session: &HttpSession,
    message: Incoming,
) -> Result<Option<Incoming>, StoreError> {
    match message {
        Incoming::Response { id, outcome } if !session.peer.asks(&id) => {
            shared.forward_answer(&session.id, id, outcome).await?;
            Ok(None)
        }
        Incoming::Notification { ref method, ref params } if method == Notification::Cancelled.name() => {
            match params.get("requestId") {
                Some(id) if !session.peer.runs(id) => {
                    shared.forward_cancel(&session.id, id.clone()).await?;
                    Ok(None)
                }
                _ => Ok(Some(message)),
            }
        }
        message => Ok(Some(message)),
    }
}
