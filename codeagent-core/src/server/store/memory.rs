//! A [`Store`] in this process's memory, for several endpoints of one
//! process (or tests of what a shared store does) to share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::broadcast;
use tokio::time::Instant;

use super::{BUS_CAPACITY, Store, StoreFuture};

/// Values, lists and a bus in memory. Clones share the same contents.
/// Expired entries are dropped when touched and, at most once a second, on
/// any write.
///
/// ```
/// use std::sync::Arc;
/// use codeagent_core::server::http::HttpOptions;
/// use codeagent_core::server::store::MemoryStore;
///
/// let store = Arc::new(MemoryStore::new());
/// // Two endpoints (say, on two ports) that serve the same legacy sessions.
/// let first = HttpOptions::new().with_store(store.clone());
/// let second = HttpOptions::new().with_store(store);
/// # let _ = (first, second);
/// ```
#[derive(Clone)]
pub struct MemoryStore {
    entries: Arc<Mutex<Entries>>,
    bus: broadcast::Sender<String>,
}

impl std::fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryStore").field("entries", &lock(&self.entries).map.len()).finish()
    }
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::new()
    }
}

struct Entries {
    map: HashMap<String, Entry>,
    swept: Instant,
}

struct Entry {
    content: Content,
    expires: Instant,
}

enum Content {
    Value(String),
    List(Vec<String>),
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Entries {
    /// The live entry at `key` (an expired one is dropped).
    fn live(&mut self, key: &str, now: Instant) -> Option<&mut Entry> {
        if self.map.get(key).is_some_and(|entry| entry.expires <= now) {
            self.map.remove(key);
        }
        self.map.get_mut(key)
    }

    /// Drops every expired entry, at most once a second.
    fn sweep(&mut self, now: Instant) {
        if now.duration_since(self.swept) >= Duration::from_secs(1) {
            self.swept = now;
            self.map.retain(|_, entry| entry.expires > now);
        }
    }
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        let entries = Entries { map: HashMap::new(), swept: Instant::now() };
        MemoryStore { entries: Arc::new(Mutex::new(entries)), bus: broadcast::channel(BUS_CAPACITY).0 }
    }

    /// How many live entries the store holds (values and lists).
    pub fn len(&self) -> usize {
        let now = Instant::now();
        lock(&self.entries).map.values().filter(|entry| entry.expires > now).count()
    }

    /// Whether the store holds no live entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn ready<T: Send + 'static>(value: T) -> StoreFuture<'static, T> {
    Box::pin(std::future::ready(Ok(value)))
}

impl Store for MemoryStore {
    fn get(&self, key: &str, ttl: Duration) -> StoreFuture<'_, Option<String>> {
        let now = Instant::now();
        let mut entries = lock(&self.entries);
        let value = entries.live(key, now).and_then(|entry| match &entry.content {
            Content::Value(value) => {
                entry.expires = now + ttl;
                Some(value.clone())
            }
            Content::List(_) => None,
        });
        ready(value)
    }

    fn set(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, ()> {
        let now = Instant::now();
        let mut entries = lock(&self.entries);
        entries.sweep(now);
        entries.map.insert(key.to_owned(), Entry { content: Content::Value(value), expires: now + ttl });
        ready(())
    }

    fn set_if_absent(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, String> {
        let now = Instant::now();
        let mut entries = lock(&self.entries);
        if let Some(Entry { content: Content::Value(existing), .. }) = entries.live(key, now) {
            return ready(existing.clone());
        }
        entries.map.insert(key.to_owned(), Entry { content: Content::Value(value.clone()), expires: now + ttl });
        ready(value)
    }

    fn delete(&self, key: &str) -> StoreFuture<'_, bool> {
        let now = Instant::now();
        let mut entries = lock(&self.entries);
        let live = entries.live(key, now).is_some();
        entries.map.remove(key);
        ready(live)
    }

    fn push(&self, key: &str, item: String, ttl: Duration) -> StoreFuture<'_, ()> {
        let now = Instant::now();
        let mut entries = lock(&self.entries);
        entries.sweep(now);
        match entries.live(key, now) {
            Some(Entry { content: Content::List(items), expires }) => {
                items.push(item);
                *expires = now + ttl;
            }
            _ => {
                entries.map.insert(key.to_owned(), Entry { content: Content::List(vec![item]), expires: now + ttl });
            }
        }
        ready(())
    }

    fn items(&self, key: &str, from: usize) -> StoreFuture<'_, Vec<String>> {
        let now = Instant::now();
        let mut entries = lock(&self.entries);
        let items = match entries.live(key, now) {
            Some(Entry { content: Content::List(items), .. }) => items.get(from..).unwrap_or_default().to_vec(),
            _ => Vec::new(),
        };
        ready(items)
    }

    fn publish(&self, message: String) -> StoreFuture<'_, ()> {
        // No subscriber is not an error: nobody needed the message.
        let _ = self.bus.send(message);
        ready(())
    }

    fn subscribe(&self) -> broadcast::Receiver<String> {
        self.bus.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{MemoryStore, Store};

    #[tokio::test(start_paused = true)]
    async fn values_and_lists_expire_and_reads_extend_them() {
        let store = MemoryStore::new();
        store.set("a", "1".into(), Duration::from_secs(10)).await.unwrap();
        tokio::time::advance(Duration::from_secs(8)).await;
        assert_eq!(store.get("a", Duration::from_secs(10)).await.unwrap().as_deref(), Some("1"));
        tokio::time::advance(Duration::from_secs(8)).await;
        assert!(store.get("a", Duration::from_secs(10)).await.unwrap().is_some(), "the read pushed the expiry back");
        store.push("l", "x".into(), Duration::from_secs(5)).await.unwrap();
        store.push("l", "y".into(), Duration::from_secs(5)).await.unwrap();
        assert_eq!(store.items("l", 1).await.unwrap(), ["y"]);
        assert!(store.items("l", 5).await.unwrap().is_empty());
        tokio::time::advance(Duration::from_secs(11)).await;
        assert!(store.get("a", Duration::from_secs(10)).await.unwrap().is_none());
        assert!(store.items("l", 0).await.unwrap().is_empty());
        assert!(store.is_empty());
    }

    #[tokio::test]
    async fn the_first_value_set_if_absent_wins_and_the_bus_reaches_every_subscriber() {
        let store = MemoryStore::new();
        let ttl = Duration::from_secs(60);
        assert_eq!(store.set_if_absent("k", "first".into(), ttl).await.unwrap(), "first");
        assert_eq!(store.set_if_absent("k", "second".into(), ttl).await.unwrap(), "first");
        assert!(store.delete("k").await.unwrap());
        assert!(!store.delete("k").await.unwrap());
        let (mut one, mut two) = (store.subscribe(), store.clone().subscribe());
        store.publish("hello".into()).await.unwrap();
        assert_eq!(one.recv().await.unwrap(), "hello");
        assert_eq!(two.recv().await.unwrap(), "hello");
    }
}
