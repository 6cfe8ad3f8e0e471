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
use crate::server::store::Store;

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
pub(crate) struct StreamLogs {
    logs: Mutex<Kept>,
    /// Where every event is also written, for other instances to replay.
    mirror: Option<Mirror>,
}

/// A shared store's copy of a session's streams: each stream is the list at
/// `stream:SESSION:STREAM`, one item per event and an empty item at its end.
pub(crate) struct Mirror {
    pub(crate) store: Arc<dyn Store>,
    pub(crate) session: String,
    /// How long a stream's events are kept after its last one.
    pub(crate) ttl: Duration,
}

impl Mirror {
    fn key(&self, stream: u64) -> String {
        format!("stream:{}:{stream}", self.session)
    }
}

/// The item that ends a stream in the store (no event is empty).
const END: &str = "";

/// How often another instance's stream is read again while it runs, at most.
const POLL_CEILING: Duration = Duration::from_millis(200);

/// How often the instance running a stream says, in the store, that it is alive.
const HEARTBEAT: Duration = Duration::from_secs(5);

/// How long a stream may go without an event or a heartbeat before a replay
/// elsewhere takes its instance for dead (three heartbeats: room for clocks
/// a few seconds apart).
const SILENCE: Duration = Duration::from_secs(15);

/// The last id handed out and the streams kept, oldest first.
#[derive(Default)]
struct Kept {
    last: u64,
    streams: VecDeque<(u64, Arc<StreamLog>)>,
}

impl StreamLogs {
    /// No streams yet; their events also go to `mirror`, when there is one.
    pub(crate) fn new(mirror: Option<Mirror>) -> StreamLogs {
        StreamLogs { logs: Mutex::default(), mirror }
    }

    /// A new stream: its id, its log, and whether its events are copied to
    /// the store. Instances sharing a store must not hand out the same id, so
    /// a mirrored stream's id is random; without randomness the stream is
    /// kept here only (resumable on this instance), never mirrored under an
    /// id another instance could also give.
    fn open(&self) -> (u64, Arc<StreamLog>, bool) {
        let mut kept = self.logs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        kept.last += 1;
        let (id, mirrored) = match self.mirror.as_ref().map(|_| random_stream_id()) {
            None => (kept.last, false),
            Some(Ok(id)) => (id, true),
            Some(Err(error)) => {
                tracing::error!("a stream is resumable on this instance only: {error}");
                (kept.last, false)
            }
        };
        let log = Arc::new(StreamLog::default());
        kept.streams.push_back((id, Arc::clone(&log)));
        while kept.streams.len() > KEPT_STREAMS {
            kept.streams.pop_front();
        }
        (id, log, mirrored)
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
    let (stream_id, log, mirrored) = logs.open();
    let recorder = Arc::clone(&log);
    let mirror = logs
        .mirror
        .as_ref()
        .filter(|_| mirrored)
        .map(|mirror| (Arc::clone(&mirror.store), mirror.key(stream_id), mirror.ttl));
    tokio::spawn(async move {
        let mut warned = false;
        let mut beat = tokio::time::interval(HEARTBEAT);
        loop {
            let out = tokio::select! {
                out = receiver.recv() => out,
                _ = beat.tick(), if mirror.is_some() => {
                    heartbeat(mirror.as_ref()).await;
                    continue;
                }
            };
            let Some(out) = out else { break };
            let (message, last) = match out {
                Out::Note(message) => (message, false),
                Out::Last(message) => (message, true),
            };
            // Sent here first; the copy in the store follows, in order (a
            // replay elsewhere reads it again until it is there).
            if mirror.is_some() {
                recorder.push(message.clone());
                copy(mirror.as_ref(), &message, &mut warned).await;
            } else {
                recorder.push(message);
            }
            if last {
                break;
            }
        }
        copy(mirror.as_ref(), END, &mut warned).await;
        recorder.finish();
    });
    let priming = format!("id: {stream_id}-0\nretry: {}\ndata: \n\n", RETRY.as_millis());
    replay(stream_id, log, 0, Some(priming), keep_alive)
}

/// The rest of stream `last_event_id` names (`stream-sequence`), if this
/// session still has it, here or, through the shared store, on another
/// instance.
pub(crate) async fn resume(logs: &StreamLogs, last_event_id: &str, keep_alive: Duration) -> Option<Response> {
    let (stream, sequence) = last_event_id.trim().split_once('-')?;
    let (stream, sequence) = (stream.parse::<u64>().ok()?, sequence.parse::<usize>().ok()?);
    if let Some(log) = logs.find(stream) {
        return Some(replay(stream, log, sequence, None, keep_alive));
    }
    let mirror = logs.mirror.as_ref()?;
    let key = mirror.key(stream);
    // A stream is known by its events or, before its first, by its heartbeat.
    let known = match mirror.store.items(&key, 0).await {
        Ok(items) if !items.is_empty() => Ok(true),
        Ok(_) => mirror.store.get(&beat_key(&key), mirror.ttl).await.map(|beat| beat.is_some()),
        Err(error) => Err(error),
    };
    match known {
        Ok(true) => {}
        Ok(false) => return None,
        Err(error) => {
            tracing::warn!("cannot resume stream {key}: {error}");
            return None;
        }
    }
    Some(replay_stored(Arc::clone(&mirror.store), key, stream, sequence, mirror.ttl, keep_alive))
}

/// Writes the time now to the stream's heartbeat key (`KEY:beat`), so that
/// a replay on another instance can tell a quiet stream from a dead one.
async fn heartbeat(mirror: Option<&(Arc<dyn Store>, String, Duration)>) {
    let Some((store, key, ttl)) = mirror else { return };
    if let Err(error) = store.set(&beat_key(key), unix_millis().to_string(), *ttl).await {
        tracing::debug!("no heartbeat for stream {key}: {error}");
    }
}

fn beat_key(key: &str) -> String {
    format!("{key}:beat")
}

fn unix_millis() -> u64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// Appends `message` to the stream's list in the store, when it has one;
/// the first failure is logged.
async fn copy(mirror: Option<&(Arc<dyn Store>, String, Duration)>, message: &str, warned: &mut bool) {
    let Some((store, key, ttl)) = mirror else { return };
    if let Err(error) = store.push(key, message.to_owned(), *ttl).await
        && !std::mem::replace(warned, true)
    {
        tracing::warn!("stream {key} cannot be resumed on another instance: {error}");
    }
}

/// A random stream id that stays exact as a JavaScript number.
fn random_stream_id() -> Result<u64, crate::RandomError> {
    let bytes = crate::random::bytes::<8>()?;
    Ok((u64::from_le_bytes(bytes) >> 11).max(1))
}

/// What a replay of a stored stream has still to do.
struct Stored {
    store: Arc<dyn Store>,
    key: String,
    seen: usize,
    ready: VecDeque<String>,
    wait: Duration,
    quiet: Duration,
}

impl Stored {
    /// Whether the instance running the stream beat within [`SILENCE`].
    async fn alive(&self) -> bool {
        match self.store.get(&beat_key(&self.key), SILENCE).await {
            Ok(Some(beat)) => {
                beat.parse::<u64>().is_ok_and(|beat| unix_millis().saturating_sub(beat) < SILENCE.as_millis() as u64)
            }
            Ok(None) => false,
            // The store failing is no sign of the instance's death.
            Err(_) => true,
        }
    }
}

/// Events of the stream at `key` in `store` after the first `seen`, read
/// again (every 10 ms at first, then less often) while the instance that
/// runs it adds more, until its end item. A stream whose instance stopped
/// beating (it died) ends after [`SILENCE`], and any after `ttl`.
fn replay_stored(
    store: Arc<dyn Store>,
    key: String,
    stream_id: u64,
    seen: usize,
    ttl: Duration,
    keep_alive: Duration,
) -> Response {
    let start =
        Stored { store, key, seen, ready: VecDeque::new(), wait: Duration::from_millis(10), quiet: Duration::ZERO };
    let events = stream::unfold(Some(start), move |state| async move {
        let mut state = state?;
        let mut idle = Duration::ZERO;
        loop {
            if let Some(message) = state.ready.pop_front() {
                if message == END {
                    return None;
                }
                state.seen += 1;
                let event = format!("id: {stream_id}-{}\nevent: message\ndata: {message}\n\n", state.seen);
                return Some((Ok::<Bytes, Infallible>(Bytes::from(event)), Some(state)));
            }
            if idle >= keep_alive {
                return Some((Ok(Bytes::from_static(b": keep-alive\n\n")), Some(state)));
            }
            if state.quiet >= ttl || (state.quiet >= SILENCE && !state.alive().await) {
                tracing::warn!("stream {}: its instance is gone; ending the resumed stream", state.key);
                return None;
            }
            tokio::time::sleep(state.wait).await;
            idle += state.wait;
            state.quiet += state.wait;
            match state.store.items(&state.key, state.seen).await {
                Ok(items) if !items.is_empty() => {
                    state.ready.extend(items);
                    state.wait = Duration::from_millis(10);
                    state.quiet = Duration::ZERO;
                }
                Ok(_) => state.wait = (state.wait * 2).min(POLL_CEILING),
                Err(error) => {
                    tracing::warn!("cannot read stream {}: {error}; ending the resumed stream", state.key);
                    return None;
                }
            }
        }
    });
    sse_response(Body::from_stream(events))
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
    sse_response(Body::from_stream(events))
}

/// `body` as an SSE response that no proxy buffers.
fn sse_response(body: Body) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}
