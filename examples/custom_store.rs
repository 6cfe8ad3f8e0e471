//! A `Store` of your own for the HTTP sessions: this one keeps each key in a
//! file of a directory, so a legacy client's session (its negotiated version,
//! capabilities, subscriptions) outlives a restart: a client goes on with its
//! `Mcp-Session-Id`. Any backend with values and lists that expire, and a
//! message bus, fits the trait (`MemoryStore` and, feature `redis`,
//! `RedisStore` are built in). This bus is one process's (a broadcast channel).
//!
//! ```sh
//! cargo run --example custom_store -- 127.0.0.1:8080 /tmp/mcp-sessions
//! ```

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use codeagent::Server;
use codeagent::prelude::*;
use codeagent::server::http::HttpOptions;
use codeagent::server::store::{Store, StoreError, StoreFuture};
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

/// Values and lists as JSON files in `dir`, one per key.
struct DirStore {
    dir: PathBuf,
    bus: broadcast::Sender<String>,
}

/// A file's contents: a value or a list, and when it expires (Unix ms).
#[derive(Default, Serialize, Deserialize)]
struct Entry {
    expires: u128,
    value: Option<String>,
    items: Vec<String>,
}

fn now() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_millis()
}
fn done<T: Send + 'static>(result: Result<T, StoreError>) -> StoreFuture<'static, T> {
    Box::pin(std::future::ready(result))
}

impl DirStore {
    /// The file of `key` (`session:…` becomes `session_…`).
    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(key.replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "_"))
    }

    /// The live entry at `key`, if any.
    fn load(&self, key: &str) -> Option<Entry> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        serde_json::from_str::<Entry>(&text).ok().filter(|entry| entry.expires > now())
    }

    /// Writes `entry` at `key`, expiring `ttl` from now (whole: a temporary file, renamed).
    fn save(&self, key: &str, mut entry: Entry, ttl: Duration) -> Result<(), StoreError> {
        entry.expires = now() + ttl.as_millis();
        let json = serde_json::to_string(&entry).map_err(|error| StoreError::caused_by("encoding", error))?;
        let (path, temporary) = (self.path(key), self.path(&format!("{key}.tmp")));
        std::fs::write(&temporary, json)
            .and_then(|()| std::fs::rename(&temporary, &path))
            .map_err(|error| StoreError::caused_by(format!("writing {}", path.display()), error))
    }
}

impl Store for DirStore {
    fn get(&self, key: &str, ttl: Duration) -> StoreFuture<'_, Option<String>> {
        let Some(entry) = self.load(key).filter(|entry| entry.value.is_some()) else { return done(Ok(None)) };
        let value = entry.value.clone();
        done(self.save(key, entry, ttl).map(|()| value))
    }

    fn set(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, ()> {
        done(self.save(key, Entry { value: Some(value), ..Entry::default() }, ttl))
    }

    fn set_if_absent(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, String> {
        if let Some(existing) = self.load(key).and_then(|entry| entry.value) {
            return done(Ok(existing));
        }
        done(self.save(key, Entry { value: Some(value.clone()), ..Entry::default() }, ttl).map(|()| value))
    }

    fn delete(&self, key: &str) -> StoreFuture<'_, bool> {
        let live = self.load(key).is_some();
        done(Ok(std::fs::remove_file(self.path(key)).is_ok() && live))
    }

    fn push(&self, key: &str, item: String, ttl: Duration) -> StoreFuture<'_, ()> {
        let mut entry = self.load(key).filter(|entry| entry.value.is_none()).unwrap_or_default();
        entry.items.push(item);
        done(self.save(key, entry, ttl))
    }

    fn items(&self, key: &str, from: usize) -> StoreFuture<'_, Vec<String>> {
        let items = self.load(key).map(|entry| entry.items).unwrap_or_default();
        done(Ok(items.get(from..).unwrap_or_default().to_vec()))
    }

    fn publish(&self, message: String) -> StoreFuture<'_, ()> {
        let _ = self.bus.send(message); // no subscriber: nobody needed it
        done(Ok(()))
    }

    fn subscribe(&self) -> broadcast::Receiver<String> {
        self.bus.subscribe()
    }
}

/// The protocol version this session negotiated (kept in the session record, so in the store).
#[tool(read_only)]
fn session_version(ctx: &Context) -> String {
    ctx.protocol_version()
        .map_or("no version".to_owned(), |version| format!("This session speaks {}.", version.as_str()))
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (Some(address), Some(dir)) = (args.next(), args.next()) else {
        return Err(std::io::Error::other("usage: custom_store ADDRESS DIRECTORY"));
    };
    std::fs::create_dir_all(&dir)?;
    let store = DirStore { dir: dir.into(), bus: broadcast::channel(1024).0 };
    let options = HttpOptions::new().with_store(Arc::new(store));
    let server = Server::new(Toolbox::new().tool(session_version)).with_name("codeagent-custom-store");
    server.serve_http(address.parse().map_err(std::io::Error::other)?, options).await
}
