//! A tool call under way.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};

use super::{Tool, ToolFuture, ToolSpec};
use crate::result::ToolResult;

/// A call started by [`Tools::start`](crate::tools::Tools::start): await it for
/// the result. Dropping it stops the tool (an async tool is dropped; a sync
/// tool on the blocking pool runs to its end, and its result is discarded).
#[must_use = "a started call does nothing unless awaited"]
pub struct StartedCall {
    future: ToolFuture,
    tool: Arc<dyn Tool>,
}

impl StartedCall {
    pub(crate) fn new(future: ToolFuture, tool: Arc<dyn Tool>) -> Self {
        StartedCall { future, tool }
    }

    /// The tool being called.
    pub fn spec(&self) -> &ToolSpec {
        self.tool.spec()
    }
}

impl Future for StartedCall {
    type Output = ToolResult;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<ToolResult> {
        self.get_mut().future.as_mut().poll(cx)
    }
}

impl std::fmt::Debug for StartedCall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StartedCall").field("tool", &self.spec().name()).finish_non_exhaustive()
    }
}
