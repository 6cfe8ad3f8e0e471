//! Who sent a request: the identity an authorisation layer (or a middleware
//! acting as one) establishes, seen by every later middleware and by tools.

use serde_json::{Map, Value};

/// The identity of a request's caller.
///
/// Nothing fills it in by default: a transport's authorisation layer, or a
/// [middleware](crate::server::middleware) reading the request's headers or
/// `_meta`, sets it with
/// [`Request::set_caller`](crate::server::middleware::Request::set_caller);
/// later middleware (a [`RateLimit`](crate::server::middleware) per caller)
/// and the tool's [`Context::caller`](crate::toolbox::Context::caller) see it.
///
/// ```
/// use codeagent_core::toolbox::Caller;
///
/// let caller = Caller::new("alice").with_claim("scope", "tools:read");
/// assert_eq!(caller.subject(), "alice");
/// assert_eq!(caller.claim("scope").and_then(|scope| scope.as_str()), Some("tools:read"));
/// ```
#[derive(Clone, Debug)]
pub struct Caller {
    subject: String,
    scopes: Vec<String>,
    claims: Map<String, Value>,
    /// The access token the resource server verified for this caller, kept
    /// for one use only: RFC 8693 token exchange by a mount acting for the
    /// caller. No public method reads it, and its `Debug` is redacted.
    token: Option<AdmittedToken>,
}

/// Two callers are the same when their subject, scopes and claims are; the
/// token they came with is not compared.
impl PartialEq for Caller {
    fn eq(&self, other: &Caller) -> bool {
        self.subject == other.subject && self.scopes == other.scopes && self.claims == other.claims
    }
}

/// A verified access token, never shown.
#[derive(Clone)]
struct AdmittedToken(std::sync::Arc<str>);

impl std::fmt::Debug for AdmittedToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<redacted>")
    }
}

impl Caller {
    /// A caller known by `subject` (a user name, a client id, a token's `sub`).
    pub fn new(subject: impl Into<String>) -> Self {
        Caller { subject: subject.into(), scopes: Vec::new(), claims: Map::new(), token: None }
    }

    /// This caller with the access token its resource server verified
    /// (only the resource server sets it).
    #[cfg_attr(not(feature = "auth"), allow(dead_code, reason = "set by the resource server of `auth`"))]
    pub(crate) fn with_admitted_token(mut self, token: &str) -> Self {
        self.token = Some(AdmittedToken(token.into()));
        self
    }

    /// The access token the resource server verified for this caller: read
    /// only by the token exchange of a mount acting for its caller.
    #[cfg_attr(not(feature = "client"), allow(dead_code, reason = "read by the client's token exchange"))]
    pub(crate) fn admitted_token(&self) -> Option<&str> {
        self.token.as_ref().map(|token| &*token.0)
    }

    /// Adds claim `name` (a tenant, an issuer...).
    #[must_use]
    pub fn with_claim(mut self, name: impl Into<String>, value: impl Into<Value>) -> Self {
        self.claims.insert(name.into(), value.into());
        self
    }

    /// Grants the OAuth scopes `scopes` (what the caller's token allows).
    #[must_use]
    pub fn with_scopes<S: Into<String>>(mut self, scopes: impl IntoIterator<Item = S>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The OAuth scopes the caller was granted (none unless a token said so).
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Whether the caller was granted every scope in `needed`.
    pub fn has_scopes(&self, needed: &[String]) -> bool {
        needed.iter().all(|scope| self.scopes.contains(scope))
    }

    /// Who the caller is.
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// Who the caller is across requests, as one string: its issuer (the
    /// `iss` claim, when it has one) and its subject. A legacy session, a
    /// task, a 2026-07-28 `requestState` and a kept result made for a caller
    /// are bound to it: another identity is refused them.
    ///
    /// ```
    /// use codeagent_core::toolbox::Caller;
    ///
    /// let alice = Caller::new("alice").with_claim("iss", "https://id.example.com");
    /// let other = Caller::new("alice").with_claim("iss", "https://other.example.com");
    /// assert_ne!(alice.identity(), other.identity());
    /// ```
    pub fn identity(&self) -> String {
        let issuer = self.claims.get("iss").and_then(Value::as_str);
        Value::from(vec![Value::from(issuer), Value::from(self.subject.as_str())]).to_string()
    }

    /// Claim `name`, if the caller has it.
    pub fn claim(&self, name: &str) -> Option<&Value> {
        self.claims.get(name)
    }

    /// Every claim.
    pub fn claims(&self) -> &Map<String, Value> {
        &self.claims
    }
}
