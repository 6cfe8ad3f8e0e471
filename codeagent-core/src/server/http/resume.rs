//! Resumable SSE streams for legacy sessions (2025-11-25, SEP-1699): each
//! event of a POST's stream gets an id and is kept, so a client that lost the
//! connection can GET the rest with `Last-Event-ID`.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::{Notify, mpsc};

use super::channel::Out;

/// How long a client waits before reconnecting, sent with the priming event.
const RETRY: Duration = Duration::from_millis(500);

/// Most streams a session keeps for resumption.
const KEPT_STREAMS: usize = 64;

/// The events of one stream, in order, and whether it has ended.
#[derive(Default)]
pub(crate) struct StreamLog {
    state: Mutex<LogState>,
    changed: Notify,
}

#[derive(Default)]
struct LogState {
    events: Vec<String>,
    finished: bool,
}

impl StreamLog {
    fn push(&self, message: String) {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).events.push(message);
        self.changed.notify_waiters();
    }

    fn finish(&self) {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).finished = true;
        self.changed.notify_waiters();
    }

    /// The event after `seen`, waiting for it; `None` once the stream has ended.
    async fn next(&self, seen: usize) -> Option<String> {
        loop {
            let notified = self.changed.notified();
            {
                let state = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                if let Some(event) = state.events.get(seen) {
                    return Some(event.clone());
                }
                if state.finished {
                    return None;
                }
            }
            notified.await;
        }
    }
}

/// A session's recent streams, by id.
#[derive(Default)]
pub(crate) struct StreamLogs {
    logs: Mutex<Kept>,
}

/// The last id handed out and the streams kept, oldest first.
#[derive(Default)]
struct Kept {
    last: u64,
    streams: VecDeque<(u64, Arc<StreamLog>)>,
}

impl StreamLogs {
    fn open(&self) -> (u64, Arc<StreamLog>) {
        let mut kept = self.logs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.last += 1;
        let id = kept.last;
        let log = Arc::new(StreamLog::default());
        kept.streams.push_back((id, Arc::clone(&log)));
        while kept.streams.len() > KEPT_STREAMS {
            kept.streams.pop_front();
        }
        (id, log)
    }

    fn find(&self, stream: u64) -> Option<Arc<StreamLog>> {
        let kept = self.logs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.streams.iter().find(|(id, _)| *id == stream).map(|(_, log)| Arc::clone(log))
    }
}

/// An SSE response for `receiver` whose events are kept in a new log of
/// `logs`: a priming event (an id, a retry delay, no data) first, then each
/// message with the id `stream-sequence`.
pub(crate) fn resumable(logs: &StreamLogs, mut receiver: mpsc::Receiver<Out>, keep_alive: Duration) -> Response {
    let (stream_id, log) = logs.open();
    let recorder = Arc::clone(&log);
    tokio::spawn(async move {
        while let Some(out) = receiver.recv().await {
            match out {
                Out::Note(message) => recorder.push(message),
                Out::Last(message) => {
                    recorder.push(message);
                    break;
                }
            }
        }
        recorder.finish();
    });
    let priming = format!("id: {stream_id}-0\nretry: {}\ndata: \n\n", RETRY.as_millis());
    replay(stream_id, log, 0, Some(priming), keep_alive)
}

/// The rest of stream `last_event_id` names (`stream-sequence`), if this
/// session still has it.
pub(crate) fn resume(logs: &StreamLogs, last_event_id: &str, keep_alive: Duration) -> Option<Response> {
    let (stream, sequence) = last_event_id.trim().split_once('-')?;
    let (stream, sequence) = (stream.parse::<u64>().ok()?, sequence.parse::<usize>().ok()?);
    let log = logs.find(stream)?;
    Some(replay(stream, log, sequence, None, keep_alive))
}

/// Events of `log` after the first `seen`, with their ids, until the stream
/// ends; a comment every `keep_alive` while nothing happens. Written by hand
/// because the priming event's `data` line must be present and empty.
fn replay(stream_id: u64, log: Arc<StreamLog>, seen: usize, first: Option<String>, keep_alive: Duration) -> Response {
    let events = stream::unfold((log, seen, first), move |(log, seen, first)| async move {
        if let Some(priming) = first {
            return Some((Ok::<Bytes, Infallible>(Bytes::from(priming)), (log, seen, None)));
        }
        match tokio::time::timeout(keep_alive, log.next(seen)).await {
            Err(_) => Some((Ok(Bytes::from_static(b": keep-alive\n\n")), (log, seen, None))),
            Ok(None) => None,
            Ok(Some(message)) => {
                let event = format!("id: {stream_id}-{}\nevent: message\ndata: {message}\n\n", seen + 1);
                Some((Ok(Bytes::from(event)), (log, seen + 1, None)))
            }
        }
    });
    let mut response = Body::from_stream(events).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}
