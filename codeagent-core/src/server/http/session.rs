//! Legacy Streamable HTTP sessions (`Mcp-Session-Id`, 2025-03-26 to
//! 2025-11-25): each holds the engine's [`Peer`] for its client and the
//! recent streams kept for resumption.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use tokio::time::Instant;

use super::resume::{Budget, Mirror, StreamLogs};
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
    /// Whom it counts against for the per-client limit (see [`ClientKey`]).
    client: Option<Arc<str>>,
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
    /// What the sessions' resumable streams may keep, in bytes.
    budget: Arc<Budget>,
    /// The most live sessions one client may open here.
    per_client: usize,
}

/// Why no session was opened.
#[derive(Debug, PartialEq)]
pub(crate) enum Refused {
    /// The system gave no randomness for its id.
    NoRandomness,
    /// The client has `limit` live sessions already.
    TooMany {
        /// The per-client limit.
        limit: usize,
    },
}

/// Whom a new session counts against: the authenticated caller, or the
/// client's address (see `client::key`).
pub(crate) type ClientKey = Arc<str>;

/// The sessions by id, and when the expired ones were last dropped.
struct Map {
    sessions: HashMap<String, Arc<HttpSession>>,
    swept: Instant,
    /// How many sessions each client opened, at most: sessions end in many
    /// places without coming by here, so a count is checked against the map
    /// only when it reaches the limit.
    by_client: HashMap<ClientKey, usize>,
}

impl Map {
    /// Counts one more session of `client`, unless it has `limit` live ones.
    fn admit(&mut self, client: &ClientKey, limit: usize) -> Result<(), Refused> {
        if self.by_client.get(client).is_some_and(|&count| count >= limit) {
            let live = self.sessions.values().filter(|session| session.client.as_ref() == Some(client)).count();
            self.by_client.insert(Arc::clone(client), live);
            if live >= limit {
                return Err(Refused::TooMany { limit });
            }
        }
        // Clients whose sessions all ended are forgotten now and then (each
        // recount costs one pass over the map, once per as many new clients).
        if self.by_client.len() > 2 * self.sessions.len() + 64 {
            self.by_client.clear();
            for key in self.sessions.values().filter_map(|session| session.client.as_ref()) {
                *self.by_client.entry(Arc::clone(key)).or_default() += 1;
            }
        }
        *self.by_client.entry(Arc::clone(client)).or_default() += 1;
        Ok(())
    }
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
        let map = Map { sessions: HashMap::new(), swept: Instant::now(), by_client: HashMap::new() };
        Sessions {
            map: Arc::new(Mutex::new(map)),
            idle_timeout,
            cap: cap.max(1),
            timer: AtomicBool::new(false),
            shared: None,
            stream_ttl: idle_timeout,
            budget: Budget::new(super::DEFAULT_RESUME_PER_SESSION, super::DEFAULT_RESUME_TOTAL),
            per_client: super::DEFAULT_SESSIONS_PER_CLIENT,
        }
    }

    /// These sessions' resumable streams kept within `budget`, and at most
    /// `per_client` live sessions opened by one client (at least one).
    pub(crate) fn with_limits(mut self, budget: Arc<Budget>, per_client: usize) -> Self {
        self.budget = budget;
        self.per_client = per_client.max(1);
        self
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
    fn session(&self, id: &str, now: Instant, client: Option<ClientKey>) -> Arc<HttpSession> {
        let mirror = self.shared.as_ref().map(|shared| Mirror {
            store: Arc::clone(&shared.store),
            session: id.to_owned(),
            ttl: self.stream_ttl,
        });
        Arc::new(HttpSession {
            id: id.to_owned(),
            peer: Peer::new(),
            logs: StreamLogs::new(mirror, Arc::clone(&self.budget)),
            client,
            last_seen: Mutex::new(now),
            stored: Mutex::new(None),
            owner: Mutex::new(None),
        })
    }

    /// A new session and its id, counted against `client` when there is one
    /// (refused when it has [`with_limits`](Sessions::with_limits)' number
    /// of live sessions already: nobody's session ends for it); refused too
    /// when the system has no randomness to give.
    ///
    /// Expired sessions are dropped here, at most once per [`SWEEP_INTERVAL`]
    /// (or idle timeout, when shorter): sweeping on every `initialize` would
    /// make opening `n` sessions cost `n²`.
    pub(crate) fn create(&self, client: Option<&str>) -> Result<(String, Arc<HttpSession>), Refused> {
        let id = new_id().ok_or(Refused::NoRandomness)?;
        let session = self.insert_for(&id, client.map(Arc::from))?;
        Ok((id, session))
    }

    /// A new session object for `id` in the map, making room when it is full
    /// (a copy of a session another instance opened: counted against nobody).
    fn insert(&self, id: &str) -> Arc<HttpSession> {
        let now = Instant::now();
        let mut map = self.swept_map(now);
        self.place(&mut map, id, now, None)
    }

    /// [`insert`](Sessions::insert) for a session `client` opens, unless it
    /// has its number of live sessions already.
    fn insert_for(&self, id: &str, client: Option<ClientKey>) -> Result<Arc<HttpSession>, Refused> {
        let now = Instant::now();
        let mut map = self.swept_map(now);
        if let Some(client) = &client {
            map.admit(client, self.per_client)?;
        }
        Ok(self.place(&mut map, id, now, client))
    }

    /// The map, its expired sessions dropped when it is time (or it is full).
    fn swept_map(&self, now: Instant) -> MutexGuard<'_, Map> {
        self.start_timer();
        let mut map = lock(&self.map);
        if now.duration_since(map.swept) >= SWEEP_INTERVAL.min(self.idle_timeout) || map.sessions.len() >= self.cap {
            map.sweep(self.idle_timeout, now);
        }
        map
    }

    /// Puts a new session object for `id` in `map`, making room when it is full.
    fn place(&self, map: &mut Map, id: &str, now: Instant, client: Option<ClientKey>) -> Arc<HttpSession> {
        let session = self.session(id, now, client);
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

    use super::{Refused, Sessions, new_id};
    use crate::server::http::resume::Budget;

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
        let (id, session) = sessions.create(None).unwrap();
        assert!(sessions.get(&id).is_some());
        std::thread::sleep(Duration::from_millis(60));
        assert!(sessions.get(&id).is_none(), "expired, though no sweep ran since");
        assert!(session.peer.closed().is_cancelled());
        let (kept, _) = sessions.create(None).unwrap();
        assert!(sessions.get(&kept).is_some());
    }

    #[test]
    fn at_the_cap_the_session_unused_the_longest_ends() {
        let sessions = Sessions::new(Duration::from_secs(60), 2);
        let (first, first_session) = sessions.create(None).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        let (second, _) = sessions.create(None).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert!(sessions.get(&first).is_some(), "used again: now the second is the oldest");
        let (third, _) = sessions.create(None).unwrap();
        assert_eq!(sessions.len(), 2);
        assert!(sessions.get(&second).is_none());
        assert!(sessions.get(&first).is_some() && sessions.get(&third).is_some());
        assert!(!first_session.peer.closed().is_cancelled());
    }

    #[tokio::test(start_paused = true)]
    async fn idle_sessions_are_dropped_on_a_timer() {
        let sessions = Sessions::new(Duration::from_secs(5), 100);
        let (_, session) = sessions.create(None).unwrap();
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
        let (id, session) = sessions.create(None).unwrap();
        assert!(sessions.get(&id).is_some());
        assert!(sessions.remove(&id));
        assert!(session.peer.closed().is_cancelled());
        assert!(sessions.get(&id).is_none());
        assert!(!sessions.remove(&id));
    }

    #[test]
    fn one_client_cannot_open_more_than_its_sessions_and_nobody_is_evicted_for_it() {
        let sessions = Sessions::new(Duration::from_secs(60), 100).with_limits(Budget::new(1_000, 1_000), 2);
        let (first, first_session) = sessions.create(Some("address 192.0.2.1")).unwrap();
        sessions.create(Some("address 192.0.2.1")).unwrap();
        let (other, _) = sessions.create(Some("address 192.0.2.2")).unwrap();
        assert_eq!(sessions.create(Some("address 192.0.2.1")).err(), Some(Refused::TooMany { limit: 2 }));
        assert_eq!(sessions.len(), 3, "nobody's session ended for the refused one");
        assert!(sessions.get(&first).is_some() && sessions.get(&other).is_some());
        assert!(!first_session.peer.closed().is_cancelled());
        assert!(sessions.create(None).is_ok(), "a client nothing names is not limited");
        // Once one of its sessions ends, the client may open another.
        assert!(sessions.remove(&first));
        assert!(sessions.create(Some("address 192.0.2.1")).is_ok());
        assert!(sessions.create(Some("address 192.0.2.1")).is_err());
    }

    #[test]
    fn at_the_cap_the_per_client_limit_is_checked_before_anyone_is_evicted() {
        let sessions = Sessions::new(Duration::from_secs(60), 2).with_limits(Budget::new(1_000, 1_000), 1);
        let (first, _) = sessions.create(Some("a")).unwrap();
        let (second, _) = sessions.create(Some("b")).unwrap();
        assert!(sessions.create(Some("a")).is_err());
        assert!(sessions.get(&first).is_some() && sessions.get(&second).is_some(), "the refusal evicted nobody");
    }
}
