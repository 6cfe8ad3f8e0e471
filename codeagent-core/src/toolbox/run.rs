//! Running tool code: off the async workers for sync tools, and with panics
//! turned into error results.

use std::any::Any;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::task::{Context as TaskContext, Poll};

use super::ToolFuture;
use crate::output::call_error;
use crate::result::ToolResult;

/// Runs a sync tool body on tokio's blocking pool, so a slow sync tool does not
/// hold up the async workers; without a tokio runtime it runs in place.
///
/// The body comes boxed: the expansion of every sync `#[tool]` passes one, so
/// the blocking pool's machinery is compiled once, here, instead of once per
/// tool in the user's crate.
pub(crate) fn run_blocking(body: Box<dyn FnOnce() -> ToolResult + Send>) -> ToolFuture {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) => {
            let task = runtime.spawn_blocking(body);
            Box::pin(async move {
                match task.await {
                    Ok(result) => result,
                    Err(error) if error.is_panic() => panicked(&*error.into_panic()),
                    Err(_) => call_error("the tool was stopped before it finished"),
                }
            })
        }
        Err(_) => Box::pin(std::future::ready(match catch_unwind(AssertUnwindSafe(body)) {
            Ok(result) => result,
            Err(payload) => panicked(&*payload),
        })),
    }
}

/// Runs a sync tool body on the async worker that polls the call, for tools
/// marked `#[tool(inline)]`: quick bodies that never block, which then skip
/// the hand-off to the blocking pool. A panic becomes an error result.
pub(crate) fn run_inline(body: Box<dyn FnOnce() -> ToolResult + Send>) -> ToolFuture {
    Box::pin(async move {
        match catch_unwind(AssertUnwindSafe(body)) {
            Ok(result) => result,
            Err(payload) => panicked(&*payload),
        }
    })
}

/// A future whose panic becomes the output `recover` makes of its message
/// instead of unwinding: a tool's error result, a resource's read failure.
pub(crate) struct CatchPanic<T> {
    future: Pin<Box<dyn Future<Output = T> + Send>>,
    recover: fn(String) -> T,
}

impl<T> CatchPanic<T> {
    pub(crate) fn new(future: Pin<Box<dyn Future<Output = T> + Send>>, recover: fn(String) -> T) -> Self {
        CatchPanic { future, recover }
    }
}

impl CatchPanic<ToolResult> {
    /// A tool future whose panic becomes an error result.
    pub(crate) fn tool(future: ToolFuture) -> Self {
        CatchPanic::new(future, |message| call_error(panic_text(&message)).with_panic(message))
    }
}

impl<T> Future for CatchPanic<T> {
    type Output = T;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<T> {
        let this = self.get_mut();
        let future = &mut this.future;
        match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(poll) => poll,
            Err(payload) => Poll::Ready((this.recover)(panic_message(&*payload))),
        }
    }
}

/// The message a panic carried.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_owned())
}

/// The error result for a tool that panicked with `payload`.
pub(crate) fn panicked(payload: &(dyn Any + Send)) -> ToolResult {
    let message = panic_message(payload);
    call_error(panic_text(&message)).with_panic(message)
}

/// What the model reads of a tool that panicked with `message`.
fn panic_text(message: &str) -> String {
    format!("The tool failed unexpectedly (it panicked: {message})")
}
