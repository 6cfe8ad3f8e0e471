//! Legacy Streamable HTTP sessions (`Mcp-Session-Id`, 2025-03-26 to
//! 2025-11-25): each holds the engine's [`Peer`] for its client and the
//! recent streams kept for resumption.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::Duration;

use tokio::time::Instant;

use super::resume::StreamLogs;
use crate::server::peer::Peer;

/// One legacy client's session.
pub(crate) struct HttpSession {
    /// What the engine knows of the client.
    pub(crate) peer: Arc<Peer>,
    /// The recent POST streams, for resumption.
    pub(crate) logs: StreamLogs,
    last_seen: Mutex<Instant>,
}

impl HttpSession {
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
        Sessions { map: Arc::new(Mutex::new(map)), idle_timeout, cap: cap.max(1), timer: AtomicBool::new(false) }
    }

    /// A new session and its id; `None` when the system has no randomness to give.
    ///
    /// Expired sessions are dropped here, at most once per [`SWEEP_INTERVAL`]
    /// (or idle timeout, when shorter): sweeping on every `initialize` would
    /// make opening `n` sessions cost `n²`.
    pub(crate) fn create(&self) -> Option<(String, Arc<HttpSession>)> {
        let id = new_id()?;
        let now = Instant::now();
        let session =
            Arc::new(HttpSession { peer: Peer::new(), logs: StreamLogs::default(), last_seen: Mutex::new(now) });
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
        map.sessions.insert(id.clone(), Arc::clone(&session));
        Some((id, session))
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
    pub(crate) fn get(&self, id: &str) -> Option<Arc<HttpSession>> {
        let session = lock(&self.map).sessions.get(id).cloned()?;
        if session.idle_for() >= self.idle_timeout {
            self.remove(id);
            return None;
        }
        session.touch();
        Some(session)
    }

    /// Ends the session with `id`: its requests stop and its streams close.
    /// Whether it was live.
    pub(crate) fn remove(&self, id: &str) -> bool {
        let removed = lock(&self.map).sessions.remove(id);
        if let Some(session) = &removed {
            session.peer.close();
        }
        removed.is_some()
    }
}

/// 128 bits from the operating system's CSPRNG, as 32 hex digits (visible
/// ASCII, as the specification requires).
fn new_id() -> Option<String> {
    let mut bytes = [0u8; 16];
    if let Err(error) = getrandom::fill(&mut bytes) {
        tracing::error!("no session id: the system's random number generator failed: {error}");
        return None;
    }
    let mut id = String::with_capacity(32);
    for byte in bytes {
        let _ = write!(id, "{byte:02x}");
    }
    Some(id)
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
