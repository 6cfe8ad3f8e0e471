//! Where the state of legacy HTTP sessions and of tasks lives, so that
//! several instances of a server behind one load balancer can serve the same
//! client.
//!
//! 2026-07-28 requests are stateless: any instance answers them, given the
//! same `requestState` keys. A legacy client (2025-03-26 to 2025-11-25) holds
//! a session, resumable SSE streams and, while a tool asks it something, a
//! pending request; with a [`Store`] shared by the instances
//! ([`HttpOptions::with_store`](super::http::HttpOptions::with_store)) every
//! instance can serve it:
//!
//! - the session (negotiated version, client capabilities, log level,
//!   resource subscriptions) is a record any instance loads;
//! - every event of a resumable stream is appended to a list, so a client
//!   resuming with `Last-Event-ID` on another instance gets the rest;
//! - a client's answer to a server-to-client request, a cancellation, the end
//!   of a session and list-changed or resource-updated announcements go over
//!   the store's message bus to the instance that needs them;
//! - a result over its size budget is kept there too, so its
//!   `codeagent://results/…` link reads from any instance;
//! - without `CODEAGENT_STATE_KEY`, the instances share a `requestState` key
//!   made once and kept in the store;
//! - every task (a tool run as a task, the tasks extension) is a record there,
//!   with its answers and a cancel flag, so any instance answers for it, and a
//!   lease the instance running it renews, so a task whose instance died ends
//!   `failed` (see [`Server::with_task_store`](super::Server::with_task_store)).
//!
//! The store itself is a small thing (values and lists with an expiry, and a
//! bus): [`MemoryStore`] for instances in one process, [`RedisStore`] (feature
//! `redis`) for several processes; a server's tasks use a `MemoryStore` of
//! their own unless given one. Everything written has a TTL, so nothing
//! grows without bound. Implement [`Store`] for another backend.

mod memory;
#[cfg(feature = "redis")]
mod redis;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast;

#[cfg(feature = "http")]
use super::{STATE_KEY_VAR, StateKeys};

pub use memory::MemoryStore;
#[cfg(feature = "redis")]
pub use redis::RedisStore;

/// What every [`Store`] method returns: a boxed future, so the trait can be
/// used as `Arc<dyn Store>`.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Why the store could not do what was asked (it is unreachable, it timed
/// out, it answered something unexpected). Requests that needed it get an
/// error naming it; the server carries on and uses the store again on the
/// next request.
///
/// It carries its cause, typed, when there is one ([`source`](std::error::Error::source):
/// the Redis error, the JSON error), and its message names the cause too, so a
/// log line or a 503 says what went wrong without walking the chain.
///
/// ```
/// use codeagent_core::server::store::StoreError;
/// use std::error::Error as _;
///
/// let io = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
/// let error = StoreError::caused_by("the store is down", io);
/// assert_eq!(error.to_string(), "the store is down: refused");
/// assert_eq!(error.message(), "the store is down");
/// assert!(error.source().unwrap().downcast_ref::<std::io::Error>().is_some());
/// ```
#[derive(Debug, Clone)]
pub struct StoreError {
    message: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl StoreError {
    /// An error with `message` and no cause.
    pub fn new(message: impl Into<String>) -> StoreError {
        StoreError { message: message.into(), source: None }
    }

    /// An error with `message`, caused by `source`.
    pub fn caused_by(message: impl Into<String>, source: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        StoreError { message: message.into(), source: Some(Arc::new(source)) }
    }

    /// What went wrong, without the cause.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.source {
            Some(source) => write!(f, "{}: {source}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|source| source as &(dyn std::error::Error + 'static))
    }
}

impl PartialEq for StoreError {
    fn eq(&self, other: &StoreError) -> bool {
        self.to_string() == other.to_string()
    }
}

impl Eq for StoreError {}

/// Values and lists with an expiry, and a message bus, shared by the
/// instances of a server. Keys are plain strings chosen by codeagent (such as
/// `session:<id>`); an implementation may prefix them.
pub trait Store: Send + Sync + 'static {
    /// The value at `key`, its expiry pushed back to `ttl` from now; `None`
    /// when there is none or it expired.
    fn get(&self, key: &str, ttl: Duration) -> StoreFuture<'_, Option<String>>;

    /// Sets `key` to `value`, expiring `ttl` from now.
    fn set(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, ()>;

    /// Sets `key` to `value` unless it has a value already; returns the value
    /// `key` has afterwards (this one, or the one another instance set first).
    fn set_if_absent(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, String>;

    /// Removes `key` (a value or a list); whether it was there.
    fn delete(&self, key: &str) -> StoreFuture<'_, bool>;

    /// Appends `item` to the list at `key`, whose expiry becomes `ttl` from now.
    fn push(&self, key: &str, item: String, ttl: Duration) -> StoreFuture<'_, ()>;

    /// The items of the list at `key` from position `from` (0 is the first)
    /// on; empty when there are none.
    fn items(&self, key: &str, from: usize) -> StoreFuture<'_, Vec<String>>;

    /// Sends `message` to every subscriber of every instance, this one
    /// included. Delivery is at most once: a subscriber that is away (or an
    /// instance whose connection to the bus is down) misses it.
    fn publish(&self, message: String) -> StoreFuture<'_, ()>;

    /// The messages published from now on, by any instance.
    fn subscribe(&self) -> broadcast::Receiver<String>;
}

/// The key of the shared `requestState` secret.
#[cfg(feature = "http")]
const STATE_KEY: &str = "state-key";

/// How long the shared `requestState` secret is kept; every start of an
/// instance pushes it back.
#[cfg(feature = "http")]
const STATE_KEY_TTL: Duration = Duration::from_secs(365 * 24 * 3600);

/// The `requestState` keys every instance using `store` shares: the secret
/// in the store, made by whichever instance came first.
#[cfg(feature = "http")]
pub(crate) async fn shared_state_keys(store: &dyn Store) -> std::io::Result<StateKeys> {
    let failed = |error: StoreError| {
        std::io::Error::other(format!(
            "the shared store failed while reading the requestState key (set {STATE_KEY_VAR} to do without it): {error}"
        ))
    };
    let secret = match store.get(STATE_KEY, STATE_KEY_TTL).await.map_err(failed)? {
        Some(secret) => secret,
        None => {
            let secret = crate::random::hex::<32>().map_err(|error| {
                std::io::Error::other(format!("no requestState key can be made for the shared store: {error}"))
            })?;
            store.set_if_absent(STATE_KEY, secret, STATE_KEY_TTL).await.map_err(failed)?
        }
    };
    StateKeys::new([secret.trim()]).map_err(|error| {
        std::io::Error::other(format!("the requestState key in the shared store is not usable: {error}"))
    })
}

/// The next message `bus` carries; `None` once it is closed. Messages missed
/// because the receiver fell behind are logged as `missed` (what they were).
pub(crate) async fn next_message(bus: &mut broadcast::Receiver<String>, missed: &str) -> Option<String> {
    loop {
        match bus.recv().await {
            Ok(text) => return Some(text),
            Err(broadcast::error::RecvError::Lagged(count)) => tracing::warn!("missed {count} {missed}"),
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

/// How many bus messages a subscriber may fall behind before it misses some.
pub(crate) const BUS_CAPACITY: usize = 4096;

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::{MemoryStore, shared_state_keys};
    use crate::server::StateKeys;

    #[tokio::test]
    async fn instances_sharing_a_store_share_one_state_key_of_their_own() {
        let store = MemoryStore::new();
        let (first, second) = (shared_state_keys(&store).await.unwrap(), shared_state_keys(&store).await.unwrap());
        assert_eq!(format!("{first:?}"), format!("{second:?}"), "the second instance reads the key the first made");
        let other = shared_state_keys(&MemoryStore::new()).await.unwrap();
        assert_ne!(format!("{first:?}"), format!("{other:?}"), "another store, another key");
        assert_ne!(format!("{first:?}"), format!("{:?}", StateKeys::process_key()), "not this process's own key");
    }
}
