//! A shared, ordered list of items with unique keys (resources by URI or
//! template, prompts by name): replaced whole on every change, so readers
//! never wait for writers, with a signal for each change.

use std::sync::{Arc, PoisonError, RwLock};

use tokio::sync::watch;

/// Items of type `T`, each known by the key `key` gives it.
pub(crate) struct Shelf<T: ?Sized> {
    items: RwLock<Arc<Vec<Arc<T>>>>,
    changes: watch::Sender<u64>,
    key: fn(&T) -> &str,
}

impl<T: ?Sized> Shelf<T> {
    pub(crate) fn new(key: fn(&T) -> &str) -> Self {
        Shelf { items: RwLock::default(), changes: watch::channel(0).0, key }
    }

    /// The items as they are now, in the order they were added.
    pub(crate) fn snapshot(&self) -> Arc<Vec<Arc<T>>> {
        Arc::clone(&self.items.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Adds `item`; `Err` with the key when an item with that key is there.
    pub(crate) fn add(&self, item: Arc<T>) -> Result<(), String> {
        let mut guard = self.items.write().unwrap_or_else(PoisonError::into_inner);
        let key = (self.key)(&item);
        if guard.iter().any(|known| (self.key)(known) == key) {
            return Err(key.to_owned());
        }
        let mut items = Vec::clone(&guard);
        items.push(item);
        *guard = Arc::new(items);
        drop(guard);
        self.changes.send_modify(|generation| *generation += 1);
        Ok(())
    }

    /// Removes the item with `key`; whether there was one.
    pub(crate) fn remove(&self, key: &str) -> bool {
        let mut guard = self.items.write().unwrap_or_else(PoisonError::into_inner);
        let Some(position) = guard.iter().position(|known| (self.key)(known) == key) else {
            return false;
        };
        let mut items = Vec::clone(&guard);
        items.remove(position);
        *guard = Arc::new(items);
        drop(guard);
        self.changes.send_modify(|generation| *generation += 1);
        true
    }

    /// A receiver that changes whenever items are added or removed.
    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }
}
