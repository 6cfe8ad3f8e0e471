//! What a legacy session keeps in a shared [`Store`], and the messages
//! instances send each other over its bus: how any instance serves a session
//! another one opened.

use std::sync::{Arc, Weak};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::broadcast;

use crate::mcp::ProtocolVersion;
use crate::random::{self, RandomError};
use crate::server::engine::{Change, Engine};
use crate::server::peer::{Answer, Peer};
use crate::server::store::{Store, StoreError, next_message};
use crate::toolbox::LogLevel;

/// What any instance needs to serve a legacy session: what its handshake
/// and `logging/setLevel` decided, and what the client subscribed to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct SessionRecord {
    version: Option<ProtocolVersion>,
    initialized: bool,
    log_level: Option<LogLevel>,
    apps: bool,
    capabilities: Value,
    subscriptions: Vec<String>,
    /// Who opened the session (see [`HttpSession::owner`](super::session::HttpSession::owner)).
    #[serde(default)]
    pub(crate) owner: Option<String>,
}

impl SessionRecord {
    /// The record of `peer`, opened by `owner`, as it stands.
    pub(crate) fn of(peer: &Peer, owner: Option<String>) -> SessionRecord {
        let negotiated = peer.negotiated();
        SessionRecord {
            owner,
            version: negotiated.version,
            initialized: negotiated.initialized,
            log_level: negotiated.log_level,
            apps: negotiated.apps,
            capabilities: peer.capabilities(),
            subscriptions: peer.subscriptions(),
        }
    }

    /// Makes `peer` what the record says.
    pub(crate) fn apply(&self, peer: &Peer) {
        peer.update(|negotiated| {
            negotiated.version = self.version;
            negotiated.initialized = self.initialized;
            negotiated.log_level = self.log_level;
            negotiated.apps = self.apps;
        });
        peer.set_capabilities(self.capabilities.clone());
        peer.set_subscriptions(self.subscriptions.iter().cloned());
    }
}

/// A message from one instance to the others.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Bus {
    /// The client answered question `id` of `session` on the sender.
    Answer { session: String, id: Value, result: Option<Value>, error: Option<Value> },
    /// The client cancelled request `id` of `session` on the sender.
    Cancel { session: String, id: Value },
    /// `session` ended (DELETE) on the sender.
    Ended { session: String },
    /// The sender's tools, resources or prompts changed ([`Change::to_wire`]).
    Changed { from: String, change: String },
}

/// This instance's copies of the sessions, as the bus reaches them.
pub(crate) trait LocalSessions: Send + Sync + 'static {
    /// The peer of this instance's copy of session `id`, if it has one.
    fn local_peer(&self, id: &str) -> Option<Arc<Peer>>;

    /// Drops this instance's copy of session `id` (it ended elsewhere).
    fn drop_local(&self, id: &str);
}

/// An endpoint's handle on the shared store.
#[derive(Clone)]
pub(crate) struct Shared {
    pub(crate) store: Arc<dyn Store>,
    /// This endpoint's id on the bus.
    instance: String,
    /// The changes other instances announced, for this endpoint's streams.
    pub(crate) remote_changes: broadcast::Sender<String>,
}

fn session_key(id: &str) -> String {
    format!("session:{id}")
}

impl Shared {
    /// Fails when the system gives no randomness for this instance's id,
    /// which the bus uses to tell instances apart.
    pub(crate) fn new(store: Arc<dyn Store>) -> Result<Shared, RandomError> {
        let instance = random::hex::<8>()?;
        Ok(Shared { store, instance, remote_changes: broadcast::channel(256).0 })
    }

    /// The record of session `id`, its expiry pushed back to `ttl`.
    pub(crate) async fn load(&self, id: &str, ttl: Duration) -> Result<Option<SessionRecord>, StoreError> {
        let Some(text) = self.store.get(&session_key(id), ttl).await? else { return Ok(None) };
        serde_json::from_str(&text).map(Some).map_err(|error| {
            StoreError::caused_by(format!("the record of session {id} in the store is not valid"), error)
        })
    }

    /// Writes the record of session `id`, expiring `ttl` from now.
    pub(crate) async fn save(&self, id: &str, record: &SessionRecord, ttl: Duration) -> Result<(), StoreError> {
        let text = serde_json::to_string(record)
            .map_err(|error| StoreError::caused_by("a session record cannot be written as JSON", error))?;
        self.store.set(&session_key(id), text, ttl).await
    }

    /// Removes session `id` and tells the other instances it ended.
    pub(crate) async fn end(&self, id: &str) -> Result<bool, StoreError> {
        let existed = self.store.delete(&session_key(id)).await?;
        self.send(&Bus::Ended { session: id.to_owned() }).await?;
        Ok(existed)
    }

    /// Hands the client's answer to question `id` to the instance that asked.
    pub(crate) async fn forward_answer(&self, session: &str, id: Value, answer: Answer) -> Result<(), StoreError> {
        let (result, error) = match answer {
            Ok(result) => (Some(result), None),
            Err(error) => (None, Some(error)),
        };
        self.send(&Bus::Answer { session: session.to_owned(), id, result, error }).await
    }

    /// Hands the client's cancellation of request `id` to the instance running it.
    pub(crate) async fn forward_cancel(&self, session: &str, id: Value) -> Result<(), StoreError> {
        self.send(&Bus::Cancel { session: session.to_owned(), id }).await
    }

    async fn send(&self, message: &Bus) -> Result<(), StoreError> {
        let text = serde_json::to_string(message)
            .map_err(|error| StoreError::caused_by("a bus message cannot be written as JSON", error))?;
        self.store.publish(text).await
    }

    /// Starts the endpoint's two bus tasks: one delivers what other instances
    /// send to this one's sessions and streams, one tells them of this one's
    /// changes. Both end with the endpoint (`sessions` gone).
    pub(crate) fn start(&self, engine: &Arc<Engine>, sessions: Weak<dyn LocalSessions>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::error!("a shared store needs a Tokio runtime: instances will not hear from each other");
            return;
        };
        let mut bus = self.store.subscribe();
        let shared = self.clone();
        let listening = sessions.clone();
        runtime.spawn(async move {
            while let Some(text) = next_message(&mut bus, "messages from other instances: this one is too busy").await {
                let Some(sessions) = listening.upgrade() else { return };
                shared.deliver(&*sessions, &text);
            }
        });
        let mut changes = engine.list_changes();
        let shared = self.clone();
        runtime.spawn(async move {
            while let Some(change) = changes.next().await {
                if sessions.strong_count() == 0 {
                    return;
                }
                let message = Bus::Changed { from: shared.instance.clone(), change: change.to_wire() };
                if let Err(error) = shared.send(&message).await {
                    tracing::warn!("could not tell other instances that {} changed: {error}", change.to_wire());
                }
            }
        });
    }

    /// Acts on one message from the bus.
    fn deliver(&self, sessions: &dyn LocalSessions, text: &str) {
        let message = match serde_json::from_str::<Bus>(text) {
            Ok(message) => message,
            Err(error) => {
                tracing::debug!("ignoring a bus message that is not codeagent's: {error}");
                return;
            }
        };
        match message {
            Bus::Answer { session, id, result, error } => {
                if let Some(peer) = sessions.local_peer(&session) {
                    let answer = match (result, error) {
                        (_, Some(error)) => Err(error),
                        (result, None) => Ok(result.unwrap_or(Value::Null)),
                    };
                    peer.answer(&id, answer);
                }
            }
            Bus::Cancel { session, id } => {
                if let Some(peer) = sessions.local_peer(&session) {
                    peer.cancel(&id);
                }
            }
            Bus::Ended { session } => sessions.drop_local(&session),
            Bus::Changed { from, change } if from != self.instance && Change::from_wire(&change).is_some() => {
                let _ = self.remote_changes.send(change);
            }
            Bus::Changed { .. } => {}
        }
    }
}
