//! [`ModelClient`]: one model of one provider, where it is served and how to
//! authenticate, and the sending of one request (retried, streamed or not).

use std::fmt;
use std::pin::pin;

use bytes::Bytes;
use futures_util::StreamExt;

use super::error::AgentError;
use super::http::{self, Http};
use super::providers::{self, Reply, Request, Wire};
use super::retry::RetryPolicy;
use super::sse;
use crate::provider::Provider;

/// A model to talk to: a provider's wire format, the model's name, the base
/// URL and the API key.
///
/// ```
/// use codeagent_core::agent::ModelClient;
/// use codeagent_core::provider::Provider;
///
/// // Ollama's OpenAI-compatible endpoint: Chat Completions, no key.
/// let local = ModelClient::new(Provider::OpenAiChat, "llama3.2").with_base_url("http://localhost:11434/v1");
/// assert_eq!(local.base_url(), "http://localhost:11434/v1");
///
/// let claude: ModelClient = "anthropic:claude-sonnet-4-5".parse::<ModelClient>().unwrap().with_api_key("sk-...");
/// assert_eq!(claude.provider(), Provider::Anthropic);
/// assert_eq!(claude.base_url(), "https://api.anthropic.com");
/// ```
#[derive(Clone)]
pub struct ModelClient {
    provider: Provider,
    model: String,
    base_url: String,
    api_key: Option<String>,
    retry: RetryPolicy,
    max_tokens: Option<u32>,
    http: Http,
}

/// The environment variables of a provider: `(base URL, API key)`.
pub fn env_vars(provider: Provider) -> (&'static str, &'static str) {
    match provider {
        Provider::OpenAiChat | Provider::OpenAiResponses => ("OPENAI_BASE_URL", "OPENAI_API_KEY"),
        Provider::Anthropic => ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"),
        Provider::Gemini => ("GEMINI_BASE_URL", "GEMINI_API_KEY"),
    }
}

impl ModelClient {
    /// `model` of `provider` at the provider's public endpoint, without a key:
    /// `https://api.openai.com/v1`, `https://api.anthropic.com` or
    /// `https://generativelanguage.googleapis.com/v1beta`.
    pub fn new(provider: Provider, model: impl Into<String>) -> Self {
        ModelClient {
            provider,
            model: model.into(),
            base_url: providers::default_base_url(provider).to_owned(),
            api_key: None,
            retry: RetryPolicy::default(),
            max_tokens: None,
            http: Http::new(),
        }
    }

    /// `model` of `provider`, configured by the provider's usual environment
    /// variables:
    ///
    /// | provider | base URL (default) | key |
    /// |---|---|---|
    /// | OpenAI (`openai`, `openai-responses`) | `OPENAI_BASE_URL`, including `/v1` (`https://api.openai.com/v1`) | `OPENAI_API_KEY`, as `Authorization: Bearer` |
    /// | Anthropic | `ANTHROPIC_BASE_URL`, the host root (`https://api.anthropic.com`) | `ANTHROPIC_API_KEY`, as `x-api-key` |
    /// | Gemini | `GEMINI_BASE_URL`, including `/v1beta` (`https://generativelanguage.googleapis.com/v1beta`) | `GEMINI_API_KEY`, as `x-goog-api-key` |
    ///
    /// The key is required, except for an OpenAI-compatible server at another
    /// base URL (a local Ollama, vLLM or llama.cpp needs none).
    pub fn from_env(provider: Provider, model: impl Into<String>) -> Result<Self, AgentError> {
        let (base_variable, key_variable) = env_vars(provider);
        let read = |name: &str| std::env::var(name).ok().map(|value| value.trim().to_owned()).filter(|v| !v.is_empty());
        let mut client = ModelClient::new(provider, model);
        if let Some(base) = read(base_variable) {
            check_base_url(&base)?;
            client.base_url = base;
        }
        client.api_key = read(key_variable);
        let public = client.base_url == providers::default_base_url(provider);
        let optional = matches!(provider, Provider::OpenAiChat | Provider::OpenAiResponses) && !public;
        if client.api_key.is_none() && !optional {
            return Err(AgentError::MissingApiKey { provider, variable: key_variable });
        }
        Ok(client)
    }

    /// Sets the base URL: for OpenAI and Gemini including the version
    /// (`.../v1`, `.../v1beta`), for Anthropic the host root.
    #[must_use]
    pub fn with_base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = url.into();
        self
    }

    /// Sets the API key.
    #[must_use]
    pub fn with_api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(key.into());
        self
    }

    /// Sets how requests answered with 429 or 5xx are retried.
    #[must_use]
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Caps the tokens of each answer (Anthropic requires a cap: 4096 unless set).
    #[must_use]
    pub fn with_max_tokens(mut self, tokens: u32) -> Self {
        self.max_tokens = Some(tokens);
        self
    }

    /// The provider.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// The model, as it is sent.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The base URL.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The cap on each answer's tokens, when set.
    pub(super) fn max_tokens(&self) -> Option<u32> {
        self.max_tokens
    }

    /// Sends one request; its reply, the text deltas going to `on_text` as
    /// they arrive when streaming.
    pub(super) async fn send(
        &self,
        wire: &dyn Wire,
        request: &Request<'_>,
        turn: usize,
        on_text: &mut (dyn FnMut(String) + Send),
    ) -> Result<Reply, AgentError> {
        check_base_url(&self.base_url)?;
        let url = wire.url(&self.base_url, &self.model, request.stream);
        let body = Bytes::from(wire.body(request).to_string());
        let at_url = |error: AgentError| match error {
            AgentError::Unreachable { url: empty, reason, source } if empty.is_empty() => {
                AgentError::Unreachable { url: url.clone(), reason, source }
            }
            other => other,
        };
        let response = self.http.post(&url, &wire.headers(self.api_key.as_deref()), body, &self.retry).await?;
        // A server that ignores `stream` (some OpenAI-compatible ones do) answers whole.
        let events = response
            .headers()
            .get(hyper::header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.trim_start().starts_with("text/event-stream"));
        if !request.stream || !events {
            let bytes = http::read(response).await.map_err(at_url)?;
            let json = serde_json::from_slice(&bytes).map_err(|error| {
                AgentError::response(
                    self.provider,
                    format!("the answer is not JSON ({error}): {}", String::from_utf8_lossy(&bytes)),
                )
            })?;
            return wire.parse(json, turn);
        }
        let mut decoder = wire.decoder(turn);
        let mut events = pin!(sse::events(response));
        while let Some(event) = events.next().await {
            let event = event.map_err(at_url)?;
            if event.data.is_empty() {
                continue;
            }
            if let Some(text) = decoder.event(&event.data)? {
                on_text(text);
            }
        }
        if !decoder.done() {
            return Err(AgentError::response(self.provider, "the stream ended before the answer was complete"));
        }
        decoder.finish()
    }
}

/// Refuses what is not an `http://` or `https://` URL with a host.
fn check_base_url(url: &str) -> Result<(), AgentError> {
    let bad = |reason: &str| Err(AgentError::BadBaseUrl { url: url.to_owned(), reason: reason.to_owned() });
    let Ok(uri) = url.parse::<hyper::Uri>() else { return bad("not a URL") };
    match uri.scheme_str() {
        Some("http" | "https") if uri.host().is_some_and(|host| !host.is_empty()) => Ok(()),
        Some("http" | "https") => bad("no host"),
        _ => bad("expected an http:// or https:// URL"),
    }
}

impl std::str::FromStr for ModelClient {
    type Err = AgentError;

    /// `PROVIDER:MODEL`, such as `openai:gpt-4.1` or `gemini:gemini-2.5-flash`;
    /// everything after the first colon is the model (`openai:llama3.2:3b`).
    fn from_str(spec: &str) -> Result<Self, AgentError> {
        let (provider, model) = parse_spec(spec)?;
        Ok(ModelClient::new(provider, model))
    }
}

/// The provider and model of `PROVIDER:MODEL`.
pub fn parse_spec(spec: &str) -> Result<(Provider, String), AgentError> {
    let bad = |reason: String| AgentError::BadModel { spec: spec.to_owned(), reason };
    let Some((provider, model)) = spec.split_once(':') else {
        return Err(bad("expected PROVIDER:MODEL, such as openai:gpt-4.1".into()));
    };
    let provider: Provider = provider.parse().map_err(|_| {
        bad(format!("unknown provider `{provider}`: expected openai, openai-responses, anthropic or gemini"))
    })?;
    if model.trim().is_empty() {
        return Err(bad("no model after the colon".into()));
    }
    Ok((provider, model.to_owned()))
}

impl fmt::Debug for ModelClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModelClient")
            .field("provider", &self.provider)
            .field("model", &self.model)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .field("retry", &self.retry)
            .field("max_tokens", &self.max_tokens)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::{check_base_url, parse_spec};
    use crate::provider::Provider;

    #[test]
    fn reads_provider_and_model() {
        assert_eq!(parse_spec("openai:gpt-4.1").unwrap(), (Provider::OpenAiChat, "gpt-4.1".to_owned()));
        assert_eq!(parse_spec("openai:llama3.2:3b").unwrap().1, "llama3.2:3b");
        assert!(parse_spec("gpt-4.1").unwrap_err().to_string().contains("expected PROVIDER:MODEL"));
        assert!(parse_spec("mistral:large").unwrap_err().to_string().contains("unknown provider `mistral`"));
        assert!(parse_spec("gemini:").unwrap_err().to_string().contains("no model"));
    }

    #[test]
    fn base_urls_are_http_urls_with_a_host() {
        assert!(check_base_url("http://127.0.0.1:8080/v1").is_ok());
        assert!(check_base_url("https://api.openai.com/v1").is_ok());
        assert!(check_base_url("ftp://example.com").is_err());
        assert!(check_base_url("api.openai.com/v1").is_err());
    }
}
