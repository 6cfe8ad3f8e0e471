//! The one HTTP client of the agent: hyper with a pooled connector, TLS by
//! rustls with its ring provider and the webpki roots; `http://` too, for
//! local servers (Ollama, vLLM, llama.cpp) and tests.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response};

use super::error::AgentError;
use super::retry::RetryPolicy;
use crate::net::{HttpClient, describe, http_client};

/// The largest non-streamed answer read: 64 MiB.
const BODY_LIMIT: usize = 64 * 1024 * 1024;
/// How long to wait for a connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait for an answer's status line once the request is sent.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(600);
/// How much of an error body goes into the error message.
const ERROR_BODY_CHARS: usize = 2000;

/// A pooled HTTP/1.1 client for `https://` and `http://` URLs.
#[derive(Clone)]
pub(super) struct Http {
    client: HttpClient,
}

impl Http {
    pub(super) fn new() -> Self {
        Http { client: http_client(CONNECT_TIMEOUT) }
    }

    /// Posts `body` (JSON) to `url` with `headers`, retrying 429 and 5xx as
    /// `retry` says; the answer once its status is a success, an error otherwise.
    pub(super) async fn post(
        &self,
        url: &str,
        headers: &[(&'static str, String)],
        body: Bytes,
        retry: &RetryPolicy,
    ) -> Result<Response<Incoming>, AgentError> {
        let uri: hyper::Uri =
            url.parse().map_err(|error| AgentError::BadBaseUrl { url: url.to_owned(), reason: format!("{error}") })?;
        let mut attempt = 0;
        loop {
            let mut request = Request::post(uri.clone()).header("content-type", "application/json");
            for (name, value) in headers {
                request = request.header(*name, value);
            }
            let request = request
                .body(Full::new(body.clone()))
                .map_err(|error| AgentError::BadBaseUrl { url: url.to_owned(), reason: error.to_string() })?;
            let answer = tokio::time::timeout(ANSWER_TIMEOUT, self.client.request(request)).await;
            let response = match answer {
                Err(_) => return Err(unreachable(url, format!("no answer within {ANSWER_TIMEOUT:?}"), None)),
                Ok(Err(error)) => return Err(unreachable(url, describe(&error), Some(Box::new(error)))),
                Ok(Ok(response)) => response,
            };
            let status = response.status();
            if status.is_success() {
                return Ok(response);
            }
            if RetryPolicy::retries(status) && attempt < retry.max_retries() {
                attempt += 1;
                let wait = retry.delay(attempt, response.headers());
                tracing::warn!("{url} answered HTTP {}; retry {attempt} in {wait:?}", status.as_u16());
                tokio::time::sleep(wait).await;
                continue;
            }
            let text = read(response).await.map(|body| error_text(&body)).unwrap_or_else(|error| error.to_string());
            return Err(AgentError::Http { url: url.to_owned(), status: status.as_u16(), body: text });
        }
    }
}

/// The whole body of an answer (at most 64 MiB).
pub(super) async fn read(response: Response<Incoming>) -> Result<Bytes, AgentError> {
    Limited::new(response.into_body(), BODY_LIMIT).collect().await.map(http_body_util::Collected::to_bytes).map_err(
        |error| AgentError::Unreachable {
            url: String::new(),
            reason: format!("reading the answer: {}", describe(&*error)),
            source: Some(error),
        },
    )
}

fn unreachable(url: &str, reason: String, source: Option<Box<dyn std::error::Error + Send + Sync>>) -> AgentError {
    AgentError::Unreachable { url: url.to_owned(), reason, source }
}

/// The message of an error body: its `error.message` (or `message`) when it
/// is JSON, else the text; on one line, shortened.
fn error_text(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let json: Option<serde_json::Value> = serde_json::from_str(&text).ok();
    let message = json.as_ref().and_then(|json| {
        let error = json.get("error").unwrap_or(json);
        error
            .get("message")
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
            .or_else(|| error.as_str().map(str::to_owned))
    });
    let message = message.unwrap_or_else(|| text.into_owned());
    let line = message.split_whitespace().collect::<Vec<_>>().join(" ");
    match line.char_indices().nth(ERROR_BODY_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None if line.is_empty() => "(no body)".to_owned(),
        None => line,
    }
}

#[cfg(test)]
mod tests {
    use super::error_text;

    #[test]
    fn error_bodies_become_one_line() {
        assert_eq!(error_text(br#"{"error": {"message": "Invalid model\nname", "type": "x"}}"#), "Invalid model name");
        assert_eq!(error_text(br#"{"error": "quota"}"#), "quota");
        assert_eq!(error_text(b"Bad Gateway\n"), "Bad Gateway");
        assert_eq!(error_text(b""), "(no body)");
    }
}
