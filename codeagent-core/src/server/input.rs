//! A tool's questions in 2026-07-28 (multi round-trip requests): there are no
//! requests to the client. A round runs the tool with the answers known so
//! far; the first question without an answer ends the round, and the request
//! is answered `input_required` with that question (and any asked at the same
//! time) in `inputRequests` and a sealed `requestState`. The client retries
//! with `inputResponses`; the tool runs again from the start and its
//! questions, asked in the same order, get their answers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use serde_json::{Map, Value, json};
use tokio_util::sync::CancellationToken;

use super::state::{RoundState, StateKeys, now};
use crate::mcp::ProtocolVersion;
use crate::toolbox::{Ask, AskError, AskFuture, AskMethod, Asker};

/// The questions of one round.
pub(crate) struct ModernAsker {
    version: ProtocolVersion,
    capabilities: Value,
    /// The answers known this round, by question key.
    answers: Map<String, Value>,
    /// How many questions this round has asked.
    asked: AtomicUsize,
    /// The questions without an answer: key → `{method, params}`.
    needed: Mutex<Map<String, Value>>,
    /// Fires when a question has no answer: the round ends.
    stuck: CancellationToken,
    kept: Mutex<Map<String, Value>>,
}

/// The key of the question asked `index`-th (from 1), of `method`: stable
/// from round to round as long as the tool asks in the same order.
pub(crate) fn question_key(method: AskMethod, index: usize) -> String {
    let kind = match method {
        AskMethod::Elicit | AskMethod::ElicitUrl => "elicitation",
        AskMethod::Sample => "sampling",
        AskMethod::Roots => "roots",
    };
    format!("{kind}-{index}")
}

impl ModernAsker {
    /// A round for a client of `version` with `capabilities`, knowing
    /// `answers` and what earlier rounds `kept`.
    pub(crate) fn new(
        version: ProtocolVersion,
        capabilities: Value,
        answers: Map<String, Value>,
        kept: Map<String, Value>,
    ) -> ModernAsker {
        ModernAsker {
            version,
            capabilities,
            answers,
            asked: AtomicUsize::new(0),
            needed: Mutex::new(Map::new()),
            stuck: CancellationToken::new(),
            kept: Mutex::new(kept),
        }
    }

    /// Resolves when a question has no answer.
    pub(crate) async fn stuck(&self) {
        self.stuck.cancelled().await;
    }

    /// The `input_required` result of a round that got stuck: its questions
    /// and the state to come back with, bound to `binding`.
    pub(crate) fn input_required(&self, keys: &StateKeys, ttl: std::time::Duration, binding: String) -> Value {
        let needed = self.needed.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let state = RoundState {
            version: 1,
            expires: now().saturating_add(ttl.as_secs()),
            binding,
            answers: self.answers.clone(),
            kept: self.kept.lock().unwrap_or_else(PoisonError::into_inner).clone(),
        };
        json!({ "resultType": "input_required", "inputRequests": needed, "requestState": keys.seal(&state) })
    }
}

impl Asker for ModernAsker {
    fn ask(&self, ask: Ask) -> AskFuture {
        let index = self.asked.fetch_add(1, Ordering::SeqCst) + 1;
        let key = ask.key.unwrap_or_else(|| question_key(ask.method, index));
        // An answer of the wrong shape is no answer: the question is asked again.
        if let Some(answer) = self.answers.get(&key).filter(|answer| ask.method.is_answer(answer)) {
            return Box::pin(std::future::ready(Ok(answer.clone())));
        }
        if !ask.method.allowed(self.version, &self.capabilities) {
            let error = AskError::Unsupported { method: ask.method.name(), capability: ask.method.capability() };
            return Box::pin(std::future::ready(Err(error)));
        }
        let params = ask.method.params_for(ask.params, self.version);
        let request = json!({ "method": ask.method.name(), "params": params });
        self.needed.lock().unwrap_or_else(PoisonError::into_inner).insert(key, request);
        self.stuck.cancel();
        // The round ends here: the engine answers `input_required` and drops the tool.
        Box::pin(std::future::pending())
    }

    fn kept(&self, key: &str) -> Option<Value> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner).get(key).cloned()
    }

    fn keep(&self, key: &str, value: Value) {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner).insert(key.to_owned(), value);
    }
}
