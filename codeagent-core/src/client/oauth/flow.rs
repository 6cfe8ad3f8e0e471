//! The authorization code flow with PKCE (OAuth 2.1 §4.1): the client's
//! identity at an authorization server (pre-registered, a client ID metadata
//! document, or dynamic registration, RFC 7591), the authorization request
//! and its answer checked (`state`, RFC 9207 `iss`), the code exchanged for
//! a token bound to the resource (RFC 8707), and refreshes.

use base64::Engine as _;
use base64::prelude::BASE64_URL_SAFE_NO_PAD;
use serde_json::json;

use super::discovery::{Discovered, ServerMetadata};
use super::token::{Dpop, Form, Token, post_token, token_of};
use super::{Authorizer, Config};
use crate::log_text::escaped;
use crate::net::HttpClient;
use crate::oauth::fetch::{post_json, redirect_of};
use crate::oauth::url::{query, with_query};

/// How a client proves itself at the token endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    /// A public client: its id in the form.
    None,
    /// HTTP Basic with its id and secret.
    Basic,
    /// Its id and secret in the form.
    Post,
}

impl Method {
    fn parse(name: &str) -> Option<Method> {
        match name {
            "none" => Some(Method::None),
            "client_secret_basic" => Some(Method::Basic),
            "client_secret_post" => Some(Method::Post),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Method::None => "none",
            Method::Basic => "client_secret_basic",
            Method::Post => "client_secret_post",
        }
    }
}

/// The client's identity at one authorization server.
#[derive(Clone)]
pub(crate) struct Registration {
    pub(crate) client_id: String,
    pub(crate) secret: Option<String>,
    pub(crate) method: Method,
}

impl std::fmt::Debug for Registration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registration")
            .field("client_id", &self.client_id)
            .field("secret", &self.secret.as_ref().map(|_| "<redacted>"))
            .field("method", &self.method)
            .finish()
    }
}

/// The methods `server` accepts (RFC 8414's default: `client_secret_basic`).
fn accepted(server: &ServerMetadata) -> Vec<Method> {
    match &server.token_endpoint_auth_methods_supported {
        Some(methods) => methods.iter().filter_map(|name| Method::parse(name)).collect(),
        None => vec![Method::Basic],
    }
}

/// The client's identity at `server` (named by the server at `server_url`):
/// credentials pre-registered for its issuer, exactly, its metadata
/// document, or registered now. Credentials registered for another issuer
/// are never used here (SEP-2352).
pub(crate) async fn register(
    client: &HttpClient,
    config: &Config,
    server: &ServerMetadata,
    server_url: &str,
) -> Result<Registration, String> {
    let methods = accepted(server);
    if let Some(known) = config.registered.iter().find(|known| known.issuer == server.issuer) {
        let method = match known.secret {
            None => Method::None,
            Some(_) if methods.contains(&Method::Basic) => Method::Basic,
            Some(_) if methods.contains(&Method::Post) => Method::Post,
            Some(_) => Method::Basic,
        };
        return Ok(Registration { client_id: known.client_id.clone(), secret: known.secret.clone(), method });
    }
    if let Some(document) =
        config.metadata_document.as_ref().filter(|_| server.client_id_metadata_document_supported == Some(true))
    {
        return Ok(Registration { client_id: document.clone(), secret: None, method: Method::None });
    }
    let Some(endpoint) = &server.registration_endpoint else {
        if !config.registered.is_empty() {
            let issuers: Vec<String> =
                config.registered.iter().map(|known| format!("`{}`", escaped(&known.issuer))).collect();
            return Err(format!(
                "the server at {server_url} names the authorization server `{}`, but this client's credentials \
                 are registered for {} (credentials are used only with the issuer they were registered for), \
                 and `{}` offers no registration: refused",
                escaped(&server.issuer),
                issuers.join(", "),
                escaped(&server.issuer)
            ));
        }
        return Err(format!(
            "the authorization server `{}` offers no registration, and this client has no client id for it",
            escaped(&server.issuer)
        ));
    };
    let method = [Method::None, Method::Basic, Method::Post]
        .into_iter()
        .find(|method| methods.contains(method))
        .unwrap_or(Method::None);
    let loopback = ["http://localhost", "http://127.0.0.1", "http://[::1]"]
        .iter()
        .any(|prefix| config.redirect_uri.starts_with(prefix));
    let request = json!({
        "client_name": config.client_name,
        "redirect_uris": [config.redirect_uri],
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": method.name(),
        "application_type": if loopback || !config.redirect_uri.starts_with("https://") { "native" } else { "web" },
    });
    let answer = post_json(client, endpoint, &request).await?;
    if !answer.status.is_success() {
        return Err(format!("registering at {endpoint} failed: {}", answer.oauth_error()));
    }
    let client_id = answer.json["client_id"].as_str().ok_or("the registration's answer has no client_id")?.to_owned();
    let secret = answer.json["client_secret"].as_str().map(str::to_owned);
    let method = answer.json["token_endpoint_auth_method"].as_str().and_then(Method::parse).unwrap_or(method);
    let method = if secret.is_none() { Method::None } else { method };
    Ok(Registration { client_id, secret, method })
}

/// The form `fields` with the client's credentials added (or set aside for HTTP Basic).
fn credentials(registration: &Registration, mut fields: Vec<(&'static str, String)>) -> Form {
    let mut basic = None;
    match (registration.method, registration.secret.as_deref()) {
        (Method::Basic, Some(secret)) => basic = Some((registration.client_id.clone(), secret.to_owned())),
        (Method::Post, Some(secret)) => {
            fields.push(("client_id", registration.client_id.clone()));
            fields.push(("client_secret", secret.to_owned()));
        }
        _ => fields.push(("client_id", registration.client_id.clone())),
    }
    Form { fields, basic }
}

/// Random bytes as base64url text: a PKCE verifier, a `state`.
fn random_text() -> Result<String, String> {
    let bytes = crate::random::bytes::<32>().map_err(|error| error.to_string())?;
    Ok(BASE64_URL_SAFE_NO_PAD.encode(bytes))
}

/// Runs the authorization code flow for `scopes` and returns the token
/// (bound to the DPoP key, when there is one and the server binds it).
pub(crate) async fn authorize(
    client: &HttpClient,
    config: &Config,
    discovered: &Discovered,
    registration: &Registration,
    scopes: &[String],
    dpop: Option<&Dpop>,
) -> Result<Token, String> {
    let server = &discovered.server;
    let s256 =
        server.code_challenge_methods_supported.as_ref().is_some_and(|methods| methods.iter().any(|m| m == "S256"));
    if !s256 {
        return Err(format!("the authorization server `{}` does not support PKCE with S256: refused", server.issuer));
    }
    let Some(authorization_endpoint) = &server.authorization_endpoint else {
        return Err(format!(
            "the authorization server `{}` has no authorization endpoint (it serves only grants without a person)",
            escaped(&server.issuer)
        ));
    };
    let verifier = random_text()?;
    let challenge = BASE64_URL_SAFE_NO_PAD.encode(hmac_sha256::Hash::hash(verifier.as_bytes()));
    let state = random_text()?;
    let scope = scopes.join(" ");
    let mut fields = vec![
        ("response_type", "code"),
        ("client_id", registration.client_id.as_str()),
        ("redirect_uri", config.redirect_uri.as_str()),
        ("code_challenge", challenge.as_str()),
        ("code_challenge_method", "S256"),
        ("state", state.as_str()),
        ("resource", discovered.resource.as_str()),
    ];
    if !scope.is_empty() {
        fields.push(("scope", scope.as_str()));
    }
    let url = openable(with_query(authorization_endpoint, &fields), &server.issuer)?;
    let back = match &config.authorizer {
        Authorizer::Person(authorize) => {
            authorize(url).await.map_err(|error| format!("authorization was not given: {error}"))?
        }
        Authorizer::Unattended => redirect_of(client, &url).await?,
    };
    let answer = query(&back);
    let field = |name: &str| answer.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str());
    if let Some(error) = field("error") {
        let description = field("error_description").map(|text| format!(" ({text})")).unwrap_or_default();
        return Err(format!("the authorization server refused: {error}{description}"));
    }
    if field("state") != Some(state.as_str()) {
        return Err("the authorization response's state is not the one sent: refused".into());
    }
    // RFC 9207: an `iss` is compared exactly, and required where advertised.
    match field("iss") {
        Some(iss) if iss != server.issuer => {
            return Err(format!("the authorization response comes from `{iss}`, not `{}`: refused", server.issuer));
        }
        None if server.authorization_response_iss_parameter_supported == Some(true) => {
            return Err("the authorization response has no `iss`, which its server promised: refused".into());
        }
        _ => {}
    }
    let code = field("code").ok_or("the authorization response has no code")?;
    let fields = vec![
        ("grant_type", "authorization_code".to_owned()),
        ("code", code.to_owned()),
        ("redirect_uri", config.redirect_uri.clone()),
        ("code_verifier", verifier),
        ("resource", discovered.resource.clone()),
    ];
    let make = || Ok(credentials(registration, fields.clone()));
    let answer = post_token(client, &server.token_endpoint, dpop, make).await?;
    token_of(&answer, None, dpop.is_some())
}

/// `url` when it may be handed to the application to open (or fetched,
/// unattended): `https://` with a host, or `http://` on a loopback host
/// (`localhost`, `127.0.0.0/8`, `::1`). Anything else (`javascript:`,
/// `file:`, a program's name, `http://` elsewhere) is refused, naming it.
pub(crate) fn openable(url: String, issuer: &str) -> Result<String, String> {
    let refused = |why: &str| {
        Err(format!(
            "the authorization endpoint `{}` of `{}` {why}: refused (only https://, or http:// on loopback, is opened)",
            escaped(&url),
            escaped(issuer)
        ))
    };
    let Ok(uri) = url.parse::<hyper::Uri>() else { return refused("is not a URL") };
    let host = uri.host().unwrap_or_default().trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
    if host.is_empty() {
        return refused("has no host");
    }
    let loopback = host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|address| address.is_loopback());
    match uri.scheme_str().map(str::to_ascii_lowercase).as_deref() {
        Some("https") => Ok(url),
        Some("http") if loopback => Ok(url),
        Some("http") => refused("is plain http:// on a host that is not loopback"),
        Some(_) => refused("is not an https:// URL"),
        None => refused("is not an absolute URL"),
    }
}

/// A new token for `token` from its refresh token.
pub(crate) async fn refresh(
    client: &HttpClient,
    discovered: &Discovered,
    registration: &Registration,
    refresh_token: &str,
    dpop: Option<&Dpop>,
) -> Result<Token, String> {
    let fields = vec![
        ("grant_type", "refresh_token".to_owned()),
        ("refresh_token", refresh_token.to_owned()),
        ("resource", discovered.resource.clone()),
    ];
    let make = || Ok(credentials(registration, fields.clone()));
    let answer = post_token(client, &discovered.server.token_endpoint, dpop, make).await?;
    token_of(&answer, Some(refresh_token), dpop.is_some())
}

#[cfg(test)]
mod tests {
    use super::openable;

    #[test]
    fn only_https_or_loopback_http_is_opened() {
        for url in
            ["https://as.example.com/authorize?x=1", "http://127.0.0.1:9/a", "http://[::1]/a", "http://localhost/a"]
        {
            assert_eq!(openable(url.to_owned(), "i").as_deref(), Ok(url));
        }
        for url in [
            "javascript:alert(1)//",
            "file:///etc/passwd",
            "calc.exe",
            "/usr/bin/xcalc",
            "http://as.example.com/authorize",
            "data:text/html,hi",
            "ftp://as.example.com/",
            "https:///no-host",
        ] {
            let error = openable(url.to_owned(), "issuer").unwrap_err();
            assert!(error.contains(url) && error.contains("refused"), "{url}: {error}");
        }
    }
}
