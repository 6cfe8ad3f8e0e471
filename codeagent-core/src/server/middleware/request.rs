//! What a middleware knows about a request.

#[cfg(feature = "http")]
use std::sync::Arc;

use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use crate::mcp::ProtocolVersion;
use crate::mcp::meta::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY};
use crate::server::peer::Declared;
use crate::toolbox::Caller;

/// A request on its way to its handler: its method and parameters, who sent
/// it, and how.
///
/// Middleware may change the parameters ([`params_mut`](Request::params_mut))
/// and the caller ([`set_caller`](Request::set_caller)) before passing it on;
/// the method stays what the client asked for.
pub struct Request {
    pub(crate) id: Value,
    pub(crate) method: String,
    pub(crate) params: Map<String, Value>,
    pub(crate) version: ProtocolVersion,
    /// What a legacy client declared at `initialize` (empty in 2026-07-28
    /// and for `initialize` itself, whose parameters say it).
    pub(crate) declared: Declared,
    pub(crate) caller: Option<Caller>,
    #[cfg(feature = "http")]
    pub(crate) headers: Option<Arc<axum::http::HeaderMap>>,
    pub(crate) stop: CancellationToken,
}

impl Request {
    /// The JSON-RPC method, e.g. `tools/call`.
    pub fn method(&self) -> &str {
        &self.method
    }

    /// The JSON-RPC id of the request.
    pub fn id(&self) -> &Value {
        &self.id
    }

    /// The request's parameters (an empty object when it had none).
    pub fn params(&self) -> &Map<String, Value> {
        &self.params
    }

    /// The parameters, to change before passing the request on.
    pub fn params_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.params
    }

    /// What the request is about: the tool of `tools/call`, the prompt of
    /// `prompts/get`, the URI of `resources/read` and of the subscriptions.
    pub fn name(&self) -> Option<&str> {
        let key = match self.method.as_str() {
            "tools/call" | "prompts/get" => "name",
            "resources/read" | "resources/subscribe" | "resources/unsubscribe" => "uri",
            _ => return None,
        };
        self.params.get(key).and_then(Value::as_str)
    }

    /// The arguments of `tools/call` and `prompts/get`.
    pub fn arguments(&self) -> Option<&Map<String, Value>> {
        self.params.get("arguments").and_then(Value::as_object)
    }

    /// The request's `_meta` (`traceparent`, the progress token, and in
    /// 2026-07-28 the protocol version and the client).
    pub fn meta(&self) -> Option<&Map<String, Value>> {
        self.params.get("_meta").and_then(Value::as_object)
    }

    /// The protocol version the request is served in.
    pub fn protocol_version(&self) -> ProtocolVersion {
        self.version
    }

    /// Whether the request is a 2026-07-28 one (stateless, its client in
    /// its `_meta`), not part of a legacy `initialize` session.
    pub fn is_modern(&self) -> bool {
        self.version.is_modern()
    }

    /// The client's `clientInfo` (`name`, `version`...): from the request's
    /// `_meta` in 2026-07-28, from `initialize` in a legacy session; `None`
    /// when the client did not say.
    pub fn client_info(&self) -> Option<&Value> {
        self.stated("clientInfo", CLIENT_INFO_KEY, self.declared.info.as_deref())
    }

    /// The client's name from its `clientInfo`.
    pub fn client_name(&self) -> Option<&str> {
        self.client_info()?.get("name")?.as_str()
    }

    /// The capabilities the client declared, where it declared them.
    pub fn client_capabilities(&self) -> Option<&Value> {
        self.stated("capabilities", CLIENT_CAPABILITIES_KEY, self.declared.capabilities.as_deref())
    }

    /// What the client states of itself: `initialize`'s parameter `param`,
    /// a 2026-07-28 request's `_meta` key `meta_key`, or in a legacy
    /// session what it `declared` at `initialize`.
    fn stated<'a>(&'a self, param: &str, meta_key: &str, declared: Option<&'a Value>) -> Option<&'a Value> {
        let stated = if self.method == "initialize" {
            self.params.get(param)
        } else if self.version.is_modern() {
            self.meta()?.get(meta_key)
        } else {
            declared
        };
        stated.filter(|value| value.is_object())
    }

    /// Who sent the request, once an authorisation layer or a middleware
    /// established it.
    pub fn caller(&self) -> Option<&Caller> {
        self.caller.as_ref()
    }

    /// Sets who sent the request: later middleware, and the tool's
    /// [`Context::caller`](crate::toolbox::Context::caller), see it.
    pub fn set_caller(&mut self, caller: Caller) {
        self.caller = Some(caller);
    }

    /// The HTTP headers the request came with (Streamable HTTP only).
    #[cfg(feature = "http")]
    pub fn headers(&self) -> Option<&axum::http::HeaderMap> {
        self.headers.as_deref()
    }

    /// The HTTP header `name`, as text, when the request came over HTTP
    /// with it.
    pub fn header(&self, name: &str) -> Option<&str> {
        #[cfg(feature = "http")]
        {
            self.headers.as_deref()?.get(name)?.to_str().ok()
        }
        #[cfg(not(feature = "http"))]
        {
            let _ = name;
            None
        }
    }

    /// Fires when the request is stopped (the client cancelled it, or went
    /// away). Cancel it to stop the handler: a tool sees
    /// [`Context::is_cancelled`](crate::toolbox::Context::is_cancelled), and
    /// the handler's response is then none.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.stop
    }
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("id", &self.id)
            .field("method", &self.method)
            .field("version", &self.version.as_str())
            .field("caller", &self.caller)
            .finish_non_exhaustive()
    }
}
