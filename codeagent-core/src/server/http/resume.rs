//! Resumable SSE streams for legacy sessions (2025-11-25, SEP-1699): each
//! event of a POST's stream gets an id and is kept, so a client that lost the
//! connection can GET the rest with `Last-Event-ID`.
//!
//! What is kept is bounded in bytes ([`Budget`]): each session keeps at most
//! its own budget, oldest events dropped first across its streams, and all
//! sessions together at most the total budget, the oldest events of all
//! sessions dropped first. The live connection of a stream does not read
//! what is kept (it gets its events straight from the request), so dropping
//! events never cuts it short; a resume whose next event was dropped, or of a
//! stream no longer kept, gets a `404` naming why.

use std::collections::{BTreeMap, VecDeque};
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde_json::Value;
use tokio::sync::{Notify, mpsc};
use tokio::time::Instant;

use super::channel::Out;
use super::respond::rpc_error;
use crate::server::jsonrpc::{INTERNAL_ERROR, INVALID_REQUEST, RpcError};
use crate::server::store::Store;

/// How long a client waits before reconnecting, sent with the priming event.
const RETRY: Duration = Duration::from_millis(500);

/// Most streams a session keeps for resumption.
const KEPT_STREAMS: usize = 64;

/// What an event costs beyond its text, in bytes: the `String` and the two
/// queue entries that track it (so that a flood of tiny events is bounded too).
pub(crate) const EVENT_OVERHEAD: usize = 64;

/// How many events may wait for the live connection of a stream before the
/// request's own stream waits (and, past its capacity, notifications drop).
const LIVE_CAPACITY: usize = 64;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The byte budgets of resumption of one endpoint, shared by its sessions:
/// the events kept by one session, and by all of them. An event counts its
/// length plus [`EVENT_OVERHEAD`].
pub(crate) struct Budget {
    per_session: usize,
    total: usize,
    /// The bytes kept by all sessions.
    used: AtomicUsize,
    /// The order in which events were kept, across sessions.
    next_stamp: AtomicU64,
    /// Each session's oldest kept event, by stamp: the first entry is the
    /// oldest event of all, the one the total budget drops first.
    oldest: Mutex<BTreeMap<u64, Weak<Inner>>>,
}

impl Budget {
    /// A session keeps at most `per_session` bytes of events, all sessions
    /// together at most `total`.
    pub(crate) fn new(per_session: usize, total: usize) -> Arc<Budget> {
        Arc::new(Budget {
            per_session,
            total,
            used: AtomicUsize::new(0),
            next_stamp: AtomicU64::new(0),
            oldest: Mutex::new(BTreeMap::new()),
        })
    }

    /// The bytes kept by all sessions now.
    #[cfg(test)]
    pub(crate) fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Drops the oldest events of all sessions until the total budget holds.
    /// No lock is held while another is taken, save a session's then this map's.
    fn shrink(&self) {
        while self.used.load(Ordering::Relaxed) > self.total {
            let Some((stamp, session)) = lock(&self.oldest).pop_first() else { return };
            let Some(inner) = session.upgrade() else { continue };
            let mut kept = lock(&inner.kept);
            // Its oldest event changed meanwhile: the new one is in the map.
            if kept.order.front().map(|charge| charge.stamp) != Some(stamp) {
                continue;
            }
            kept.evict_oldest(self);
            if let Some(front) = kept.order.front() {
                lock(&self.oldest).insert(front.stamp, session);
            }
        }
    }
}

/// The events of one stream still kept, in order, and whether it has ended.
pub(crate) struct StreamLog {
    state: Mutex<LogState>,
    changed: Notify,
}

struct LogState {
    events: VecDeque<String>,
    /// The sequence number of `events[0]`: the stream's first event is 1,
    /// and every event dropped moves it on.
    first: usize,
    finished: bool,
}

impl LogState {
    /// The sequence number the next event recorded gets.
    fn next_sequence(&self) -> usize {
        self.first + self.events.len()
    }
}

/// What a reader of a [`StreamLog`] gets next.
enum Next {
    Event(String),
    /// The stream ended.
    End,
    /// The event was dropped (a budget, or the stream no longer kept).
    Gone,
}

impl StreamLog {
    fn new() -> StreamLog {
        StreamLog {
            state: Mutex::new(LogState { events: VecDeque::new(), first: 1, finished: false }),
            changed: Notify::new(),
        }
    }

    fn push(&self, message: String) {
        lock(&self.state).events.push_back(message);
        self.changed.notify_waiters();
    }

    /// Records an event that is not kept: every earlier one is dropped as
    /// well, so that what is kept has no gap.
    fn skip(&self) {
        let mut state = lock(&self.state);
        state.first = state.next_sequence() + 1;
        state.events.clear();
        drop(state);
        self.changed.notify_waiters();
    }

    /// Drops the oldest event kept.
    fn drop_first(&self) {
        let mut state = lock(&self.state);
        if state.events.pop_front().is_some() {
            state.first += 1;
        }
    }

    /// Drops every event kept (the stream is no longer kept).
    fn forget(&self) {
        let mut state = lock(&self.state);
        state.first = state.next_sequence();
        state.events.clear();
        drop(state);
        self.changed.notify_waiters();
    }

    fn finish(&self) {
        lock(&self.state).finished = true;
        self.changed.notify_waiters();
    }

    /// The sequence number of the oldest event kept (or of the next one).
    fn first(&self) -> usize {
        lock(&self.state).first
    }

    /// The event after the first `seen`, waiting for it.
    async fn next(&self, seen: usize) -> Next {
        let wanted = seen.saturating_add(1);
        loop {
            let notified = self.changed.notified();
            {
                let state = lock(&self.state);
                if wanted < state.first {
                    return Next::Gone;
                }
                if let Some(event) = state.events.get(wanted - state.first) {
                    return Next::Event(event.clone());
                }
                if state.finished {
                    return Next::End;
                }
            }
            notified.await;
        }
    }
}

/// A session's recent streams, by id, within the budgets.
pub(crate) struct StreamLogs {
    inner: Arc<Inner>,
}

struct Inner {
    kept: Mutex<Kept>,
    /// Where every event is also written, for other instances to replay.
    mirror: Option<Mirror>,
    budget: Arc<Budget>,
}

/// A shared store's copy of a session's streams: each stream is the list at
/// `stream:SESSION:STREAM`, one item per event and an empty item at its end
/// (or [`CUT`] where the session's budget stopped the copy).
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

/// The item after which a stream's events are not in the store: the
/// session's budget was spent (no event, always a JSON object, is this).
const CUT: &str = "!cut";

/// How often another instance's stream is read again while it runs, at most.
const POLL_CEILING: Duration = Duration::from_millis(200);

/// How often the instance running a stream says, in the store, that it is alive.
const HEARTBEAT: Duration = Duration::from_secs(5);

/// How long a stream may go without an event or a heartbeat before a replay
/// elsewhere takes its instance for dead (three heartbeats: room for clocks
/// a few seconds apart).
const SILENCE: Duration = Duration::from_secs(15);

/// The last id handed out, the streams kept (oldest first) and what their
/// events cost.
#[derive(Default)]
struct Kept {
    last: u64,
    streams: VecDeque<(u64, Arc<StreamLog>)>,
    /// Every event kept, across the streams, oldest first.
    order: VecDeque<Charge>,
    /// Their bytes.
    used: usize,
    /// The bytes this instance wrote to the store for the session and that
    /// may still be there: streams still written, and ended ones until their
    /// expiry.
    mirrored: usize,
    /// The ended streams' bytes in the store, by when they expire there.
    mirror_expiring: VecDeque<(Instant, usize)>,
}

/// One kept event: when it was kept (across sessions), its stream, its cost.
struct Charge {
    stamp: u64,
    stream: u64,
    bytes: usize,
}

impl Kept {
    fn stream(&self, stream: u64) -> Option<&Arc<StreamLog>> {
        self.streams.iter().find(|(id, _)| *id == stream).map(|(_, log)| log)
    }

    fn front(&self) -> Option<u64> {
        self.order.front().map(|charge| charge.stamp)
    }

    /// Drops the session's oldest event.
    fn evict_oldest(&mut self, budget: &Budget) {
        let Some(charge) = self.order.pop_front() else { return };
        if let Some(log) = self.stream(charge.stream) {
            log.drop_first();
        }
        self.used -= charge.bytes;
        budget.used.fetch_sub(charge.bytes, Ordering::Relaxed);
    }

    /// Stops counting the events of `stream` (dropped with it, or with an
    /// event too large to keep).
    fn uncharge(&mut self, stream: u64, budget: &Budget) {
        let mut freed = 0;
        self.order.retain(|charge| {
            let other = charge.stream != stream;
            if !other {
                freed += charge.bytes;
            }
            other
        });
        self.used -= freed;
        budget.used.fetch_sub(freed, Ordering::Relaxed);
    }
}

impl Inner {
    /// Keeps `message`, the next event of `stream`, dropping the session's
    /// oldest events past its budget, then the oldest of all sessions past
    /// the total. An event larger than a budget is not kept (nor, so that
    /// what is kept has no gap, the ones before it in its stream).
    fn record(self: &Arc<Self>, stream: u64, log: &StreamLog, message: String) {
        let budget = &*self.budget;
        let bytes = message.len().saturating_add(EVENT_OVERHEAD);
        let mut kept = lock(&self.kept);
        let front = kept.front();
        if bytes > budget.per_session.min(budget.total) || kept.stream(stream).is_none() {
            log.skip();
            kept.uncharge(stream, budget);
        } else {
            log.push(message);
            let stamp = budget.next_stamp.fetch_add(1, Ordering::Relaxed);
            kept.order.push_back(Charge { stamp, stream, bytes });
            kept.used += bytes;
            budget.used.fetch_add(bytes, Ordering::Relaxed);
            while kept.used > budget.per_session {
                kept.evict_oldest(budget);
            }
        }
        self.reindex(front, &kept);
        drop(kept);
        budget.shrink();
    }

    /// Tells the budget the session's oldest event is now `kept`'s, no
    /// longer `before`.
    fn reindex(self: &Arc<Self>, before: Option<u64>, kept: &Kept) {
        let after = kept.front();
        if after == before {
            return;
        }
        let mut oldest = lock(&self.budget.oldest);
        if let Some(before) = before {
            oldest.remove(&before);
        }
        if let Some(after) = after {
            oldest.insert(after, Arc::downgrade(self));
        }
    }

    /// Whether `bytes` more may go to the store within the session's budget
    /// (counted when they may).
    fn charge_mirror(&self, bytes: usize) -> bool {
        let mut kept = lock(&self.kept);
        let now = Instant::now();
        while let Some(&(until, freed)) = kept.mirror_expiring.front()
            && until <= now
        {
            kept.mirror_expiring.pop_front();
            kept.mirrored -= freed;
        }
        if kept.mirrored.saturating_add(bytes) > self.budget.per_session {
            return false;
        }
        kept.mirrored += bytes;
        true
    }

    /// A stream that wrote `bytes` to the store ended: they stay there for `ttl`.
    fn mirror_ended(&self, bytes: usize, ttl: Duration) {
        lock(&self.kept).mirror_expiring.push_back((Instant::now() + ttl, bytes));
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        let kept = self.kept.get_mut().unwrap_or_else(PoisonError::into_inner);
        self.budget.used.fetch_sub(kept.used, Ordering::Relaxed);
        if let Some(front) = kept.front() {
            lock(&self.budget.oldest).remove(&front);
        }
        for (_, log) in &kept.streams {
            log.forget();
        }
    }
}

impl StreamLogs {
    /// No streams yet, their events kept within `budget`; they also go to
    /// `mirror`, when there is one.
    pub(crate) fn new(mirror: Option<Mirror>, budget: Arc<Budget>) -> StreamLogs {
        StreamLogs { inner: Arc::new(Inner { kept: Mutex::default(), mirror, budget }) }
    }

    /// A new stream: its id, its log, and whether its events are copied to
    /// the store. Instances sharing a store must not hand out the same id, so
    /// a mirrored stream's id is random; without randomness the stream is
    /// kept here only (resumable on this instance), never mirrored under an
    /// id another instance could also give.
    fn open(&self) -> (u64, Arc<StreamLog>, bool) {
        let inner = &self.inner;
        let mut kept = lock(&inner.kept);
        kept.last += 1;
        let (id, mirrored) = match inner.mirror.as_ref().map(|_| random_stream_id()) {
            None => (kept.last, false),
            Some(Ok(id)) => (id, true),
            Some(Err(error)) => {
                tracing::error!("a stream is resumable on this instance only: {error}");
                (kept.last, false)
            }
        };
        let log = Arc::new(StreamLog::new());
        kept.streams.push_back((id, Arc::clone(&log)));
        let front = kept.front();
        while kept.streams.len() > KEPT_STREAMS {
            if let Some((old, dropped)) = kept.streams.pop_front() {
                dropped.forget();
                kept.uncharge(old, &inner.budget);
            }
        }
        inner.reindex(front, &kept);
        (id, log, mirrored)
    }

    fn find(&self, stream: u64) -> Option<Arc<StreamLog>> {
        lock(&self.inner.kept).stream(stream).cloned()
    }

    /// The bytes of events this session keeps.
    #[cfg(test)]
    fn used(&self) -> usize {
        lock(&self.inner.kept).used
    }
}

/// An SSE response for `receiver` whose events are kept in a new log of
/// `logs`: a priming event (an id, a retry delay, no data) first, then each
/// message with the id `stream-sequence`. The live connection gets every
/// event from the request itself, whatever the budgets keep.
pub(crate) fn resumable(logs: &StreamLogs, mut receiver: mpsc::Receiver<Out>, keep_alive: Duration) -> Response {
    let (stream_id, log, mirrored) = logs.open();
    let session = Arc::downgrade(&logs.inner);
    let mut mirror = logs
        .inner
        .mirror
        .as_ref()
        .filter(|_| mirrored)
        .map(|mirror| (Arc::clone(&mirror.store), mirror.key(stream_id), mirror.ttl));
    let (live_sender, live_receiver) = mpsc::channel::<String>(LIVE_CAPACITY);
    tokio::spawn(async move {
        let mut live = Some(live_sender);
        let mut warned = false;
        let mut copied = 0usize;
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
            let for_store = mirror.as_ref().map(|_| message.clone());
            let for_live = live.as_ref().map(|_| message.clone());
            match session.upgrade() {
                Some(session) => session.record(stream_id, &log, message),
                // The session ended: nothing is kept for it.
                None => log.skip(),
            }
            if let (Some(sender), Some(message)) = (&live, for_live)
                && !send_live(sender, message, &mut beat, mirror.as_ref()).await
            {
                // The client went away: the events are kept for its resume.
                live = None;
            }
            // Sent and kept here first; the copy in the store follows, in
            // order (a replay elsewhere reads it again until it is there).
            if let Some(message) = for_store {
                let bytes = message.len().saturating_add(EVENT_OVERHEAD);
                if session.upgrade().is_some_and(|session| session.charge_mirror(bytes)) {
                    copied += bytes;
                    copy(mirror.as_ref(), &message, &mut warned).await;
                } else {
                    tracing::debug!("stream {stream_id}: the session's resumption budget is spent in the store");
                    copy(mirror.as_ref(), CUT, &mut warned).await;
                    end_mirror(&session, &mut mirror, copied);
                }
            }
            if last {
                break;
            }
        }
        copy(mirror.as_ref(), END, &mut warned).await;
        end_mirror(&session, &mut mirror, copied);
        log.finish();
    });
    let priming = format!("id: {stream_id}-0\nretry: {}\ndata: \n\n", RETRY.as_millis());
    live_stream(stream_id, live_receiver, priming, keep_alive)
}

/// Stops copying a stream to the store: what it wrote there stays counted
/// against the session's budget until it expires.
fn end_mirror(session: &Weak<Inner>, mirror: &mut Option<(Arc<dyn Store>, String, Duration)>, copied: usize) {
    if let Some((_, _, ttl)) = mirror.take()
        && let Some(session) = session.upgrade()
    {
        session.mirror_ended(copied, ttl);
    }
}

/// Hands `message` to the live connection, beating meanwhile when the
/// stream is mirrored; whether the connection is still there.
async fn send_live(
    sender: &mpsc::Sender<String>,
    message: String,
    beat: &mut tokio::time::Interval,
    mirror: Option<&(Arc<dyn Store>, String, Duration)>,
) -> bool {
    let send = sender.send(message);
    tokio::pin!(send);
    loop {
        tokio::select! {
            sent = &mut send => return sent.is_ok(),
            _ = beat.tick(), if mirror.is_some() => heartbeat(mirror).await,
        }
    }
}

/// Why a resume was refused.
fn not_kept(status: StatusCode, message: String) -> Response {
    rpc_error(status, &Value::Null, &RpcError::new(INVALID_REQUEST, message))
}

/// The answer to a GET with `Last-Event-ID` (`stream-sequence`): the rest of
/// that stream, when this session still keeps it, here or, through the
/// shared store, on another instance. Otherwise an error naming why: `400`
/// for an id this server does not give, `404` for a stream not kept (any
/// more) or whose next event was dropped (a budget), `503` when the store
/// cannot say. Never a fresh stream in its place: the client would take it
/// for the rest of the one it lost and wait for a response that never comes.
pub(crate) async fn resume(logs: &StreamLogs, last_event_id: &str, keep_alive: Duration) -> Response {
    let Some((stream, sequence)) = parse_event_id(last_event_id) else {
        let message = format!("Bad Request: Last-Event-ID `{last_event_id}` is not an event id of this server");
        return not_kept(StatusCode::BAD_REQUEST, message);
    };
    let next_dropped = || {
        not_kept(
            StatusCode::NOT_FOUND,
            format!(
                "Not Found: the events after `{stream}-{sequence}` are no longer kept (the server keeps a bounded \
                 number of bytes per session for resumption); send the request again"
            ),
        )
    };
    if let Some(log) = logs.find(stream) {
        if sequence.saturating_add(1) >= log.first() {
            return replay(stream, log, sequence, keep_alive);
        }
        if logs.inner.mirror.is_none() {
            return next_dropped();
        }
    }
    let unknown = || {
        let message = format!(
            "Not Found: stream {stream} is not kept for this session (it ended too long ago, the session's \
             resumption budget dropped it, or it is not this session's); send the request again"
        );
        not_kept(StatusCode::NOT_FOUND, message)
    };
    let Some(mirror) = logs.inner.mirror.as_ref() else { return unknown() };
    let key = mirror.key(stream);
    // A stream is known by its events or, before its first, by its heartbeat.
    let items = match mirror.store.items(&key, 0).await {
        Ok(items) => items,
        Err(error) => return store_failed(&key, &error),
    };
    if items.is_empty() {
        match mirror.store.get(&beat_key(&key), mirror.ttl).await {
            Ok(Some(_)) => {}
            Ok(None) => return unknown(),
            Err(error) => return store_failed(&key, &error),
        }
    }
    if items.iter().position(|item| item == CUT).is_some_and(|cut| sequence >= cut) {
        return next_dropped();
    }
    replay_stored(Arc::clone(&mirror.store), key, stream, sequence, mirror.ttl, keep_alive)
}

/// `STREAM-SEQUENCE`, as this server writes event ids.
fn parse_event_id(last_event_id: &str) -> Option<(u64, usize)> {
    let (stream, sequence) = last_event_id.trim().split_once('-')?;
    Some((stream.parse::<u64>().ok()?, sequence.parse::<usize>().ok()?))
}

/// 503: the shared store could not say whether it keeps the stream.
fn store_failed(key: &str, error: &crate::server::store::StoreError) -> Response {
    tracing::warn!("cannot resume stream {key}: {error}");
    let error = RpcError::new(INTERNAL_ERROR, format!("Service Unavailable: the session store failed: {error}"));
    rpc_error(StatusCode::SERVICE_UNAVAILABLE, &Value::Null, &error)
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
                if message == CUT {
                    // The rest is not kept: a resume from here gets a 404 naming why.
                    tracing::debug!("stream {}: the rest is not in the store (the session's budget)", state.key);
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
/// ends (or its next event is dropped: then the client reconnects and learns
/// why); a comment every `keep_alive` while nothing happens.
fn replay(stream_id: u64, log: Arc<StreamLog>, seen: usize, keep_alive: Duration) -> Response {
    let events = stream::unfold((log, seen), move |(log, seen)| async move {
        match tokio::time::timeout(keep_alive, log.next(seen)).await {
            Err(_) => Some((Ok::<Bytes, Infallible>(Bytes::from_static(b": keep-alive\n\n")), (log, seen))),
            Ok(Next::End) => None,
            Ok(Next::Gone) => {
                tracing::debug!("stream {stream_id}: event {} was dropped; ending the resumed stream", seen + 1);
                None
            }
            Ok(Next::Event(message)) => {
                let event = format!("id: {stream_id}-{}\nevent: message\ndata: {message}\n\n", seen + 1);
                Some((Ok(Bytes::from(event)), (log, seen + 1)))
            }
        }
    });
    sse_response(Body::from_stream(events))
}

/// The live connection of a stream: `priming`, then the events `receiver`
/// hands over, numbered from 1, until the stream ends; a comment every
/// `keep_alive` while nothing happens. Written by hand because the priming
/// event's `data` line must be present and empty.
fn live_stream(stream_id: u64, receiver: mpsc::Receiver<String>, priming: String, keep_alive: Duration) -> Response {
    let start = (receiver, 0usize, Some(priming));
    let events = stream::unfold(start, move |(mut receiver, sent, priming)| async move {
        if let Some(priming) = priming {
            return Some((Ok::<Bytes, Infallible>(Bytes::from(priming)), (receiver, sent, None)));
        }
        match tokio::time::timeout(keep_alive, receiver.recv()).await {
            Err(_) => Some((Ok(Bytes::from_static(b": keep-alive\n\n")), (receiver, sent, None))),
            Ok(None) => None,
            Ok(Some(message)) => {
                let event = format!("id: {stream_id}-{}\nevent: message\ndata: {message}\n\n", sent + 1);
                Some((Ok(Bytes::from(event)), (receiver, sent + 1, None)))
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use axum::http::StatusCode;
    use tokio::sync::mpsc;

    use super::{Budget, CUT, END, EVENT_OVERHEAD, Mirror, Next, StreamLogs, resumable, resume};
    use crate::server::http::channel::Out;
    use crate::server::store::{MemoryStore, Store};

    const KEEP_ALIVE: Duration = Duration::from_secs(15);

    /// Event `n`, costing exactly 100 bytes.
    fn event(n: usize) -> String {
        let text = format!("{{\"n\":{n:03}}}");
        format!("{text:<width$}", width = 100 - EVENT_OVERHEAD)
    }

    async fn next(log: &super::StreamLog, seen: usize) -> Option<String> {
        match log.next(seen).await {
            Next::Event(event) => Some(event),
            Next::End | Next::Gone => None,
        }
    }

    #[tokio::test]
    async fn a_session_drops_its_oldest_events_first_across_its_streams() {
        let budget = Budget::new(500, 10_000);
        let logs = StreamLogs::new(None, Arc::clone(&budget));
        let (a, log_a, _) = logs.open();
        let (b, log_b, _) = logs.open();
        for n in 0..3 {
            logs.inner.record(a, &log_a, event(n));
        }
        for n in 3..6 {
            logs.inner.record(b, &log_b, event(n));
        }
        assert_eq!((logs.used(), budget.used()), (500, 500), "five events of 100 bytes");
        assert_eq!((log_a.first(), log_b.first()), (2, 1), "a's first event went");
        for n in 6..9 {
            logs.inner.record(b, &log_b, event(n));
        }
        assert_eq!(logs.used(), 500);
        assert_eq!((log_a.first(), log_b.first()), (4, 2), "a's events, then b's first, went");
        // Sequence numbers stay what they were: b's fourth event is still its fourth.
        assert!(matches!(log_a.next(2).await, Next::Gone));
        assert!(matches!(log_b.next(0).await, Next::Gone));
        assert_eq!(next(&log_b, 3).await, Some(event(6)));
        assert_eq!(next(&log_b, 5).await, Some(event(8)));
    }

    #[tokio::test]
    async fn an_event_larger_than_the_budget_is_not_kept_nor_those_before_it_in_its_stream() {
        let budget = Budget::new(300, 10_000);
        let logs = StreamLogs::new(None, Arc::clone(&budget));
        let (a, log_a, _) = logs.open();
        let (b, log_b, _) = logs.open();
        logs.inner.record(a, &log_a, event(0));
        logs.inner.record(b, &log_b, event(1));
        logs.inner.record(b, &log_b, "x".repeat(400));
        logs.inner.record(b, &log_b, event(3));
        assert_eq!(logs.used(), 200, "a's event and b's third");
        assert_eq!(next(&log_a, 0).await, Some(event(0)), "the other stream keeps its events");
        assert!(matches!(log_b.next(1).await, Next::Gone));
        assert_eq!(next(&log_b, 2).await, Some(event(3)));
    }

    #[tokio::test]
    async fn past_the_total_the_oldest_events_of_all_sessions_go_first() {
        let budget = Budget::new(1_000, 300);
        let (one, two) = (StreamLogs::new(None, Arc::clone(&budget)), StreamLogs::new(None, Arc::clone(&budget)));
        let ((s1, log1, _), (s2, log2, _)) = (one.open(), two.open());
        one.inner.record(s1, &log1, event(0));
        one.inner.record(s1, &log1, event(1));
        two.inner.record(s2, &log2, event(2));
        assert_eq!(budget.used(), 300);
        two.inner.record(s2, &log2, event(3));
        assert_eq!((budget.used(), one.used(), two.used()), (300, 100, 200), "the first session's oldest went");
        // Whichever session records, the oldest event of all goes.
        one.inner.record(s1, &log1, event(4));
        one.inner.record(s1, &log1, event(5));
        assert_eq!((one.used(), two.used()), (200, 100), "the first's second event, then the second's first, went");
        assert_eq!((log1.first(), log2.first()), (3, 2));
        drop(one);
        assert_eq!(budget.used(), 100, "an ended session gives its bytes back");
        two.inner.record(s2, &log2, event(5));
        two.inner.record(s2, &log2, event(6));
        assert_eq!((budget.used(), log2.first()), (300, 2), "nothing of the second session went for the ended one");
    }

    #[tokio::test]
    async fn the_live_connection_gets_every_event_whatever_is_kept() {
        let budget = Budget::new(200, 10_000);
        let logs = StreamLogs::new(None, Arc::clone(&budget));
        let (sender, receiver) = mpsc::channel(16);
        let response = resumable(&logs, receiver, KEEP_ALIVE);
        let big = "y".repeat(1_000);
        let events = [event(0), event(1), big.clone(), event(3), event(4)];
        for event in &events {
            sender.send(Out::Note(event.clone())).await.unwrap();
        }
        sender.send(Out::Last(event(5))).await.unwrap();
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
        let body = String::from_utf8(body.to_vec()).unwrap();
        for (n, event) in events.iter().chain([&event(5)]).enumerate() {
            assert!(body.contains(event), "event {n} went out live, though larger than the budget: {body}");
        }
        assert_eq!(logs.used(), 200, "the last two events kept");
        let stream = logs.inner.kept.lock().unwrap().streams[0].0;
        let gone = resume(&logs, &format!("{stream}-3"), KEEP_ALIVE).await;
        assert_eq!(gone.status(), StatusCode::NOT_FOUND, "event 4 was dropped");
        let kept = resume(&logs, &format!("{stream}-4"), KEEP_ALIVE).await;
        assert_eq!(kept.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn a_resume_not_kept_is_refused_with_a_reason() {
        let logs = StreamLogs::new(None, Budget::new(1_000, 1_000));
        let unknown = resume(&logs, "12345-1", KEEP_ALIVE).await;
        assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
        let body = axum::body::to_bytes(unknown.into_body(), usize::MAX).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains("stream 12345 is not kept"), "{message}");
        let garbage = resume(&logs, "not-an-id", KEEP_ALIVE).await;
        assert_eq!(garbage.status(), StatusCode::BAD_REQUEST);
    }

    #[tokio::test]
    async fn the_store_keeps_a_session_within_its_budget_too() {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let mirror = || Mirror { store: Arc::clone(&store), session: "s".to_owned(), ttl: Duration::from_secs(60) };
        let budget = Budget::new(300, 10_000);
        let here = StreamLogs::new(Some(mirror()), Arc::clone(&budget));
        let (sender, receiver) = mpsc::channel(16);
        drop(resumable(&here, receiver, KEEP_ALIVE));
        for n in 0..5 {
            sender.send(Out::Note(event(n))).await.unwrap();
        }
        sender.send(Out::Last(event(5))).await.unwrap();
        let stream = here.inner.kept.lock().unwrap().streams[0].0;
        let key = format!("stream:s:{stream}");
        let mut items = Vec::new();
        for _ in 0..200 {
            items = store.items(&key, 0).await.unwrap();
            if items.last().is_some_and(|item| item == CUT || item == END) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        assert_eq!(items, [event(0), event(1), event(2), CUT.to_owned()], "300 bytes, then the cut");
        // Another instance of the session resumes what the store has, and no further.
        let there = StreamLogs::new(Some(mirror()), budget);
        assert_eq!(resume(&there, &format!("{stream}-1"), KEEP_ALIVE).await.status(), StatusCode::OK);
        assert_eq!(resume(&there, &format!("{stream}-3"), KEEP_ALIVE).await.status(), StatusCode::NOT_FOUND);
    }
}
