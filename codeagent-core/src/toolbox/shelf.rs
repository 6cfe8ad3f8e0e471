//! The one copy-on-write registry of a toolbox: a shared, ordered list of
//! items with unique keys (tools by name, resources by URI or template,
//! prompts by name). Every change replaces the whole list, so readers never
//! wait for writers and a reader's snapshot never changes under it; each
//! change is signalled to the servers watching it.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use serde_json::Value;
use tokio::sync::watch;

/// Items of type `T`, each known by the key `key` gives it.
pub(crate) struct Shelf<T: ?Sized> {
    current: RwLock<Arc<Snapshot<T>>>,
    changes: watch::Sender<u64>,
    key: fn(&T) -> &str,
    slots: usize,
}

/// One version of a shelf's items, with an index by key and `slots` lazily
/// computed wire forms (one per protocol version and schema form, say),
/// which live exactly as long as this version.
pub(crate) struct Snapshot<T: ?Sized> {
    items: Vec<Arc<T>>,
    index: HashMap<String, usize>,
    wire: Vec<OnceLock<Vec<Value>>>,
}

impl<T: ?Sized> Snapshot<T> {
    fn new(items: Vec<Arc<T>>, key: fn(&T) -> &str, slots: usize) -> Self {
        let index = items.iter().enumerate().map(|(position, item)| (key(item).to_owned(), position)).collect();
        Snapshot { items, index, wire: (0..slots).map(|_| OnceLock::new()).collect() }
    }

    /// The items, in the order they were added.
    pub(crate) fn items(&self) -> &[Arc<T>] {
        &self.items
    }

    /// The item with `key`, when there is one.
    pub(crate) fn find(&self, key: &str) -> Option<&Arc<T>> {
        self.index.get(key).map(|&position| &self.items[position])
    }

    /// Wire form number `slot` of every item, made by `make` on first use.
    ///
    /// # Panics
    ///
    /// When `slot` is not below the shelf's slot count (a bug in the caller).
    pub(crate) fn wire(&self, slot: usize, make: impl FnOnce(&[Arc<T>]) -> Vec<Value>) -> &[Value] {
        self.wire[slot].get_or_init(|| make(&self.items))
    }
}

impl<T: ?Sized> Shelf<T> {
    /// An empty shelf keyed by `key`, each snapshot with `slots` wire forms.
    pub(crate) fn new(key: fn(&T) -> &str, slots: usize) -> Self {
        Shelf {
            current: RwLock::new(Arc::new(Snapshot::new(Vec::new(), key, slots))),
            changes: watch::channel(0).0,
            key,
            slots,
        }
    }

    /// The items as they are now.
    pub(crate) fn snapshot(&self) -> Arc<Snapshot<T>> {
        Arc::clone(&self.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Adds `item`; `Err` with the key when an item with that key is there.
    pub(crate) fn add(&self, item: Arc<T>) -> Result<(), String> {
        self.change(|items| {
            let key = (self.key)(&item);
            if items.iter().any(|known| (self.key)(known) == key) {
                return Err(key.to_owned());
            }
            items.push(item);
            Ok::<(), String>(())
        })
    }

    /// Removes the item with `key`; whether there was one.
    pub(crate) fn remove(&self, key: &str) -> bool {
        self.change(|items| {
            let position = items.iter().position(|known| (self.key)(known) == key).ok_or(())?;
            items.remove(position);
            Ok::<(), ()>(())
        })
        .is_ok()
    }

    /// A receiver that changes whenever items are added or removed.
    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// Applies `change` to a copy of the items and publishes the copy, unless
    /// `change` refuses.
    fn change<E>(&self, change: impl FnOnce(&mut Vec<Arc<T>>) -> Result<(), E>) -> Result<(), E> {
        let mut guard = self.current.write().unwrap_or_else(PoisonError::into_inner);
        let mut items = guard.items.clone();
        change(&mut items)?;
        *guard = Arc::new(Snapshot::new(items, self.key, self.slots));
        drop(guard);
        self.changes.send_modify(|generation| *generation += 1);
        Ok(())
    }
}
