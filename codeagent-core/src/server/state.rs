//! The `requestState` of 2026-07-28 multi round-trip requests: what a tool
//! call learned before it needed input (the answers so far and the values
//! kept by checkpoints), handed to the client and taken
//! back on the retry. It is untrusted input: HMAC-SHA256 under a server key
//! (rotatable: the first key signs, every key verifies), with an expiry, and
//! bound to the method, the tool or prompt, its arguments and the caller, so
//! a tampered, expired or foreign state is refused.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac_sha256::{HMAC, Hash};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The environment variable holding the state keys: one or more, comma
/// separated, each at least [`MIN_KEY_BYTES`] bytes; the first signs.
pub const STATE_KEY_VAR: &str = "CODEAGENT_STATE_KEY";

/// The shortest state key, in bytes.
pub const MIN_KEY_BYTES: usize = 32;

/// How long a `requestState` stays valid unless the server says otherwise.
pub const DEFAULT_STATE_TTL: Duration = Duration::from_secs(600);

/// The keys that sign and verify `requestState`. Several instances of a
/// server behind one load balancer need the same keys: set
/// [`STATE_KEY_VAR`] (or [`Server::with_state_keys`](super::Server::with_state_keys)).
/// Without it each process draws a random key, so a retry must reach the
/// process that asked.
#[derive(Clone)]
pub struct StateKeys {
    keys: Vec<(String, Vec<u8>)>,
}

impl std::fmt::Debug for StateKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<&str> = self.keys.iter().map(|(id, _)| id.as_str()).collect();
        f.debug_struct("StateKeys").field("key_ids", &ids).finish()
    }
}

/// Why state keys were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StateKeyError {
    /// No key was given.
    #[error("no state key given")]
    Empty,
    /// A key is too short.
    #[error("state key {index} is {length} bytes; a state key needs at least {MIN_KEY_BYTES}")]
    TooShort {
        /// Its position, from 1.
        index: usize,
        /// Its length in bytes.
        length: usize,
    },
    /// No key was given and none could be drawn: the system gives no randomness.
    #[error("no state key given, and none can be drawn")]
    NoRandomness(#[from] crate::RandomError),
}

impl StateKeys {
    /// Keys from secrets, in order: the first signs, all verify (rotate by
    /// putting the new key first and keeping the old one until its states
    /// have expired).
    pub fn new<K: AsRef<[u8]>>(secrets: impl IntoIterator<Item = K>) -> Result<StateKeys, StateKeyError> {
        let mut keys = Vec::new();
        for (index, secret) in secrets.into_iter().enumerate() {
            let secret = secret.as_ref();
            if secret.len() < MIN_KEY_BYTES {
                return Err(StateKeyError::TooShort { index: index + 1, length: secret.len() });
            }
            let id: String = crate::lower_hex::lower_hex(&Hash::hash(secret)[..4]);
            keys.push((id, secret.to_vec()));
        }
        if keys.is_empty() {
            return Err(StateKeyError::Empty);
        }
        Ok(StateKeys { keys })
    }

    /// The keys of [`STATE_KEY_VAR`]; `None` when it is unset or empty.
    ///
    /// Nothing in the library reads the environment on its own: the command
    /// line (`Server::run`) calls this, and an application that serves in
    /// its own way passes the keys to [`Server::with_state_keys`](super::Server::with_state_keys).
    ///
    /// ```
    /// use codeagent_core::server::StateKeys;
    /// # unsafe { std::env::remove_var("CODEAGENT_STATE_KEY") };
    /// assert!(StateKeys::from_env().unwrap().is_none());
    /// ```
    pub fn from_env() -> Result<Option<StateKeys>, StateKeyError> {
        match std::env::var(STATE_KEY_VAR) {
            Ok(value) if !value.trim().is_empty() => StateKeys::new(value.split(',').map(str::trim)).map(Some),
            _ => Ok(None),
        }
    }

    /// A random key drawn once per process; an error when the system gives
    /// no randomness (never a weaker key).
    pub(crate) fn process_key() -> Result<StateKeys, StateKeyError> {
        static KEY: OnceLock<StateKeys> = OnceLock::new();
        if let Some(keys) = KEY.get() {
            return Ok(keys.clone());
        }
        let secret = crate::random::bytes::<32>()?;
        Ok(KEY.get_or_init(|| StateKeys::new([secret]).expect("32 bytes are a valid key")).clone())
    }

    /// No key at all: nothing sealed with it opens (a server without a
    /// usable key refuses to serve, so it never seals).
    pub(crate) fn none() -> StateKeys {
        StateKeys { keys: Vec::new() }
    }

    /// `state` sealed for the client: `KEYID.PAYLOAD.MAC`, URL-safe base64.
    pub(crate) fn seal(&self, state: &RoundState) -> String {
        let Some((id, secret)) = self.keys.first() else {
            // No key: a state that no key opens.
            return "-.-.-".to_owned();
        };
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(state).unwrap_or_default());
        let mac = URL_SAFE_NO_PAD.encode(HMAC::mac(payload.as_bytes(), secret));
        format!("{id}.{payload}.{mac}")
    }

    /// The state in `token`, when it is intact, unexpired and `binding`'s.
    pub(crate) fn open(&self, token: &str, binding: &str) -> Result<RoundState, StateError> {
        let mut parts = token.split('.');
        let (Some(id), Some(payload), Some(mac), None) = (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(StateError::Malformed);
        };
        let (_, secret) = self.keys.iter().find(|(key_id, _)| key_id == id).ok_or(StateError::UnknownKey)?;
        let mac = URL_SAFE_NO_PAD.decode(mac).map_err(|_| StateError::Malformed)?;
        let mac: [u8; 32] = mac.try_into().map_err(|_| StateError::Tampered)?;
        if !HMAC::verify(payload.as_bytes(), secret, &mac) {
            return Err(StateError::Tampered);
        }
        let bytes = URL_SAFE_NO_PAD.decode(payload).map_err(|_| StateError::Malformed)?;
        let state: RoundState = serde_json::from_slice(&bytes).map_err(|_| StateError::Malformed)?;
        if state.version != 1 {
            return Err(StateError::Malformed);
        }
        if state.expires < now() {
            return Err(StateError::Expired);
        }
        if state.binding != binding {
            return Err(StateError::Foreign);
        }
        Ok(state)
    }
}

/// Why a `requestState` was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum StateError {
    #[error("it is not a requestState this server issued")]
    Malformed,
    #[error("it was signed with a key this server no longer has")]
    UnknownKey,
    #[error("it was altered")]
    Tampered,
    #[error("it has expired; call again without it")]
    Expired,
    #[error("it belongs to another call (another tool, other arguments or another client)")]
    Foreign,
}

/// What a call carries from one round to the next.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub(crate) struct RoundState {
    #[serde(rename = "v")]
    pub(crate) version: u8,
    /// Seconds since the epoch after which the state is refused.
    #[serde(rename = "exp")]
    pub(crate) expires: u64,
    /// The digest of what the state is bound to.
    #[serde(rename = "bind")]
    pub(crate) binding: String,
    /// The answers so far, by question key.
    #[serde(default)]
    pub(crate) answers: Map<String, Value>,
    /// The values checkpoints kept.
    #[serde(default)]
    pub(crate) kept: Map<String, Value>,
}

/// Seconds since the epoch.
pub(crate) fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default().as_secs()
}

/// The digest a state is bound to: `method`, the tool or prompt `name`, its
/// `arguments` and the `caller`.
pub(crate) fn binding(method: &str, name: &str, arguments: &Value, caller: &Value) -> String {
    let mut hasher = Hash::new();
    for part in [method.to_owned(), name.to_owned(), canonical(arguments), canonical(caller)] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    URL_SAFE_NO_PAD.encode(hasher.finalize())
}

/// JSON text with object keys sorted, so equal values digest equally.
fn canonical(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let fields: Vec<String> =
                keys.iter().map(|key| format!("{}:{}", Value::from(key.as_str()), canonical(&map[*key]))).collect();
            format!("{{{}}}", fields.join(","))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn keys(secret: &str) -> StateKeys {
        StateKeys::new([secret.repeat(32)]).unwrap()
    }

    fn state(binding: &str, expires: u64) -> RoundState {
        RoundState { version: 1, expires, binding: binding.into(), ..RoundState::default() }
    }

    #[test]
    fn a_sealed_state_opens_for_its_binding_only() {
        let keys = keys("a");
        let token = keys.seal(&state("b1", now() + 60));
        assert_eq!(keys.open(&token, "b1").unwrap().binding, "b1");
        assert_eq!(keys.open(&token, "b2"), Err(StateError::Foreign));
        assert_eq!(keys.open(&keys.seal(&state("b1", now() - 1)), "b1"), Err(StateError::Expired));
    }

    #[test]
    fn tampering_and_foreign_keys_are_refused() {
        let token = keys("a").seal(&state("b", now() + 60));
        let (id, rest) = token.split_once('.').unwrap();
        let (payload, mac) = rest.split_once('.').unwrap();
        let forged_payload = URL_SAFE_NO_PAD.encode(br#"{"v":1,"exp":99999999999,"bind":"b","answers":{"q":1}}"#);
        assert_eq!(keys("a").open(&format!("{id}.{forged_payload}.{mac}"), "b"), Err(StateError::Tampered));
        assert_eq!(keys("b").open(&token, "b"), Err(StateError::UnknownKey));
        assert_eq!(keys("a").open(&format!("{id}.{payload}"), "b"), Err(StateError::Malformed));
        assert_eq!(keys("a").open("garbage", "b"), Err(StateError::Malformed));
    }

    #[test]
    fn rotated_keys_still_verify_old_states() {
        let old = keys("o");
        let token = old.seal(&state("b", now() + 60));
        let rotated = StateKeys::new(["n".repeat(32), "o".repeat(32)]).unwrap();
        assert!(rotated.open(&token, "b").is_ok());
        assert!(rotated.seal(&state("b", now() + 60)).starts_with(&rotated.keys[0].0));
    }

    #[test]
    fn short_keys_are_refused() {
        assert_eq!(StateKeys::new(["short"]).unwrap_err(), StateKeyError::TooShort { index: 1, length: 5 });
        assert_eq!(StateKeys::new(Vec::<&str>::new()).unwrap_err(), StateKeyError::Empty);
    }

    #[test]
    fn bindings_ignore_key_order_but_not_values() {
        let caller = json!({"name": "c"});
        let one = binding("tools/call", "t", &json!({"a": 1, "b": 2}), &caller);
        assert_eq!(one, binding("tools/call", "t", &json!({"b": 2, "a": 1}), &caller));
        assert_ne!(one, binding("tools/call", "t", &json!({"a": 1, "b": 3}), &caller));
        assert_ne!(one, binding("tools/call", "u", &json!({"a": 1, "b": 2}), &caller));
    }
}
