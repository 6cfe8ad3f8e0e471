//! The HTTP exchanges of authorization: metadata documents read, forms and
//! registrations posted, an authorization endpoint's redirect read. Every
//! body is bounded and every exchange has a deadline.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE};
use hyper::{Request, StatusCode, Uri};
use serde_json::Value;

use crate::net::{HttpClient, describe};

/// The largest document read: 1 MiB.
const LIMIT: usize = 1024 * 1024;
/// How long one exchange may take.
const DEADLINE: Duration = Duration::from_secs(30);

/// An answer: its status, its body as JSON (`Null` when it is not JSON),
/// and the `DPoP-Nonce` it gave, if any (RFC 9449 §8).
pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    pub(crate) json: Value,
    /// Read by the client's DPoP (the server's introspection has no use for it).
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub(crate) dpop_nonce: Option<String>,
}

impl Answer {
    /// The OAuth error an error answer names (`error`, `error_description`).
    pub(crate) fn oauth_error(&self) -> String {
        match (self.json["error"].as_str(), self.json["error_description"].as_str()) {
            (Some(error), Some(description)) => format!("HTTP {}: {error} ({description})", self.status.as_u16()),
            (Some(error), None) => format!("HTTP {}: {error}", self.status.as_u16()),
            _ => format!("HTTP {}", self.status.as_u16()),
        }
    }
}

/// Sends `request` and reads the answer.
async fn send(client: &HttpClient, request: Request<Full<Bytes>>, url: &str) -> Result<Answer, String> {
    let exchange = async {
        let response = client.request(request).await.map_err(|error| format!("{url}: {}", describe(&error)))?;
        let status = response.status();
        let dpop_nonce = response.headers().get("dpop-nonce").and_then(|value| value.to_str().ok()).map(str::to_owned);
        let body = Limited::new(response.into_body(), LIMIT)
            .collect()
            .await
            .map_err(|error| format!("reading {url}: {}", describe(&*error)))?
            .to_bytes();
        Ok(Answer { status, json: serde_json::from_slice(&body).unwrap_or(Value::Null), dpop_nonce })
    };
    tokio::time::timeout(DEADLINE, exchange).await.map_err(|_| format!("{url} did not answer within {DEADLINE:?}"))?
}

fn uri(url: &str) -> Result<Uri, String> {
    url.parse().map_err(|error| format!("`{url}` is not a URL: {error}"))
}

/// `GET url`, accepting JSON.
pub(crate) async fn get_json(client: &HttpClient, url: &str) -> Result<Answer, String> {
    let request = Request::get(uri(url)?)
        .header(ACCEPT, "application/json")
        .body(Full::new(Bytes::new()))
        .map_err(|error| error.to_string())?;
    send(client, request, url).await
}

/// `POST url` of `json`.
#[cfg(feature = "client")]
pub(crate) async fn post_json(client: &HttpClient, url: &str, json: &Value) -> Result<Answer, String> {
    let body = serde_json::to_vec(json).map_err(|error| error.to_string())?;
    let request = Request::post(uri(url)?)
        .header(CONTENT_TYPE, "application/json")
        .header(ACCEPT, "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|error| error.to_string())?;
    send(client, request, url).await
}

/// `POST url` of the form `fields`, with HTTP Basic credentials when given
/// (RFC 6749 §2.3.1: each part form-encoded before it is joined).
#[cfg(feature = "auth")]
pub(crate) async fn post_form(
    client: &HttpClient,
    url: &str,
    fields: &[(&str, &str)],
    basic: Option<(&str, &str)>,
) -> Result<Answer, String> {
    post_form_with(client, url, fields, basic, &[]).await
}

/// [`post_form`] with more `headers` (a `DPoP` proof).
pub(crate) async fn post_form_with(
    client: &HttpClient,
    url: &str,
    fields: &[(&str, &str)],
    basic: Option<(&str, &str)>,
    headers: &[(&str, &str)],
) -> Result<Answer, String> {
    let body = form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish();
    let mut request = Request::post(uri(url)?)
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header(ACCEPT, "application/json");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some((id, secret)) = basic {
        use base64::Engine as _;
        let encode = |part: &str| form_urlencoded::byte_serialize(part.as_bytes()).collect::<String>();
        let pair = format!("{}:{}", encode(id), encode(secret));
        request = request.header(AUTHORIZATION, format!("Basic {}", base64::prelude::BASE64_STANDARD.encode(pair)));
    }
    let request = request.body(Full::new(Bytes::from(body))).map_err(|error| error.to_string())?;
    send(client, request, url).await
}

/// Where `GET url` redirects to (its `Location`, resolved against `url`),
/// without following it.
#[cfg(feature = "client")]
pub(crate) async fn redirect_of(client: &HttpClient, url: &str) -> Result<String, String> {
    let request = Request::builder()
        .method(hyper::Method::GET)
        .uri(uri(url)?)
        .body(Full::new(Bytes::new()))
        .map_err(|error| error.to_string())?;
    let exchange = client.request(request);
    let response = tokio::time::timeout(DEADLINE, exchange)
        .await
        .map_err(|_| format!("{url} did not answer within {DEADLINE:?}"))?
        .map_err(|error| format!("{url}: {}", describe(&error)))?;
    if !response.status().is_redirection() {
        return Err(format!(
            "the authorization endpoint answered HTTP {} instead of redirecting: it wants a person",
            response.status().as_u16()
        ));
    }
    let location = response
        .headers()
        .get(hyper::header::LOCATION)
        .and_then(|value| value.to_str().ok())
        .ok_or("the authorization endpoint redirected without a Location")?;
    Ok(resolve(url, location))
}

/// `reference` resolved against `base` (an absolute URL, a path, or a query).
#[cfg(feature = "client")]
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    if reference.contains("://") {
        return reference.to_owned();
    }
    let origin = super::url::origin(base).unwrap_or_default();
    if reference.starts_with('/') {
        format!("{origin}{reference}")
    } else {
        let path = base.split(['?', '#']).next().unwrap_or(base);
        let directory = path.rfind('/').map_or(path, |slash| &path[..=slash]);
        format!("{directory}{reference}")
    }
}
