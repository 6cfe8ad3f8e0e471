//! The messages of one HTTP response stream, and the outlet the engine sends
//! a request's notifications through onto it.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;
use tokio::sync::mpsc;

use crate::server::outlet::Outlet;

/// How many messages may wait on one stream before notifications are dropped.
const STREAM_CAPACITY: usize = 1024;

/// What goes down a response stream, as JSON text.
pub(crate) enum Out {
    /// A notification.
    Note(String),
    /// The response; the stream ends after it.
    Last(String),
}

/// A new stream: the sending and the receiving end.
pub(crate) fn stream() -> (mpsc::Sender<Out>, mpsc::Receiver<Out>) {
    mpsc::channel(STREAM_CAPACITY)
}

/// The engine's way onto a response stream.
pub(crate) struct StreamOutlet(pub(crate) mpsc::Sender<Out>);

impl Outlet for StreamOutlet {
    fn push(&self, message: &Value) -> bool {
        self.0.try_send(Out::Note(message.to_string())).is_ok()
    }

    fn closed(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(self.0.closed())
    }
}

/// An outlet that delivers nothing: a JSON response has no room for
/// notifications.
pub(crate) struct Nowhere;

impl Outlet for Nowhere {
    fn push(&self, _: &Value) -> bool {
        false
    }

    fn carries_requests(&self) -> bool {
        false
    }

    fn closed(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(std::future::ready(()))
    }
}
