//! Telling clients the tool list changed: on a 2026-07-28
//! `subscriptions/listen` stream, and to legacy clients that finished their
//! handshake.

use std::sync::Arc;

use serde_json::{Map, Value, json};
use tokio::sync::watch;

use super::{Engine, Reply, Route};
use crate::mcp::Notification;
use crate::mcp::meta::SUBSCRIPTION_ID_KEY;
use crate::server::jsonrpc::{INVALID_PARAMS, RpcError};
use crate::server::outlet::{Outlet, notify};
use crate::server::peer::{Peer, Slot};

impl Engine {
    /// A receiver of tool-list changes that has seen the current list, taken
    /// before anything is answered so that no change is missed.
    pub(crate) fn list_changes(&self) -> watch::Receiver<u64> {
        let mut changes = self.toolbox.changes();
        changes.borrow_and_update();
        changes
    }

    /// `subscriptions/listen` request `id`: acknowledged, then one
    /// `notifications/tools/list_changed` per change when asked for, until the
    /// request is cancelled or the client hangs up. It has no response.
    pub(super) fn listen(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        id: Value,
        params: Map<String, Value>,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        let Some(filter) = params.get("notifications").and_then(Value::as_object) else {
            slot.finish();
            peer.complete(&id);
            return Reply::error(
                &id,
                &RpcError::new(
                    INVALID_PARAMS,
                    "Invalid params: subscriptions/listen needs a `notifications` filter object",
                ),
            );
        };
        let tools = filter.get("toolsListChanged").and_then(Value::as_bool) == Some(true);
        let mut changes = self.list_changes();
        let peer = Arc::clone(peer);
        let route = route.clone();
        Reply::Later(Box::pin(async move {
            let meta = json!({ SUBSCRIPTION_ID_KEY: id });
            let honoured = if tools { json!({ "toolsListChanged": true }) } else { json!({}) };
            let acknowledged = json!({ "notifications": honoured, "_meta": meta });
            let hangup = route.hangup.clone().unwrap_or_default();
            if notify(&*route.outlet, Notification::SubscriptionsAcknowledged, acknowledged) {
                loop {
                    tokio::select! {
                        () = slot.stop.cancelled() => break,
                        () = hangup.cancelled() => break,
                        () = peer.streams_ended().cancelled() => break,
                        () = route.outlet.closed() => break,
                        changed = changes.changed(), if tools => {
                            if changed.is_err() {
                                break;
                            }
                            notify(&*route.outlet, Notification::ToolsListChanged, json!({ "_meta": meta }));
                        }
                    }
                }
            }
            slot.finish();
            peer.complete(&id);
            None
        }))
    }

    /// Sends `notifications/tools/list_changed` to a legacy client through
    /// `outlet` whenever the tools change after its handshake, until the
    /// client is closed or the outlet is.
    pub(crate) async fn announce_list_changes(
        &self,
        peer: &Peer,
        outlet: &dyn Outlet,
        mut changes: watch::Receiver<u64>,
    ) {
        loop {
            tokio::select! {
                () = peer.closed().cancelled() => return,
                () = outlet.closed() => return,
                changed = changes.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    if peer.negotiated().initialized {
                        notify(outlet, Notification::ToolsListChanged, json!({}));
                    }
                }
            }
        }
    }
}
