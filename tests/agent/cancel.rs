//! Dropping the stream stops the run: an async tool is dropped, a sync tool
//! sees its context cancelled.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use codeagent::agent::{Agent, AgentEvent};
use codeagent::prelude::*;
use futures_util::StreamExt;

use crate::mock::Mock;
use crate::replies;

/// What the tools saw.
#[derive(Default)]
pub struct Flags {
    dropped: AtomicBool,
    cancelled: AtomicBool,
}

/// The toolbox's state: the flags, shared with the test.
pub struct Seen(Arc<Flags>);

/// Sets `dropped` when dropped.
struct OnDrop(Arc<Flags>);

impl Drop for OnDrop {
    fn drop(&mut self) {
        self.0.dropped.store(true, Ordering::SeqCst);
    }
}

/// Waits a minute (async).
#[tool]
async fn wait_async(seen: State<Seen>) -> String {
    let _guard = OnDrop(Arc::clone(&seen.0.0));
    tokio::time::sleep(Duration::from_secs(60)).await;
    "waited".into()
}

/// Waits a minute (sync), watching for cancellation.
#[tool]
fn wait_sync(ctx: &Context, seen: State<Seen>) -> String {
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        if ctx.is_cancelled() {
            seen.0.0.cancelled.store(true, Ordering::SeqCst);
            return "cancelled".into();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    "waited".into()
}

#[tokio::test]
async fn dropping_the_stream_cancels_running_tools() {
    let mock = Mock::start(vec![replies::calls(&[("a", "wait_async", "{}"), ("s", "wait_sync", "{}")])]).await;
    let flags = Arc::new(Flags::default());
    let toolbox = Toolbox::new().tool(wait_async).tool(wait_sync).with_state(Seen(Arc::clone(&flags)));
    let agent = Agent::new(replies::client(&mock.url), toolbox);
    let mut events = agent.stream("wait");
    let mut started = 0;
    while started < 2 {
        match events.next().await {
            Some(Ok(AgentEvent::ToolCallStarted(_))) => started += 1,
            Some(Ok(_)) => {}
            other => panic!("the run ended early: {other:?}"),
        }
    }
    // Let both tools get going, then walk away.
    assert!(tokio::time::timeout(Duration::from_millis(200), events.next()).await.is_err(), "nothing finishes");
    assert!(!flags.dropped.load(Ordering::SeqCst) && !flags.cancelled.load(Ordering::SeqCst));
    drop(events);
    let deadline = Instant::now() + Duration::from_secs(5);
    while !(flags.dropped.load(Ordering::SeqCst) && flags.cancelled.load(Ordering::SeqCst)) {
        assert!(Instant::now() < deadline, "the tools were not stopped");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
