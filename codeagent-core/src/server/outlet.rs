//! Where the engine sends the messages a request produces before its
//! response (progress, logs, `subscriptions/listen` events): the one output of
//! a stdio connection, or the SSE stream of an HTTP request.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;

use super::jsonrpc::notification_message;
use super::peer::Slot;
use crate::mcp::Notification;
use crate::toolbox::Notifier;

/// A transport's way to the client, for messages that are not responses
/// (responses are returned by the engine, and the transport sends them).
pub(crate) trait Outlet: Send + Sync + 'static {
    /// Queues `message` without waiting; false when the client is gone or is
    /// not reading fast enough, and the message was dropped.
    fn push(&self, message: &Value) -> bool;

    /// Resolves once nothing more can reach the client.
    fn closed(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;

    /// Whether a request to the client (a tool's question) can go this way.
    fn carries_requests(&self) -> bool {
        true
    }
}

/// Sends `notification` with `params` through `outlet`.
pub(crate) fn notify(outlet: &dyn Outlet, notification: Notification, params: Value) -> bool {
    outlet.push(&notification_message(notification.name(), params))
}

/// A request's notifier: its progress and log messages go to the outlet until
/// the request is answered or stopped, and never after.
pub(crate) struct RequestNotifier {
    pub(crate) outlet: Arc<dyn Outlet>,
    pub(crate) slot: Arc<Slot>,
}

impl Notifier for RequestNotifier {
    fn notify(&self, notification: Notification, params: Value) {
        if self.slot.is_done() || self.slot.stop.is_cancelled() {
            return;
        }
        if !notify(&*self.outlet, notification, params) {
            tracing::debug!("dropped a {notification} notification: the client is gone or not reading fast enough");
        }
    }
}
