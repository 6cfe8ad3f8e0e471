//! The questions of a request that runs user code (`tools/call`,
//! `prompts/get`), in either era: in the legacy era, real requests to the
//! client ([`LegacyAsker`]); in 2026-07-28, a round of a multi round-trip
//! request ([`ModernAsker`]), with the answers its `requestState` and
//! `inputResponses` carry.

use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};

use super::{Engine, Route};
use crate::mcp::meta::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY};
use crate::server::ask::LegacyAsker;
use crate::server::era::Era;
use crate::server::input::ModernAsker;
use crate::server::jsonrpc::{INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, RpcError};
use crate::server::peer::{Peer, Slot};
use crate::server::state::binding;
use crate::toolbox::{Asker, ToolSpec};

/// A 2026-07-28 round: its questions, and what its state is bound to.
#[derive(Clone)]
pub(super) struct Round {
    pub(super) asker: Arc<ModernAsker>,
    binding: String,
}

/// Resolves when `round` has a question without an answer; never without a round.
pub(super) async fn stuck(round: Option<&Round>) {
    match round {
        Some(round) => round.asker.stuck().await,
        None => std::future::pending().await,
    }
}

/// What the request is, for the state's binding: its method, the tool or
/// prompt, and its arguments.
pub(super) struct Subject<'a> {
    pub(super) method: &'a str,
    pub(super) name: &'a str,
    pub(super) arguments: &'a Value,
}

impl Engine {
    /// The asker of a request about `subject` with `params`, and in
    /// 2026-07-28 its round; an invalid `requestState` or `inputResponses`
    /// is an error.
    pub(super) fn questions(
        &self,
        peer: &Arc<Peer>,
        era: Era,
        subject: &Subject<'_>,
        params: &Map<String, Value>,
        slot: &Arc<Slot>,
        route: &Route,
    ) -> Result<(Arc<dyn Asker>, Option<Round>), RpcError> {
        if !era.is_modern() {
            let asker = LegacyAsker {
                peer: Arc::clone(peer),
                outlet: Arc::clone(&route.outlet),
                slot: Arc::clone(slot),
                version: era.version,
                timeout: self.ask_timeout,
                kept: Mutex::new(Map::new()),
            };
            return Ok((Arc::new(asker), None));
        }
        let meta = params.get("_meta").and_then(Value::as_object);
        let capabilities = meta.and_then(|meta| meta.get(CLIENT_CAPABILITIES_KEY)).cloned().unwrap_or_default();
        // Bound to the client it declares and, where a token named one, to
        // the authenticated caller: another caller cannot replay it.
        let client = meta.and_then(|meta| meta.get(CLIENT_INFO_KEY)).cloned().unwrap_or(Value::Null);
        let identity = route.caller.as_ref().map(crate::toolbox::Caller::identity);
        let caller = Value::Array(vec![client, Value::from(identity)]);
        let binding = binding(subject.method, subject.name, subject.arguments, &caller);
        let responses = match params.get("inputResponses") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(responses)) => responses.clone(),
            Some(_) => return Err(invalid("`inputResponses` must be an object of answers by question key")),
        };
        let (mut answers, kept) = match params.get("requestState") {
            // A first round, or a client answering by question key without a state.
            None | Some(Value::Null) => (Map::new(), Map::new()),
            Some(Value::String(token)) => {
                let state = self
                    .state_keys
                    .open(token, &binding)
                    .map_err(|problem| invalid(&format!("`requestState` is refused: {problem}")))?;
                (state.answers, state.kept)
            }
            Some(_) => return Err(invalid("`requestState` must be a string")),
        };
        // Answers to questions the tool does not ask are never looked at.
        answers.extend(responses);
        let asker = Arc::new(ModernAsker::new(era.version, capabilities, answers, kept));
        let round = Round { asker: Arc::clone(&asker), binding };
        Ok((asker, Some(round)))
    }

    /// The `-32021` error of a call to a tool needing a client capability
    /// the client did not declare (at `initialize`, or in this 2026-07-28
    /// request's capabilities).
    pub(super) fn missing_capability(
        &self,
        peer: &Peer,
        era: Era,
        params: &Map<String, Value>,
        tool: &ToolSpec,
    ) -> Option<RpcError> {
        let needed = tool.required_capabilities();
        if needed.is_empty() {
            return None;
        }
        let declared = declared_capabilities(peer, era, params);
        let has =
            |path: &str| path.split('.').try_fold(&declared, |node, key| node.get(key)).is_some_and(Value::is_object);
        let missing: Vec<&str> = needed.iter().copied().filter(|capability| !has(capability)).collect();
        if missing.is_empty() {
            return None;
        }
        let mut required = Map::new();
        for capability in &missing {
            let mut node = json!({});
            for key in capability.rsplit('.') {
                node = json!({ key: node });
            }
            if let Value::Object(node) = node {
                required.extend(node);
            }
        }
        let message = format!(
            "Missing required client capability: the tool `{}` needs the client to declare {}",
            tool.name(),
            missing.iter().map(|capability| format!("`{capability}`")).collect::<Vec<_>>().join(", ")
        );
        Some(RpcError::new(MISSING_CLIENT_CAPABILITY, message).with_data(json!({ "requiredCapabilities": required })))
    }

    /// The `input_required` result of a stuck round.
    pub(super) fn input_required(&self, era: Era, round: &Round) -> Value {
        let result = round.asker.input_required(&self.state_keys, self.state_ttl, round.binding.clone());
        self.finish(era, result)
    }
}

/// The capabilities the client of a request with `params` declared: in this
/// 2026-07-28 request's `_meta`, or at `initialize`.
pub(super) fn declared_capabilities(peer: &Peer, era: Era, params: &Map<String, Value>) -> Value {
    if era.is_modern() {
        params.get("_meta").and_then(|meta| meta.get(CLIENT_CAPABILITIES_KEY)).cloned().unwrap_or_default()
    } else {
        peer.capabilities()
    }
}

fn invalid(problem: &str) -> RpcError {
    RpcError::new(INVALID_PARAMS, format!("Invalid params: {problem}")).with_data(json!({ "reason": problem }))
}
