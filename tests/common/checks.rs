//! What a test client expects of each message it receives: the era of each
//! request sent, and the validation of every message received against the
//! official schema of its era (`codeagent_test_support::wire`), the same for
//! every transport.

use std::collections::HashMap;

use codeagent::ProtocolVersion;
use codeagent::server::PROTOCOL_VERSION_KEY;
use codeagent_test_support::wire::{self, result_definition};
use serde_json::Value;

use super::{V2025_11, V2026, check_error, check_notification};

/// What a response to a request should look like.
#[derive(Clone, Copy, Debug)]
struct Expect {
    version: ProtocolVersion,
    definition: &'static str,
}

/// The era bookkeeping of a test client, and the validation of every message
/// it receives against the official schema of that era.
pub struct Checks {
    /// The version of legacy requests: negotiated by `initialize`, 2025-11-25 before.
    pub legacy: ProtocolVersion,
    /// The version of the last message sent: what notifications are checked against.
    pub era: ProtocolVersion,
    expected: HashMap<String, Expect>,
    /// Over stdio the HTTP header errors (-32020, -32021) never occur.
    over_stdio: bool,
}

/// Whether `message` is a 2026-07-28 request (its `_meta` names a protocol version).
pub fn is_modern(message: &Value) -> bool {
    message
        .pointer("/params/_meta")
        .and_then(Value::as_object)
        .is_some_and(|meta| meta.contains_key(PROTOCOL_VERSION_KEY))
}

impl Checks {
    /// Fresh bookkeeping: 2025-11-25 until `initialize` says otherwise.
    pub fn new(over_stdio: bool) -> Checks {
        Checks { legacy: V2025_11, era: V2025_11, expected: HashMap::new(), over_stdio }
    }

    /// Notes what the responses to `message` (a request, notification or
    /// batch about to be sent) should look like.
    pub fn register(&mut self, message: &Value) {
        match message {
            Value::Array(items) => items.iter().for_each(|item| self.register(item)),
            Value::Object(object) => {
                let version = if is_modern(message) { V2026 } else { self.legacy };
                if object.contains_key("method") {
                    self.era = version;
                }
                if let (Some(id @ (Value::String(_) | Value::Number(_))), Some(Value::String(method))) =
                    (object.get("id"), object.get("method"))
                {
                    self.expected.insert(id.to_string(), Expect { version, definition: result_definition(method) });
                }
            }
            _ => {}
        }
    }

    /// Validates one message received.
    #[track_caller]
    pub fn validate(&mut self, message: &Value) {
        match message {
            Value::Array(items) => {
                wire::check_batch(self.era.as_str(), message);
                items.iter().for_each(|item| self.validate_response(item));
            }
            Value::Object(object) if object.contains_key("method") && object.contains_key("id") => {
                wire::check_request(self.legacy.as_str(), message);
            }
            Value::Object(object) if object.contains_key("method") => check_notification(self.era, message),
            Value::Object(_) => self.validate_response(message),
            other => panic!("the server sent a message that is not an object or batch: {other}"),
        }
    }

    #[track_caller]
    fn validate_response(&mut self, message: &Value) {
        assert_eq!(message["jsonrpc"], "2.0", "{message}");
        let id = message.get("id").cloned().unwrap_or(Value::Null);
        let expect = self.expected.get(&id.to_string()).copied();
        if message.get("error").is_some() {
            assert!(message.get("result").is_none(), "both result and error: {message}");
            let code = check_error(expect.map_or(self.era, |expect| expect.version), message);
            if self.over_stdio {
                assert!(code != -32020, "the HTTP-only error code -32020 over stdio: {message}");
            }
            return;
        }
        let expect = expect.unwrap_or_else(|| panic!("a result for an id never sent: {message}"));
        let mut version = expect.version;
        if expect.definition == "InitializeResult" {
            let negotiated = message["result"]["protocolVersion"].as_str().expect("protocolVersion");
            version = negotiated.parse().unwrap_or_else(|_| panic!("negotiated an unknown version: {message}"));
            assert!(!version.is_modern(), "initialize negotiated a modern version: {message}");
            self.legacy = version;
            self.era = version;
        }
        wire::check_result(version.as_str(), expect.definition, message);
    }
}
