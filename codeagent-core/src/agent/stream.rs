//! [`AgentStream`]: the events of one run as a `futures` [`Stream`].

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_util::Stream;
use tokio::sync::mpsc;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::Agent;
use super::error::AgentError;
use super::events::AgentEvent;
use super::turns;

/// The events of one agent run, from [`Agent::stream`]: text deltas, tool
/// calls, tool results, then [`AgentEvent::Finished`] — or one error, after
/// which the stream ends.
///
/// The run advances only while the stream is polled (no task is spawned).
/// Dropping the stream stops the run: the model request is abandoned, async
/// tools are dropped, and the cancellation token of every running tool's
/// [`Context`](crate::toolbox::Context) fires, so sync tools that watch it stop
/// too.
#[must_use = "a stream does nothing unless polled"]
pub struct AgentStream {
    driver: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
    events: mpsc::UnboundedReceiver<Result<AgentEvent, AgentError>>,
    _cancel: DropGuard,
}

impl AgentStream {
    pub(super) fn new(agent: Agent, prompt: String) -> Self {
        let (sender, events) = mpsc::unbounded_channel();
        let cancel = CancellationToken::new();
        let tools = cancel.clone();
        let driver = async move {
            let outcome = turns::drive(agent, prompt, sender.clone(), tools).await;
            let _ = sender.send(outcome.map(AgentEvent::Finished));
        };
        AgentStream { driver: Some(Box::pin(driver)), events, _cancel: cancel.drop_guard() }
    }
}

impl Stream for AgentStream {
    type Item = Result<AgentEvent, AgentError>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = self.get_mut();
        if let Poll::Ready(Some(event)) = this.events.poll_recv(cx) {
            return Poll::Ready(Some(event));
        }
        if let Some(driver) = &mut this.driver {
            if driver.as_mut().poll(cx).is_pending() {
                return match this.events.poll_recv(cx) {
                    Poll::Ready(Some(event)) => Poll::Ready(Some(event)),
                    _ => Poll::Pending,
                };
            }
            // The run is over: its sender is gone once the driver is.
            this.driver = None;
        }
        this.events.poll_recv(cx)
    }
}

impl std::fmt::Debug for AgentStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AgentStream").field("running", &self.driver.is_some()).finish_non_exhaustive()
    }
}
