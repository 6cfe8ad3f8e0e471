//! A [`Store`] on Redis (or Valkey): values with `SET PX`/`GETEX PX`, lists
//! with `RPUSH` and `PEXPIRE` in one transaction, the bus on one pub/sub
//! channel. The connection is re-established on its own after Redis goes
//! away; meanwhile every call fails fast with the reason.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, Cmd, FromRedisValue, Pipeline};
use tokio::sync::broadcast;

use super::{BUS_CAPACITY, Store, StoreError, StoreFuture};

/// How long one command may take before it fails.
const RESPONSE_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a (re)connection may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);

/// The longest wait between two attempts to subscribe to the bus again.
const RESUBSCRIBE_DELAY: Duration = Duration::from_secs(1);

/// A store in Redis, its keys under a prefix (`codeagent:` unless set).
/// Clones share the connection.
///
/// ```no_run
/// # async fn example() -> Result<(), codeagent_core::server::store::StoreError> {
/// use std::sync::Arc;
/// use codeagent_core::server::http::HttpOptions;
/// use codeagent_core::server::store::RedisStore;
///
/// let store = RedisStore::connect("redis://127.0.0.1:6379").await?;
/// let options = HttpOptions::new().with_store(Arc::new(store));
/// # let _ = options;
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct RedisStore {
    client: Client,
    connection: ConnectionManager,
    prefix: String,
    bus: Arc<Bus>,
}

/// The bus: one subscription to Redis for every subscriber of this store,
/// started by the first one.
struct Bus {
    sender: broadcast::Sender<String>,
    started: OnceLock<()>,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore").field("server", &self.client.get_connection_info().addr()).finish_non_exhaustive()
    }
}

fn failed(what: &str, error: redis::RedisError) -> StoreError {
    StoreError::caused_by(format!("Redis {what} failed"), error)
}

impl RedisStore {
    /// Connects to the Redis at `url` (`redis://HOST:PORT[/DB]`, with
    /// `user:password@` when needed, or `rediss://` for TLS when redis-rs is
    /// built with it) and checks it answers.
    pub async fn connect(url: &str) -> Result<RedisStore, StoreError> {
        let client =
            Client::open(url).map_err(|error| StoreError::caused_by(format!("not a Redis URL `{url}`"), error))?;
        let config = ConnectionManagerConfig::new()
            .set_response_timeout(Some(RESPONSE_TIMEOUT))
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_number_of_retries(1);
        let connection = ConnectionManager::new_lazy_with_config(client.clone(), config)
            .map_err(|error| failed("connection setup", error))?;
        let store = RedisStore {
            client,
            connection,
            prefix: "codeagent:".to_owned(),
            bus: Arc::new(Bus { sender: broadcast::channel(BUS_CAPACITY).0, started: OnceLock::new() }),
        };
        let pong: String = store.query("PING", redis::cmd("PING")).await?;
        if pong != "PONG" {
            return Err(StoreError::new(format!("Redis at {url} answered PING with `{pong}`")));
        }
        Ok(store)
    }

    /// Puts every key under `prefix` instead of `codeagent:` (for several
    /// servers sharing one Redis).
    #[must_use]
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }

    fn channel(&self) -> String {
        self.key("bus")
    }

    async fn query<T: FromRedisValue>(&self, what: &str, command: Cmd) -> Result<T, StoreError> {
        let mut connection = self.connection.clone();
        command.query_async(&mut connection).await.map_err(|error| failed(what, error))
    }

    async fn transaction<T: FromRedisValue>(&self, what: &str, pipeline: Pipeline) -> Result<T, StoreError> {
        let mut connection = self.connection.clone();
        pipeline.query_async(&mut connection).await.map_err(|error| failed(what, error))
    }

    /// Starts, once, the task that subscribes to the bus channel and hands
    /// every message to this store's subscribers; it subscribes again after
    /// the connection drops, and ends when no subscriber is left.
    fn start_bus(&self) {
        if self.bus.started.set(()).is_err() {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::error!("the Redis bus needs a Tokio runtime: no message from other instances will arrive");
            return;
        };
        let (client, channel, bus) = (self.client.clone(), self.channel(), Arc::downgrade(&self.bus));
        runtime.spawn(async move {
            let mut delay = Duration::from_millis(50);
            loop {
                let Some(sender) = bus.upgrade().map(|bus| bus.sender.clone()) else { return };
                match client.get_async_pubsub().await {
                    Ok(mut pubsub) => match pubsub.subscribe(&channel).await {
                        Ok(()) => {
                            delay = Duration::from_millis(50);
                            let mut messages = pubsub.into_on_message();
                            while let Some(message) = messages.next().await {
                                if let Ok(text) = message.get_payload::<String>() {
                                    let _ = sender.send(text);
                                }
                            }
                            tracing::warn!("the Redis bus connection closed; subscribing again");
                        }
                        Err(error) => tracing::warn!("cannot subscribe to the Redis bus: {error}"),
                    },
                    Err(error) => tracing::warn!("cannot reach Redis for the bus: {error}"),
                }
                drop(sender);
                tokio::time::sleep(delay).await;
                delay = (delay * 2).min(RESUBSCRIBE_DELAY);
            }
        });
    }
}

fn millis(ttl: Duration) -> u64 {
    u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX).max(1)
}

impl Store for RedisStore {
    fn get(&self, key: &str, ttl: Duration) -> StoreFuture<'_, Option<String>> {
        let mut command = redis::cmd("GETEX");
        command.arg(self.key(key)).arg("PX").arg(millis(ttl));
        Box::pin(self.query("GETEX", command))
    }

    fn set(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, ()> {
        let mut command = redis::cmd("SET");
        command.arg(self.key(key)).arg(value).arg("PX").arg(millis(ttl));
        Box::pin(self.query("SET", command))
    }

    fn set_if_absent(&self, key: &str, value: String, ttl: Duration) -> StoreFuture<'_, String> {
        let key = self.key(key);
        Box::pin(async move {
            let mut pipeline = redis::pipe();
            pipeline.atomic();
            pipeline.cmd("SET").arg(&key).arg(&value).arg("NX").arg("PX").arg(millis(ttl)).ignore();
            pipeline.cmd("GET").arg(&key);
            let (value,): (Option<String>,) = self.transaction("SET NX", pipeline).await?;
            value.ok_or_else(|| StoreError::new(format!("Redis lost `{key}` as soon as it was set")))
        })
    }

    fn delete(&self, key: &str) -> StoreFuture<'_, bool> {
        let mut command = redis::cmd("DEL");
        command.arg(self.key(key));
        Box::pin(async move { Ok(self.query::<u64>("DEL", command).await? > 0) })
    }

    fn push(&self, key: &str, item: String, ttl: Duration) -> StoreFuture<'_, ()> {
        let key = self.key(key);
        let mut pipeline = redis::pipe();
        pipeline.atomic();
        pipeline.cmd("RPUSH").arg(&key).arg(item).ignore();
        pipeline.cmd("PEXPIRE").arg(&key).arg(millis(ttl)).ignore();
        Box::pin(self.transaction("RPUSH", pipeline))
    }

    fn items(&self, key: &str, from: usize) -> StoreFuture<'_, Vec<String>> {
        let mut command = redis::cmd("LRANGE");
        command.arg(self.key(key)).arg(from).arg(-1);
        Box::pin(self.query("LRANGE", command))
    }

    fn publish(&self, message: String) -> StoreFuture<'_, ()> {
        let mut command = redis::cmd("PUBLISH");
        command.arg(self.channel()).arg(message);
        Box::pin(async move { self.query::<u64>("PUBLISH", command).await.map(|_| ()) })
    }

    fn subscribe(&self) -> broadcast::Receiver<String> {
        let receiver = self.bus.sender.subscribe();
        self.start_bus();
        receiver
    }
}
