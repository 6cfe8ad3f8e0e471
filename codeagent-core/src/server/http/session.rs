//! Legacy Streamable HTTP sessions (`Mcp-Session-Id`, 2025-03-26 to 2025-11-25).

use std::collections::HashMap;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::Value;

use super::resume::StreamLogs;
use crate::server::engine::Session;
use crate::toolbox::Cancellation;

/// One legacy client's session: its negotiated state, its requests in flight
/// (for `notifications/cancelled`) and its GET stream, if open.
#[derive(Default)]
pub(crate) struct HttpSession {
    pub(crate) session: Session,
    inflight: Mutex<HashMap<String, Cancellation>>,
    streams: Mutex<Vec<Cancellation>>,
    /// The recent POST streams, for resumption.
    pub(crate) logs: StreamLogs,
    last_seen: Mutex<Option<Instant>>,
}

impl HttpSession {
    pub(crate) fn track(&self, id: &Value, cancellation: Cancellation) {
        lock(&self.inflight).insert(id.to_string(), cancellation);
    }

    pub(crate) fn untrack(&self, id: &Value) {
        lock(&self.inflight).remove(&id.to_string());
    }

    pub(crate) fn cancel(&self, id: &Value) {
        if let Some(cancellation) = lock(&self.inflight).remove(&id.to_string()) {
            cancellation.cancel();
        }
    }

    /// A signal that fires when the session ends, for a GET stream to close on.
    pub(crate) fn stream_closer(&self) -> Cancellation {
        let closer = Cancellation::new();
        let mut streams = lock(&self.streams);
        streams.retain(|stream| !stream.is_cancelled());
        streams.push(closer.clone());
        closer
    }

    fn touch(&self) {
        *lock(&self.last_seen) = Some(Instant::now());
    }

    fn idle_for(&self) -> Duration {
        lock(&self.last_seen).map_or(Duration::ZERO, |seen| seen.elapsed())
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The live sessions; idle ones expire.
pub(crate) struct Sessions {
    map: Mutex<HashMap<String, Arc<HttpSession>>>,
    idle_timeout: Duration,
    keys: RandomState,
    counter: AtomicU64,
}

impl Sessions {
    pub(crate) fn new(idle_timeout: Duration) -> Self {
        Sessions { map: Mutex::default(), idle_timeout, keys: RandomState::new(), counter: AtomicU64::new(0) }
    }

    /// A new session and its id.
    pub(crate) fn create(&self) -> (String, Arc<HttpSession>) {
        let id = self.new_id();
        let session = Arc::new(HttpSession::default());
        session.touch();
        let mut map = lock(&self.map);
        map.retain(|_, session| session.idle_for() < self.idle_timeout);
        map.insert(id.clone(), Arc::clone(&session));
        (id, session)
    }

    /// The session with `id`, if it is live.
    pub(crate) fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let session = lock(&self.map).get(id).cloned()?;
        session.touch();
        Some(session)
    }

    /// Ends the session with `id`; whether it was live.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let removed = lock(&self.map).remove(id);
        if let Some(session) = &removed {
            lock(&session.streams).drain(..).for_each(|stream| stream.cancel());
            lock(&session.inflight).drain().for_each(|(_, request)| request.cancel());
        }
        removed.is_some()
    }

    /// 128 bits from SipHash keyed by the process's random keys over a counter
    /// and the clock: unpredictable without the keys, visible ASCII as required.
    fn new_id(&self) -> String {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |time| time.as_nanos());
        let mut id = String::with_capacity(32);
        for round in 0..2u8 {
            let mut hasher = self.keys.build_hasher();
            hasher.write_u64(self.counter.fetch_add(1, Ordering::Relaxed));
            hasher.write_u128(nanos);
            hasher.write_u8(round);
            id.push_str(&format!("{:016x}", hasher.finish()));
        }
        id
    }
}
