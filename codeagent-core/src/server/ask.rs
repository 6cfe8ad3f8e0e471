//! A tool's questions in the legacy era: real requests to the client
//! (`elicitation/create`, `sampling/createMessage`, `roots/list`) sent on the
//! tool call's own way to the client (the stdio connection, or the SSE stream
//! of the POST that carried the call), each with an id of its own, a timeout,
//! and a `notifications/cancelled` when the call stops first.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::outlet::Outlet;
use super::peer::{Peer, Slot};
use crate::mcp::ProtocolVersion;
use crate::toolbox::{Ask, AskError, AskFuture, Asker};

/// How long a question waits for the client unless the server says otherwise.
pub(crate) const DEFAULT_ASK_TIMEOUT: Duration = Duration::from_secs(300);

/// The questions of one legacy request.
pub(crate) struct LegacyAsker {
    pub(crate) peer: Arc<Peer>,
    pub(crate) outlet: Arc<dyn Outlet>,
    pub(crate) slot: Arc<Slot>,
    pub(crate) version: ProtocolVersion,
    pub(crate) timeout: Duration,
    /// What [`Context::checkpoint`](crate::toolbox::Context::checkpoint) kept: a
    /// legacy call runs once, so this only serves the same run.
    pub(crate) kept: Mutex<Map<String, Value>>,
}

impl Asker for LegacyAsker {
    fn ask(&self, ask: Ask) -> AskFuture {
        let method = ask.method.name();
        if !ask.method.allowed(self.version, &self.peer.capabilities()) {
            let capability = ask.method.capability();
            return Box::pin(std::future::ready(Err(AskError::Unsupported { method, capability })));
        }
        if !self.outlet.carries_requests() {
            return Box::pin(std::future::ready(Err(AskError::Unreachable(method))));
        }
        let (id, answer) = match self.peer.ask() {
            Ok(question) => question,
            Err(error) => return Box::pin(std::future::ready(Err(AskError::NoRandomness(error)))),
        };
        let params = ask.method.params_for(ask.params, self.version);
        let request = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
        if !self.outlet.push(&request) {
            self.peer.forget(&id);
            return Box::pin(std::future::ready(Err(AskError::Unreachable(method))));
        }
        let (peer, outlet, slot, timeout) =
            (Arc::clone(&self.peer), Arc::clone(&self.outlet), Arc::clone(&self.slot), self.timeout);
        Box::pin(async move {
            let outcome = tokio::select! {
                answer = answer => answer.map_err(|_| AskError::Cancelled),
                () = slot.stop.cancelled() => Err(AskError::Cancelled),
                () = tokio::time::sleep(timeout) => Err(AskError::TimedOut { method, timeout }),
            };
            let answer = match outcome {
                Ok(answer) => answer,
                Err(error) => {
                    peer.forget(&id);
                    let reason = error.to_string();
                    let cancel = json!({ "jsonrpc": "2.0", "method": "notifications/cancelled", "params": { "requestId": id, "reason": reason } });
                    outlet.push(&cancel);
                    return Err(error);
                }
            };
            answer.map_err(|error| AskError::Refused {
                method,
                code: error.get("code").and_then(Value::as_i64).unwrap_or_default(),
                message: error.get("message").and_then(Value::as_str).unwrap_or("no message").to_owned(),
            })
        })
    }

    fn kept(&self, key: &str) -> Option<Value> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner).get(key).cloned()
    }

    fn keep(&self, key: &str, value: Value) {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner).insert(key.to_owned(), value);
    }
}
