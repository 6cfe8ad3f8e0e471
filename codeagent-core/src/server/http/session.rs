//! Legacy Streamable HTTP sessions (`Mcp-Session-Id`, 2025-03-26 to
//! 2025-11-25): each holds the engine's [`Peer`] for its client and the
//! recent streams kept for resumption.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use tokio::time::Instant;

use super::resume::{Mirror, StreamLogs};
use super::shared::{LocalSessions, SessionRecord, Shared};
use crate::server::peer::Peer;
use crate::server::store::StoreError;

/// One legacy client's session.
pub(crate) struct HttpSession {
    /// Its `Mcp-Session-Id`.
    pub(crate) id: String,
    /// What the engine knows of the client.
    pub(crate) peer: Arc<Peer>,
    /// The recent POST streams, for resumption.
    pub(crate) logs: StreamLogs,
    last_seen: Mutex<Instant>,
    /// The record last read from or written to the shared store.
    stored: Mutex<Option<SessionRecord>>,
    /// Who opened it: `None` where the endpoint knows no caller.
    owner: Mutex<Option<String>>,
}

impl HttpSession {
    /// Who opened the session, where the endpoint authenticates: the
    /// caller's [identity](crate::toolbox::Caller::identity), or a digest of
    /// the credentials an [`Authorize`](super::Authorize) hook let through.
    /// Requests of anyone else are refused as if the session did not exist.
    pub(crate) fn owner(&self) -> Option<String> {
        lock(&self.owner).clone()
    }

    /// Binds the session to `owner`, as it opens.
    pub(crate) fn bind(&self, owner: Option<String>) {
        *lock(&self.owner) = owner;
    }

    fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    fn idle_for(&self) -> Duration {
        lock(&self.last_seen).elapsed()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The longest time between two sweeps of expired sessions.
const SWEEP_INTERVAL: Duration = Duration::from_secs(1);

/// The longest time between two sweeps by the timer, whatever the idle timeout.
const TIMER_INTERVAL: Duration = Duration::from_secs(60);

/// The live sessions, at most `cap` of them; idle ones expire, on a timer as
/// well as on use.
pub(crate) struct Sessions {
    map: Arc<Mutex<Map>>,
    idle_timeout: Duration,
    cap: usize,
    timer: AtomicBool,
    /// The store shared with other instances, if any: then a session lives
    /// there, and this map only keeps this instance's copies.
    shared: Option<Shared>,
    /// How long the events of a resumable stream are kept in the store.
    stream_ttl: Duration,
}

/// The sessions by id, and when the expired ones were last dropped.
struct Map {
    sessions: HashMap<String, Arc<HttpSession>>,
    swept: Instant,
}

impl Map {
    /// Ends the sessions unused for `idle_timeout`.
    fn sweep(&mut self, idle_timeout: Duration, now: Instant) {
        self.swept = now;
        self.sessions.retain(|_, session| {
            let live = session.idle_for() < idle_timeout;
            if !live {
                session.peer.close();
            }
            live
        });
    }
}

impl Sessions {
    /// Sessions that expire after `idle_timeout` unused; at `cap`, a new one
    /// ends the one unused the longest.
    pub(crate) fn new(idle_timeout: Duration, cap: usize) -> Self {
        let map = Map { sessions: HashMap::new(), swept: Instant::now() };
        Sessions {
            map: Arc::new(Mutex::new(map)),
            idle_timeout,
            cap: cap.max(1),
            timer: AtomicBool::new(false),
            shared: None,
            stream_ttl: idle_timeout,
        }
    }

    /// These sessions kept in `shared`, their streams' events for `stream_ttl`.
    pub(crate) fn with_shared(mut self, shared: Shared, stream_ttl: Duration) -> Self {
        self.shared = Some(shared);
        self.stream_ttl = stream_ttl;
        self
    }

    /// The store shared with other instances, if any.
    pub(crate) fn shared(&self) -> Option<&Shared> {
        self.shared.as_ref()
    }

    /// A session object for `id`, not yet in the map.
    fn session(&self, id: &str, now: Instant) -> Arc<HttpSession> {
        let mirror = self.shared.as_ref().map(|shared| Mirror {
            store: Arc::clone(&shared.store),
            session: id.to_owned(),
            ttl: self.stream_ttl,
        });
        Arc::new(HttpSession {
            id: id.to_owned(),
            peer: Peer::new(),
            logs: StreamLogs::new(mirror),
            last_seen: Mutex::new(now),
            stored: Mutex::new(None),
            owner: Mutex::new(None),
        })
    }

    /// A new session and its id; `None` when the system has no randomness to give.
    ///
    /// Expired sessions are dropped here, at most once per [`SWEEP_INTERVAL`]
    /// (or idle timeout, when shorter): sweeping on every `initialize` would
    /// make opening `n` sessions cost `n²`.
    pub(crate) fn create(&self) -> Option<(String, Arc<HttpSession>)> {
        let id = new_id()?;
        let session = self.insert(&id);
        Some((id, session))
    }

    /// A new session object for `id` in the map, making room when it is full.
    fn insert(&self, id: &str) -> Arc<HttpSession> {
        let now = Instant::now();
        let session = self.session(id, now);
        self.start_timer();
        let mut map = lock(&self.map);
        if now.duration_since(map.swept) >= SWEEP_INTERVAL.min(self.idle_timeout) || map.sessions.len() >= self.cap {
            map.sweep(self.idle_timeout, now);
        }
        if map.sessions.len() >= self.cap {
            // Full of live sessions: the one unused the longest makes room.
            let oldest = map.sessions.iter().max_by_key(|(_, session)| session.idle_for()).map(|(id, _)| id.clone());
            if let Some(session) = oldest.and_then(|oldest| map.sessions.remove(&oldest)) {
                tracing::debug!("{} legacy sessions: the one unused the longest ends for a new one", self.cap);
                session.peer.close();
            }
        }
        map.sessions.insert(id.to_owned(), Arc::clone(&session));
        session
    }

    /// Writes `session`'s record to the shared store when it changed since
    /// it was last read or written (a handshake, `logging/setLevel`, a
    /// subscription). Without a shared store there is nothing to write.
    pub(crate) async fn persist(&self, session: &HttpSession) -> Result<(), StoreError> {
        let Some(shared) = &self.shared else { return Ok(()) };
        let record = SessionRecord::of(&session.peer, session.owner());
        if lock(&session.stored).as_ref() == Some(&record) {
            return Ok(());
        }
        shared.save(&session.id, &record, self.idle_timeout).await?;
        *lock(&session.stored) = Some(record);
        Ok(())
    }

    /// The session with `id`, if it is live. With a shared store its record
    /// there decides (any instance may have opened or ended it), and this
    /// instance's copy is brought up to date; otherwise an expired session
    /// not yet swept is ended here.
    pub(crate) async fn find(&self, id: &str) -> Result<Option<Arc<HttpSession>>, StoreError> {
        let Some(shared) = &self.shared else { return Ok(self.get(id)) };
        let Some(record) = shared.load(id, self.idle_timeout).await? else {
            self.drop_local(id);
            return Ok(None);
        };
        let session = match self.local(id) {
            Some(session) => session,
            None => self.insert(id),
        };
        session.touch();
        let mut stored = lock(&session.stored);
        if stored.as_ref() != Some(&record) {
            record.apply(&session.peer);
            session.bind(record.owner.clone());
            *stored = Some(record);
        }
        drop(stored);
        Ok(Some(session))
    }

    /// This instance's copy of session `id`, as it is.
    pub(crate) fn local(&self, id: &str) -> Option<Arc<HttpSession>> {
        lock(&self.map).sessions.get(id).cloned()
    }

    /// Drops this instance's copy of session `id` (it ended elsewhere).
    pub(crate) fn drop_local(&self, id: &str) {
        if let Some(session) = lock(&self.map).sessions.remove(id) {
            session.peer.close();
        }
    }

    /// Ends session `id` everywhere: its requests stop and its streams
    /// close, on every instance. Whether it was live.
    pub(crate) async fn end(&self, id: &str) -> Result<bool, StoreError> {
        let local = self.remove(id);
        match &self.shared {
            Some(shared) => Ok(shared.end(id).await? || local),
            None => Ok(local),
        }
    }

    /// How many sessions are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        lock(&self.map).sessions.len()
    }

    /// Starts, once and only inside a Tokio runtime, the task that drops
    /// expired sessions even when no client comes by; it ends with the map.
    fn start_timer(&self) {
        if self.timer.load(Ordering::Relaxed) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        if self.timer.swap(true, Ordering::Relaxed) {
            return;
        }
        let map: Weak<Mutex<Map>> = Arc::downgrade(&self.map);
        let (idle_timeout, interval) = (self.idle_timeout, self.idle_timeout.min(TIMER_INTERVAL));
        runtime.spawn(async move {
            loop {
                tokio::time::sleep(interval).await;
                let Some(map) = map.upgrade() else { return };
                let now = Instant::now();
                let mut map = lock(&map);
                map.sweep(idle_timeout, now);
            }
        });
    }

    /// The session with `id`, if it is live (an expired one not yet swept
    /// is ended here).
    fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let session = lock(&self.map).sessions.get(id).cloned()?;
        if session.idle_for() >= self.idle_timeout {
            self.remove(id);
            return None;
        }
        session.touch();
        Some(session)
    }

    /// Ends this instance's session with `id`: its requests stop and its
    /// streams close. Whether it was live.
    fn remove(&self, id: &str) -> bool {
        let removed = lock(&self.map).sessions.remove(id);
        if let Some(session) = &removed {
            session.peer.close();
        }
        removed.is_some()
    }
}

impl LocalSessions for Sessions {
    fn local_peer(&self, id: &str) -> Option<Arc<Peer>> {
        self.local(id).map(|session| Arc::clone(&session.peer))
    }

    fn drop_local(&self, id: &str) {
        Sessions::drop_local(self, id);
    }
}

/// 128 bits from the operating system's CSPRNG, as 32 hex digits (visible
/// ASCII, as the specification requires).
fn new_id() -> Option<String> {
    crate::random::hex::<16>()
        .inspect_err(|error| tracing::error!("no session id: the system's random number generator failed: {error}"))
        .ok()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{Sessions, new_id};

    #[test]
    fn ids_are_random_hex() {
        let (a, b) = (new_id().unwrap(), new_id().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|byte| byte.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn an_idle_session_expires() {
        let sessions = Sessions::new(Duration::from_millis(30), 100);
        let (id, session) = sessions.create().unwrap();
        assert!(sessions.get(&id).is_some());
        std::thread::sleep(Duration::from_millis(60));
        assert!(sessions.get(&id).is_none(), "expired, though no sweep ran since");
        assert!(session.peer.closed().is_cancelled());
        let (kept, _) = sessions.create().unwrap();
        assert!(sessions.get(&kept).is_some());
    }

    #[test]
    fn at_the_cap_the_session_unused_the_longest_ends() {
        let sessions = Sessions::new(Duration::from_secs(60), 2);
        let (first, first_session) = sessions.create().unwrap();
        std::thread::sleep(Duration::from_millis(5));
        let (second, _) = sessions.create().unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert!(sessions.get(&first).is_some(), "used again: now the second is the oldest");
        let (third, _) = sessions.create().unwrap();
        assert_eq!(sessions.len(), 2);
        assert!(sessions.get(&second).is_none());
        assert!(sessions.get(&first).is_some() && sessions.get(&third).is_some());
        assert!(!first_session.peer.closed().is_cancelled());
    }

    #[tokio::test(start_paused = true)]
    async fn idle_sessions_are_dropped_on_a_timer() {
        let sessions = Sessions::new(Duration::from_secs(5), 100);
        let (_, session) = sessions.create().unwrap();
        assert_eq!(sessions.len(), 1);
        // Nobody comes by: the timer alone ends the session.
        tokio::time::sleep(Duration::from_secs(11)).await;
        tokio::task::yield_now().await;
        assert_eq!(sessions.len(), 0);
        assert!(session.peer.closed().is_cancelled());
    }

    #[test]
    fn removing_a_session_closes_its_peer() {
        let sessions = Sessions::new(Duration::from_secs(60), 100);
        let (id, session) = sessions.create().unwrap();
        assert!(sessions.get(&id).is_some());
        assert!(sessions.remove(&id));
        assert!(session.peer.closed().is_cancelled());
        assert!(sessions.get(&id).is_none());
        assert!(!sessions.remove(&id));
    }
}
