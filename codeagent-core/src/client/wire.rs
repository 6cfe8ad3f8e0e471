//! What a transport does for the session: carry messages out, and put what
//! arrives into the session's inbox.

use std::future::Future;
use std::pin::Pin;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use super::ClientError;
use crate::mcp::ProtocolVersion;
use crate::mcp::message_member::MessageMember;
use crate::mcp::meta::{
    CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, LOG_LEVEL_KEY, PROGRESS_TOKEN_KEY, PROTOCOL_VERSION_KEY,
};

/// A message for the server.
#[derive(Debug)]
pub(crate) struct Outgoing {
    /// The JSON-RPC message.
    pub(crate) message: Value,
    /// The id of a request (its answer, or its failure, comes back under it).
    pub(crate) id: Option<u64>,
    /// The version the connection speaks, once known (HTTP headers).
    pub(crate) version: Option<ProtocolVersion>,
    /// Headers of this request alone (HTTP): the `x-mcp-header` parameters of a tool call.
    pub(crate) headers: Vec<(String, String)>,
    /// Made for a caller (a mounted tool's, resource's or prompt's), not by
    /// the client on its own behalf.
    pub(crate) acting: Option<Acting>,
}

/// The caller a request is made for (`None`: it came without an identity).
#[derive(Clone, Debug)]
pub(crate) struct Acting(pub(crate) Option<crate::toolbox::Caller>);

impl Outgoing {
    /// A message that is not a request.
    pub(crate) fn other(message: Value, version: Option<ProtocolVersion>) -> Outgoing {
        Outgoing { message, id: None, version, headers: Vec::new(), acting: None }
    }
}

/// What every 2026-07-28 request carries in its `_meta`, borrowed from the
/// session (which builds it once).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Envelope<'a> {
    /// The protocol version the request is sent in.
    pub(crate) version: ProtocolVersion,
    /// The client's capabilities.
    pub(crate) capabilities: &'a Value,
    /// The client's name and version.
    pub(crate) client_info: &'a Value,
    /// The log level the client asks for, if any.
    pub(crate) log_level: Option<&'static str>,
}

impl Envelope<'_> {
    /// The envelope as a `_meta` object of its own.
    pub(crate) fn meta(&self) -> Value {
        let mut meta = Map::new();
        meta.insert(PROTOCOL_VERSION_KEY.to_owned(), Value::from(self.version.as_str()));
        meta.insert(CLIENT_CAPABILITIES_KEY.to_owned(), self.capabilities.clone());
        meta.insert(CLIENT_INFO_KEY.to_owned(), self.client_info.clone());
        if let Some(level) = self.log_level {
            meta.insert(LOG_LEVEL_KEY.to_owned(), Value::from(level));
        }
        Value::Object(meta)
    }
}

/// A request for the server, borrowed from its caller: its `params` as given,
/// and what the session adds to their `_meta` (a progress token, the
/// 2026-07-28 envelope). A transport writes it out as it is, without copying
/// the params ([`Wire::send_request`]); [`Request::to_outgoing`] builds the
/// message as a `Value`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Request<'a> {
    /// The request's id.
    pub(crate) id: u64,
    /// The method.
    pub(crate) method: &'a str,
    /// The params, without the session's additions.
    pub(crate) params: &'a Map<String, Value>,
    /// The progress token, when the caller follows progress.
    pub(crate) progress_token: Option<&'a str>,
    /// The 2026-07-28 envelope, in that era.
    pub(crate) envelope: Option<Envelope<'a>>,
    /// The version the connection speaks, once known (HTTP headers).
    pub(crate) version: Option<ProtocolVersion>,
    /// Headers of this request alone (HTTP).
    pub(crate) headers: &'a [(String, String)],
    /// The caller the request is made for, if any.
    pub(crate) acting: Option<&'a Acting>,
}

/// One value the session adds to a request's `_meta`.
#[derive(Clone, Copy, Debug)]
enum Added<'a> {
    Text(&'a str),
    Json(&'a Value),
}

impl Added<'_> {
    fn to_value(self) -> Value {
        match self {
            Added::Text(text) => Value::from(text),
            Added::Json(value) => value.clone(),
        }
    }
}

impl Serialize for Added<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Added::Text(text) => serializer.serialize_str(text),
            Added::Json(value) => value.serialize(serializer),
        }
    }
}

/// The entries the session adds to `_meta`, in the order they are added.
type Additions<'a> = [Option<(&'static str, Added<'a>)>; 5];

impl<'a> Request<'a> {
    /// Whether the session adds anything to `_meta`.
    fn adds_meta(&self) -> bool {
        self.progress_token.is_some() || self.envelope.is_some()
    }

    /// What `_meta` becomes: `None` when the params' own `_meta` stays as it
    /// is; else the base object (the params' own, or none) and the entries
    /// added to it. A `_meta` that is not an object takes no progress token,
    /// and is replaced by the envelope alone when there is one.
    fn meta(&self) -> Option<(Option<&'a Map<String, Value>>, Additions<'a>)> {
        if !self.adds_meta() {
            return None;
        }
        let (base, token) = match self.params.get("_meta") {
            None => (None, self.progress_token),
            Some(Value::Object(meta)) => (Some(meta), self.progress_token),
            Some(_) if self.envelope.is_none() => return None,
            Some(_) => (None, None),
        };
        let mut added: Additions<'a> = [None; 5];
        added[0] = token.map(|token| (PROGRESS_TOKEN_KEY, Added::Text(token)));
        if let Some(envelope) = self.envelope {
            added[1] = Some((PROTOCOL_VERSION_KEY, Added::Text(envelope.version.as_str())));
            added[2] = Some((CLIENT_CAPABILITIES_KEY, Added::Json(envelope.capabilities)));
            added[3] = Some((CLIENT_INFO_KEY, Added::Json(envelope.client_info)));
            added[4] = envelope.log_level.map(|level| (LOG_LEVEL_KEY, Added::Text(level)));
        }
        Some((base, added))
    }

    /// The message as a `Value`, the session's additions in its `_meta`.
    pub(crate) fn message(&self) -> Value {
        let mut params = self.params.clone();
        if let Some((base, added)) = self.meta() {
            let mut meta = base.cloned().unwrap_or_default();
            for (key, value) in added.into_iter().flatten() {
                meta.insert(key.to_owned(), value.to_value());
            }
            params.insert("_meta".to_owned(), Value::Object(meta));
        }
        let mut message = Map::new();
        message.insert("jsonrpc".to_owned(), Value::from("2.0"));
        message.insert("id".to_owned(), Value::from(self.id));
        message.insert("method".to_owned(), Value::from(self.method));
        message.insert("params".to_owned(), Value::Object(params));
        Value::Object(message)
    }

    /// The request as an [`Outgoing`] message.
    pub(crate) fn to_outgoing(self) -> Outgoing {
        Outgoing {
            message: self.message(),
            id: Some(self.id),
            version: self.version,
            headers: self.headers.to_vec(),
            acting: self.acting.cloned(),
        }
    }
}

/// The JSON-RPC request, written from the borrowed parts: the same JSON as
/// [`Request::message`].
impl Serialize for Request<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut message = serializer.serialize_map(Some(4))?;
        message.serialize_entry("jsonrpc", "2.0")?;
        message.serialize_entry("id", &self.id)?;
        message.serialize_entry("method", self.method)?;
        message.serialize_entry("params", &Params(self))?;
        message.end()
    }
}

/// A request's params with the session's additions in their `_meta`.
struct Params<'r, 'a>(&'r Request<'a>);

impl Serialize for Params<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let request = self.0;
        let meta = request.meta();
        let has_own = request.params.contains_key("_meta");
        let length = request.params.len() + usize::from(meta.is_some() && !has_own);
        let mut params = serializer.serialize_map(Some(length))?;
        for (key, value) in request.params {
            match &meta {
                Some((base, added)) if key == "_meta" => {
                    params.serialize_entry(key, &Meta { base: *base, added })?;
                }
                _ => params.serialize_entry(key, value)?,
            }
        }
        if let Some((base, added)) = &meta
            && !has_own
        {
            params.serialize_entry("_meta", &Meta { base: *base, added })?;
        }
        params.end()
    }
}

/// `_meta`: its own entries, each added one in place of an own entry of the
/// same key, then the other added ones.
struct Meta<'r, 'a> {
    base: Option<&'a Map<String, Value>>,
    added: &'r Additions<'a>,
}

impl Meta<'_, '_> {
    fn added(&self, key: &str) -> Option<Added<'_>> {
        self.added.iter().flatten().find(|(added, _)| *added == key).map(|(_, value)| *value)
    }
}

impl Serialize for Meta<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut meta = serializer.serialize_map(None)?;
        if let Some(base) = self.base {
            for (key, value) in base {
                match self.added(key) {
                    Some(added) => meta.serialize_entry(key, &added)?,
                    None => meta.serialize_entry(key, value)?,
                }
            }
        }
        for (key, value) in self.added.iter().flatten() {
            if !self.base.is_some_and(|base| base.contains_key(*key)) {
                meta.serialize_entry(key, value)?;
            }
        }
        meta.end()
    }
}

/// A message object from the server, its JSON-RPC members read out (a
/// member present with `null` is `Some(Value::Null)`; others are dropped).
#[derive(Debug, Default)]
pub(crate) struct Members {
    pub(crate) id: Option<Value>,
    pub(crate) method: Option<Value>,
    pub(crate) params: Option<Value>,
    pub(crate) result: Option<Value>,
    pub(crate) error: Option<Value>,
}

impl Members {
    /// The members of message object `message`.
    pub(crate) fn of(mut message: Map<String, Value>) -> Members {
        Members {
            id: message.remove("id"),
            method: message.remove("method"),
            params: message.remove("params"),
            result: message.remove("result"),
            error: message.remove("error"),
        }
    }
}

/// One line from the server: a message object read straight into its
/// members (no map of its own), a batch, or other JSON. Every member is
/// still parsed, so what is not JSON is exactly what a `Value` refuses.
// It lives on the stack for one parse; boxing the members would cost an
// allocation per message.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum Line {
    /// A message object.
    Object(Members),
    /// A JSON-RPC batch.
    Batch(Vec<Value>),
    /// Any other JSON: not a message.
    Other(Value),
}

impl<'de> serde::Deserialize<'de> for Line {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Line;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Line, A::Error> {
                let mut members = Members::default();
                // A repeated member keeps its last value, as in a `Value` object.
                while let Some(member) = map.next_key::<MessageMember>()? {
                    let value = map.next_value::<Value>()?;
                    match member {
                        MessageMember::Id => members.id = Some(value),
                        MessageMember::Method => members.method = Some(value),
                        MessageMember::Params => members.params = Some(value),
                        MessageMember::Result => members.result = Some(value),
                        MessageMember::Error => members.error = Some(value),
                        MessageMember::Jsonrpc | MessageMember::Other => {}
                    }
                }
                Ok(Line::Object(members))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Line, A::Error> {
                let mut batch = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(message) = seq.next_element::<Value>()? {
                    batch.push(message);
                }
                Ok(Line::Batch(batch))
            }
            fn visit_bool<E>(self, value: bool) -> Result<Line, E> {
                Ok(Line::Other(Value::from(value)))
            }
            fn visit_i64<E>(self, value: i64) -> Result<Line, E> {
                Ok(Line::Other(Value::from(value)))
            }
            fn visit_u64<E>(self, value: u64) -> Result<Line, E> {
                Ok(Line::Other(Value::from(value)))
            }
            fn visit_f64<E>(self, value: f64) -> Result<Line, E> {
                Ok(Line::Other(Value::from(value)))
            }
            fn visit_str<E>(self, value: &str) -> Result<Line, E> {
                Ok(Line::Other(Value::from(value)))
            }
            fn visit_unit<E>(self) -> Result<Line, E> {
                Ok(Line::Other(Value::Null))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// What a transport puts in the session's inbox.
// Each message passes through the inbox once; boxing the members would cost an
// allocation per message.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum Inbound {
    /// A message from the server.
    Message(Value),
    /// A message object from the server, read into its members.
    Members(Members),
    /// The exchange of request `id` failed (HTTP): its caller gets `error`.
    Failed { id: u64, error: ClientError },
    /// Something arrived that is not a message (a line that is not JSON).
    Problem(String),
    /// The connection ended, for this reason.
    Closed(String),
}

/// A transport: stdio lines or Streamable HTTP.
pub(crate) trait Wire: Send + Sync + 'static {
    /// Sends `outgoing`. Never waits: a request's answer comes through the inbox.
    fn send(&self, outgoing: Outgoing) -> Result<(), ClientError>;

    /// Sends request `request`; as [`send`](Wire::send) of its message,
    /// which a transport may write straight from the borrowed parts.
    fn send_request(&self, request: Request<'_>) -> Result<(), ClientError> {
        self.send(request.to_outgoing())
    }

    /// Stops request `id`'s own exchange, if it has one (HTTP: drops its
    /// response stream). Its `notifications/cancelled` is sent separately.
    fn abandon(&self, id: u64);

    /// Opens the stream of server-initiated messages (legacy HTTP's GET),
    /// where the transport has one: whether the server answered it with a
    /// stream. `false` where there is none (stdio carries them on the one
    /// stream, and a server may refuse the GET).
    fn open_events(&self, version: ProtocolVersion) -> Pin<Box<dyn Future<Output = bool> + Send + '_>>;

    /// Closes the connection (legacy HTTP: ends the session).
    fn close(&self);

    /// Whether 2026-07-28 tool calls mirror arguments into headers (HTTP).
    fn mirrors_arguments(&self) -> bool {
        false
    }

    /// The end of the server's standard error, for a process.
    fn stderr(&self) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::{Envelope, Request};
    use crate::mcp::ProtocolVersion;

    fn params(value: Value) -> Map<String, Value> {
        let Value::Object(params) = value else { panic!("not an object: {value}") };
        params
    }

    /// Every combination of own `_meta`, progress token and envelope: the
    /// line written from the borrowed parts is the message built as a `Value`.
    #[test]
    fn written_request_is_the_built_message() {
        let capabilities = json!({ "roots": { "listChanged": false } });
        let client_info = json!({ "name": "test", "version": "1" });
        let envelopes = [
            None,
            Some(Envelope {
                version: ProtocolVersion::V2026_07_28,
                capabilities: &capabilities,
                client_info: &client_info,
                log_level: None,
            }),
            Some(Envelope {
                version: ProtocolVersion::V2026_07_28,
                capabilities: &capabilities,
                client_info: &client_info,
                log_level: Some("debug"),
            }),
        ];
        let all_params = [
            params(json!({})),
            params(json!({ "name": "add", "arguments": { "a": 1, "b": 2 } })),
            params(json!({ "name": "add", "_meta": { "mine": [1, 2], "progressToken": "old" } })),
            params(json!({
                "_meta": { "io.modelcontextprotocol/clientInfo": "stale", "x": null },
                "name": "add",
            })),
            params(json!({ "name": "add", "_meta": "not an object" })),
            params(json!({ "_meta": null })),
        ];
        for own in &all_params {
            for envelope in envelopes {
                for token in [None, Some("codeagent-7")] {
                    let request = Request {
                        id: 7,
                        method: "tools/call",
                        params: own,
                        progress_token: token,
                        envelope,
                        version: None,
                        headers: &[],
                        acting: None,
                    };
                    let written: Value = serde_json::from_slice(&serde_json::to_vec(&request).unwrap()).unwrap();
                    assert_eq!(written, request.message(), "params {own:?}, token {token:?}, envelope {envelope:?}");
                }
            }
        }
    }

    /// The additions as the session has always made them: a token and the
    /// envelope beside the own entries, an own entry of the same key
    /// replaced, a `_meta` that is not an object replaced by the envelope.
    #[test]
    fn additions_join_the_own_meta() {
        let capabilities = json!({});
        let client_info = json!({ "name": "test", "version": "1" });
        let envelope = Envelope {
            version: ProtocolVersion::V2026_07_28,
            capabilities: &capabilities,
            client_info: &client_info,
            log_level: None,
        };
        let own = params(json!({ "name": "add", "_meta": { "mine": 1, "progressToken": "old" } }));
        let request = Request {
            id: 1,
            method: "tools/call",
            params: &own,
            progress_token: Some("codeagent-1"),
            envelope: Some(envelope),
            version: None,
            headers: &[],
            acting: None,
        };
        assert_eq!(
            request.message()["params"]["_meta"],
            json!({
                "mine": 1,
                "progressToken": "codeagent-1",
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": { "name": "test", "version": "1" },
            })
        );
        let odd = params(json!({ "_meta": 5 }));
        let token_only = Request { params: &odd, envelope: None, ..request };
        assert_eq!(token_only.message()["params"], json!({ "_meta": 5 }));
        let enveloped = Request { params: &odd, ..request };
        assert_eq!(enveloped.message()["params"]["_meta"], envelope.meta());
        let bare = Request { params: &odd, progress_token: None, envelope: None, ..request };
        assert_eq!(
            bare.message(),
            json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": { "_meta": 5 } })
        );
    }
}
