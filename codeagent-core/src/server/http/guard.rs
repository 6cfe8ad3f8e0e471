//! What every HTTP request passes before its body is read: Host and Origin
//! checks against DNS rebinding, and the authorisation hook.

use std::sync::Arc;

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use subtle::ConstantTimeEq;

use super::respond::rpc_error;
use crate::server::jsonrpc::{INVALID_REQUEST, RpcError};

/// Decides whether a request may reach the server, from its headers.
///
/// ```
/// use codeagent_core::server::http::{Authorize, BearerToken};
/// use axum::http::HeaderMap;
///
/// let check = BearerToken::new("s3cret");
/// let mut headers = HeaderMap::new();
/// assert!(check.authorize(&headers).is_err());
/// headers.insert("authorization", "Bearer s3cret".parse().unwrap());
/// assert!(check.authorize(&headers).is_ok());
/// ```
pub trait Authorize: Send + Sync + 'static {
    /// `Ok` to let the request through.
    fn authorize(&self, headers: &HeaderMap) -> Result<(), Unauthorized>;
}

impl<F> Authorize for F
where
    F: Fn(&HeaderMap) -> Result<(), Unauthorized> + Send + Sync + 'static,
{
    fn authorize(&self, headers: &HeaderMap) -> Result<(), Unauthorized> {
        self(headers)
    }
}

/// A refused request: 401 (with a `WWW-Authenticate` challenge) or 403.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message} ({status})")]
#[non_exhaustive]
pub struct Unauthorized {
    /// The status: 401 when credentials are missing or wrong, 403 when they
    /// are valid but not enough.
    pub status: u16,
    /// What the client is told.
    pub message: String,
    /// The `WWW-Authenticate` header of a 401.
    pub challenge: Option<String>,
}

impl Unauthorized {
    /// A 401 with a `Bearer` challenge.
    pub fn bearer(message: impl Into<String>) -> Self {
        Unauthorized { status: 401, message: message.into(), challenge: Some("Bearer".to_owned()) }
    }

    /// A 403.
    pub fn forbidden(message: impl Into<String>) -> Self {
        Unauthorized { status: 403, message: message.into(), challenge: None }
    }
}

/// The example hook: requests must carry `Authorization: Bearer <token>`.
#[derive(Clone)]
pub struct BearerToken {
    token: Arc<str>,
}

impl BearerToken {
    /// Accepts exactly `token`.
    pub fn new(token: impl Into<String>) -> Self {
        BearerToken { token: Arc::from(token.into()) }
    }
}

impl std::fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("BearerToken(..)")
    }
}

impl Authorize for BearerToken {
    fn authorize(&self, headers: &HeaderMap) -> Result<(), Unauthorized> {
        let given = headers.get(header::AUTHORIZATION).and_then(|value| value.to_str().ok());
        let Some(given) = given.and_then(|value| value.strip_prefix("Bearer ")) else {
            return Err(Unauthorized::bearer("Unauthorized: send `Authorization: Bearer <token>`"));
        };
        if bool::from(given.trim().as_bytes().ct_eq(self.token.as_bytes())) {
            Ok(())
        } else {
            Err(Unauthorized::bearer("Unauthorized: the bearer token is not valid"))
        }
    }
}

/// The hosts a loopback server answers to: any port of these.
pub(crate) const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "[::1]"];

/// Host and Origin allow-lists; `None` disables that check.
#[derive(Clone, Debug)]
pub(crate) struct AllowList {
    pub(crate) hosts: Option<Vec<String>>,
    pub(crate) origins: Option<Vec<String>>,
}

impl AllowList {
    /// The refusal (403, JSON-RPC error body) of a Host or Origin outside
    /// the lists, or not well formed (an authority with user information, a
    /// path or anything else after the port is refused, not trimmed).
    pub(crate) fn refusal(&self, headers: &HeaderMap) -> Option<Response> {
        if let Some(hosts) = &self.hosts {
            let host = headers.get(header::HOST).and_then(|value| value.to_str().ok()).unwrap_or_default();
            if !authority_host(host).is_some_and(|name| matches_host(hosts, name)) {
                return Some(forbidden(&format!(
                    "Forbidden: Host `{}` is not allowed",
                    crate::log_text::escaped(host)
                )));
            }
        }
        if let (Some(origins), Some(origin)) = (&self.origins, headers.get(header::ORIGIN)) {
            let origin = origin.to_str().unwrap_or_default();
            if !origin_host(origin).is_some_and(|name| matches_host(origins, name)) {
                return Some(forbidden(&format!(
                    "Forbidden: Origin `{}` is not allowed",
                    crate::log_text::escaped(origin)
                )));
            }
        }
        None
    }
}

fn forbidden(message: &str) -> Response {
    rpc_error(StatusCode::FORBIDDEN, &Value::Null, &RpcError::new(INVALID_REQUEST, message))
}

/// The host of authority `authority` (`example.com:8080` as `example.com`,
/// `[::1]:80` as `[::1]`), or `None` unless it is exactly a host and an
/// optional port: no user information (`a@b`), path, query, spaces or a
/// port that is not a number.
fn authority_host(authority: &str) -> Option<&str> {
    let (host, port) = if authority.starts_with('[') {
        let end = authority.find(']')?;
        let (host, rest) = authority.split_at(end + 1);
        let inner = &host[1..host.len() - 1];
        if inner.parse::<std::net::Ipv6Addr>().is_err() {
            return None;
        }
        (host, rest)
    } else {
        let end = authority.find(':').unwrap_or(authority.len());
        let (host, rest) = authority.split_at(end);
        let name = |byte: u8| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'.';
        if host.is_empty() || !host.bytes().all(name) {
            return None;
        }
        (host, rest)
    };
    match port.strip_prefix(':') {
        None if port.is_empty() => Some(host),
        Some(digits) if digits.parse::<u16>().is_ok() && digits.bytes().all(|byte| byte.is_ascii_digit()) => Some(host),
        _ => None,
    }
}

/// The host of browser origin `origin` (`http://localhost:5173` as
/// `localhost`), or `None` for `null`, a scheme other than `http` or
/// `https`, or anything that is not exactly `scheme://host[:port]`.
fn origin_host(origin: &str) -> Option<&str> {
    let (scheme, authority) = origin.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    authority_host(authority)
}

fn matches_host(allowed: &[String], host: &str) -> bool {
    !host.is_empty() && allowed.iter().any(|allowed| allowed.eq_ignore_ascii_case(host))
}

/// The response for a refusal of the authorisation hook.
pub(crate) fn unauthorized(refusal: &Unauthorized) -> Response {
    let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::UNAUTHORIZED);
    let mut response = rpc_error(status, &Value::Null, &RpcError::new(INVALID_REQUEST, refusal.message.clone()));
    if let Some(challenge) = &refusal.challenge
        && let Ok(value) = challenge.parse()
    {
        response.headers_mut().insert(header::WWW_AUTHENTICATE, value);
    }
    response.into_response()
}

#[cfg(test)]
mod tests {
    use super::{authority_host, origin_host};

    #[test]
    fn host_names_drop_the_port() {
        assert_eq!(authority_host("127.0.0.1:8080"), Some("127.0.0.1"));
        assert_eq!(authority_host("[::1]:80"), Some("[::1]"));
        assert_eq!(authority_host("localhost"), Some("localhost"));
        assert_eq!(origin_host("http://localhost:5173"), Some("localhost"));
    }

    #[test]
    fn malformed_authorities_are_refused_not_trimmed() {
        for bad in [
            "127.0.0.1:8080@evil.example",
            "127.0.0.1@evil.example",
            "user@127.0.0.1",
            "evil.example.com/path",
            "127.0.0.1:80/x",
            "127.0.0.1:80x",
            "127.0.0.1:99999",
            "127.0.0.1:",
            "127.0.0.1 evil",
            "[::1",
            "[::1]x",
            "[evil]",
            "",
        ] {
            assert_eq!(authority_host(bad), None, "{bad}");
        }
        for bad in ["null", "localhost", "file://localhost", "http://localhost/path", "http://a@localhost"] {
            assert_eq!(origin_host(bad), None, "{bad}");
        }
    }
}
