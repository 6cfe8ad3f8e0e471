//! One client as the engine knows it: a stdio connection, a legacy HTTP
//! session, or a single stateless 2026-07-28 request. It holds what the legacy
//! handshake negotiated and the requests in flight, so each request is
//! answered exactly once and a cancelled one not at all.

use std::collections::hash_map::Entry;
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde_json::Value;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::jsonrpc::{INVALID_REQUEST, RpcError};
use crate::mcp::ProtocolVersion;
use crate::toolbox::LogLevel;

/// What the legacy handshake and `logging/setLevel` decided.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Negotiated {
    pub(crate) version: Option<ProtocolVersion>,
    pub(crate) initialized: bool,
    pub(crate) log_level: Option<LogLevel>,
    /// Whether the client declared the MCP Apps extension at `initialize`.
    pub(crate) apps: bool,
}

/// A client: its negotiated state and its requests in flight.
#[derive(Debug, Default)]
pub(crate) struct Peer {
    negotiated: Mutex<Negotiated>,
    inflight: Mutex<HashMap<Key, Arc<Slot>>>,
    /// Fires when the client is gone (its session ended): every request stops.
    closed: CancellationToken,
    /// Fires when the client will send nothing more: streams that have no
    /// response end, while calls run on to be answered.
    streams_ended: CancellationToken,
    /// The resource URIs a legacy client subscribed to.
    subscriptions: Mutex<BTreeSet<String>>,
    /// The capabilities the client declared at `initialize`.
    capabilities: Mutex<Value>,
    /// The `clientInfo` and capabilities the client sent at `initialize`,
    /// shared with every request's middleware without a copy.
    declared: Mutex<Declared>,
    /// The questions asked of the client and not answered yet, by id.
    questions: Mutex<HashMap<Key, oneshot::Sender<Answer>>>,
    /// The number of the next question.
    next_question: AtomicU64,
}

/// What a legacy client declared at `initialize`: its `clientInfo` and
/// capabilities (`None` before, or when it sent no object).
#[derive(Debug, Default, Clone)]
pub(crate) struct Declared {
    pub(crate) info: Option<Arc<Value>>,
    pub(crate) capabilities: Option<Arc<Value>>,
}

/// A client's answer to a question: its result, or its error object.
pub(crate) type Answer = Result<Value, Value>;

/// One request in flight.
#[derive(Debug, Default)]
pub(crate) struct Slot {
    /// Fires when the request is stopped, for whatever reason.
    pub(crate) stop: CancellationToken,
    /// Fires when the client withdrew the request (cancelled it, or went
    /// away): no response is owed. It stops the request too (`stop` is its
    /// child), while stopping the request from inside (a middleware's
    /// timeout) leaves it alone.
    pub(crate) withdrawn: CancellationToken,
    /// Set once the request is answered (or given up): no notification about it
    /// may follow.
    pub(crate) done: AtomicBool,
}

impl Slot {
    pub(crate) fn is_done(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    pub(crate) fn finish(&self) {
        self.done.store(true, Ordering::SeqCst);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The key of a request id in the in-flight table: equal when the ids' JSON
/// texts are, so `1` and `"1"` stay distinct. An integer needs no allocation.
#[derive(Debug, PartialEq, Eq, Hash)]
enum Key {
    /// A non-negative integer.
    Unsigned(u64),
    /// A negative integer.
    Negative(i64),
    /// A string, unquoted.
    Text(String),
    /// Anything else, as JSON text.
    Other(String),
}

fn key(id: &Value) -> Key {
    match id {
        Value::String(text) => Key::Text(text.clone()),
        Value::Number(number) => match (number.as_u64(), number.as_i64()) {
            (Some(unsigned), _) => Key::Unsigned(unsigned),
            (None, Some(negative)) => Key::Negative(negative),
            (None, None) => Key::Other(id.to_string()),
        },
        other => Key::Other(other.to_string()),
    }
}

impl Peer {
    /// A client with nothing negotiated yet.
    pub(crate) fn new() -> Arc<Peer> {
        Arc::new(Peer::default())
    }

    pub(crate) fn negotiated(&self) -> Negotiated {
        *lock(&self.negotiated)
    }

    pub(crate) fn update(&self, change: impl FnOnce(&mut Negotiated)) {
        change(&mut lock(&self.negotiated));
    }

    /// Registers request `id` as in flight; refused while a request with the
    /// same id is.
    pub(crate) fn register(&self, id: &Value) -> Result<Arc<Slot>, RpcError> {
        let mut inflight = lock(&self.inflight);
        match inflight.entry(key(id)) {
            Entry::Occupied(_) => Err(RpcError::new(
                INVALID_REQUEST,
                format!("Invalid request: a request with id {id} is already in progress"),
            )),
            Entry::Vacant(entry) => {
                let withdrawn = self.closed.child_token();
                let slot = Arc::new(Slot { stop: withdrawn.child_token(), withdrawn, done: AtomicBool::new(false) });
                entry.insert(Arc::clone(&slot));
                Ok(slot)
            }
        }
    }

    /// Takes request `id` out of the table; true when it was there, that is,
    /// when its response is still owed.
    pub(crate) fn complete(&self, id: &Value) -> bool {
        lock(&self.inflight).remove(&key(id)).is_some()
    }

    /// Takes request `id` out of the table if `slot` is still what it holds
    /// for it (not a later request that reused the id).
    pub(crate) fn complete_slot(&self, id: &Value, slot: &Arc<Slot>) {
        let mut inflight = lock(&self.inflight);
        if let Entry::Occupied(entry) = inflight.entry(key(id))
            && Arc::ptr_eq(entry.get(), slot)
        {
            entry.remove();
        }
    }

    /// Stops request `id` at the client's wish: no response will be sent.
    /// Unknown or finished ids are ignored.
    pub(crate) fn cancel(&self, id: &Value) {
        if let Some(slot) = lock(&self.inflight).remove(&key(id)) {
            slot.finish();
            slot.withdrawn.cancel();
        }
    }

    /// Ends the client: every request in flight stops unanswered, and every
    /// question waits no more.
    pub(crate) fn close(&self) {
        for (_, slot) in lock(&self.inflight).drain() {
            slot.finish();
        }
        lock(&self.questions).clear();
        self.closed.cancel();
    }

    /// Records the capabilities the client declared at `initialize`.
    pub(crate) fn set_capabilities(&self, capabilities: Value) {
        *lock(&self.capabilities) = capabilities;
    }

    /// The capabilities the client declared at `initialize`.
    pub(crate) fn capabilities(&self) -> Value {
        lock(&self.capabilities).clone()
    }

    /// Records what the client declared at `initialize`.
    pub(crate) fn set_declared(&self, declared: Declared) {
        *lock(&self.declared) = declared;
    }

    /// What the client declared at `initialize`.
    pub(crate) fn declared(&self) -> Declared {
        lock(&self.declared).clone()
    }

    /// Opens a question: its id (unique for this client, unlike any id a
    /// client would pick, and unguessable, so that nobody else can answer
    /// it: `codeagent-N-` and 128 random bits) and where its answer will
    /// arrive. Without randomness no question is asked.
    pub(crate) fn ask(&self) -> Result<(Value, oneshot::Receiver<Answer>), crate::RandomError> {
        let secret = crate::random::hex::<16>()?;
        let number = self.next_question.fetch_add(1, Ordering::Relaxed) + 1;
        let id = Value::from(format!("codeagent-{number}-{secret}"));
        let (sender, receiver) = oneshot::channel();
        lock(&self.questions).insert(key(&id), sender);
        Ok((id, receiver))
    }

    /// Delivers the client's answer to question `id`; false when no such
    /// question is open (answered already, given up, or never asked).
    pub(crate) fn answer(&self, id: &Value, answer: Answer) -> bool {
        match lock(&self.questions).remove(&key(id)) {
            Some(sender) => sender.send(answer).is_ok(),
            None => false,
        }
    }

    /// Whether question `id` waits for its answer here.
    #[cfg(feature = "http")]
    pub(crate) fn asks(&self, id: &Value) -> bool {
        lock(&self.questions).contains_key(&key(id))
    }

    /// Whether request `id` is in flight here.
    #[cfg(feature = "http")]
    pub(crate) fn runs(&self, id: &Value) -> bool {
        lock(&self.inflight).contains_key(&key(id))
    }

    /// Gives up question `id`: a later answer is ignored.
    pub(crate) fn forget(&self, id: &Value) {
        lock(&self.questions).remove(&key(id));
    }

    /// Subscribes the client to updates of resource `uri` (`resources/subscribe`).
    pub(crate) fn subscribe(&self, uri: &str) {
        lock(&self.subscriptions).insert(uri.to_owned());
    }

    /// Ends the client's subscription to `uri`.
    pub(crate) fn unsubscribe(&self, uri: &str) {
        lock(&self.subscriptions).remove(uri);
    }

    /// The resource URIs the client subscribed to, in order.
    #[cfg(feature = "http")]
    pub(crate) fn subscriptions(&self) -> Vec<String> {
        lock(&self.subscriptions).iter().cloned().collect()
    }

    /// Replaces the client's subscriptions with `uris`.
    #[cfg(feature = "http")]
    pub(crate) fn set_subscriptions(&self, uris: impl IntoIterator<Item = String>) {
        *lock(&self.subscriptions) = uris.into_iter().collect();
    }

    /// Whether the client subscribed to `uri`.
    pub(crate) fn is_subscribed(&self, uri: &str) -> bool {
        lock(&self.subscriptions).contains(uri)
    }

    /// Ends every stream that has no response (`subscriptions/listen`).
    pub(crate) fn end_streams(&self) {
        self.streams_ended.cancel();
    }

    /// Fires when [`end_streams`](Peer::end_streams) is called.
    pub(crate) fn streams_ended(&self) -> &CancellationToken {
        &self.streams_ended
    }

    /// Fires when [`close`](Peer::close) is called.
    pub(crate) fn closed(&self) -> &CancellationToken {
        &self.closed
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Peer;

    #[test]
    fn ids_are_unique_while_in_flight_and_typed() {
        let peer = Peer::new();
        let slot = peer.register(&json!(1)).unwrap();
        assert_eq!(peer.register(&json!(1)).unwrap_err().code, -32600);
        assert!(peer.register(&json!("1")).is_ok(), "1 and \"1\" are different ids");
        peer.cancel(&json!(1));
        assert!(slot.stop.is_cancelled() && slot.is_done());
        assert!(!peer.complete(&json!(1)), "a cancelled request is owed no response");
        assert!(peer.complete(&json!("1")));
        assert!(peer.register(&json!(1)).is_ok(), "a finished id can be used again");
    }

    #[test]
    fn question_ids_cannot_be_guessed() {
        let peer = Peer::new();
        let (first, _answer) = peer.ask().unwrap();
        let (second, _answer) = peer.ask().unwrap();
        let first = first.as_str().unwrap().to_owned();
        assert!(first.starts_with("codeagent-1-") && first.len() == "codeagent-1-".len() + 32, "{first}");
        assert!(!peer.answer(&json!("codeagent-1"), Ok(json!({}))), "the counter alone answers nothing");
        assert!(!peer.answer(&json!("codeagent-2"), Ok(json!({}))), "nor does the next number");
        assert!(peer.answer(&second, Ok(json!({}))), "the whole id does");
        assert_ne!(first[12..], second.as_str().unwrap()[12..], "each question draws its own secret");
    }

    #[test]
    fn closing_stops_every_request() {
        let peer = Peer::new();
        let slot = peer.register(&json!(7)).unwrap();
        peer.close();
        assert!(slot.stop.is_cancelled());
        assert!(!peer.complete(&json!(7)));
    }
}
