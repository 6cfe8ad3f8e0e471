//! Why an agent run failed. Tool failures are not among them: they go back
//! to the model as error results.

use crate::provider::{NotStrict, Provider};

/// An agent run that could not go on: the model could not be reached or
/// answered with an error, or the tools could not be offered.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AgentError {
    /// The API key's environment variable is not set.
    #[error("{variable} is not set: {provider} needs an API key")]
    MissingApiKey {
        /// The provider.
        provider: Provider,
        /// The variable, such as `OPENAI_API_KEY`.
        variable: &'static str,
    },
    /// A `PROVIDER:MODEL` that names no provider or no model.
    #[error("bad model `{spec}`: {reason}")]
    BadModel {
        /// What was given.
        spec: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A base URL that is not an `http://` or `https://` URL.
    #[error("bad base URL `{url}`: {reason}")]
    BadBaseUrl {
        /// What was given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The toolbox's tools cannot be offered to the provider.
    #[error("{}", not_offered(.0))]
    Tools(Vec<NotStrict>),
    /// The server could not be reached (connection refused, DNS, TLS, timeout).
    #[error("cannot reach {url}: {reason}")]
    Unreachable {
        /// The request's URL.
        url: String,
        /// What went wrong, with its causes.
        reason: String,
        /// The HTTP client's error, typed, when there is one (none for a timeout).
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// The provider answered with an HTTP error (after any retries).
    #[error("{url} answered HTTP {status}: {body}")]
    Http {
        /// The request's URL.
        url: String,
        /// The status code.
        status: u16,
        /// The provider's message (its error body, shortened).
        body: String,
    },
    /// The provider's answer is not what its API defines, or reports an error
    /// in the middle of a stream.
    #[error("unexpected answer from {provider}: {reason}")]
    Response {
        /// The provider.
        provider: Provider,
        /// What is wrong with it.
        reason: String,
    },
    /// A blocking form was called from inside an async runtime.
    #[error("Agent::run_blocking was called inside an async runtime; use Agent::run there")]
    InsideRuntime,
    /// The async runtime of a blocking form could not be built.
    #[error("cannot start a runtime: {0}")]
    Runtime(#[source] std::io::Error),
}

fn not_offered(refused: &[NotStrict]) -> String {
    let tools: Vec<String> = refused.iter().map(ToString::to_string).collect();
    format!("the tools cannot be offered: {}", tools.join("; "))
}

impl AgentError {
    pub(super) fn response(provider: Provider, reason: impl Into<String>) -> Self {
        AgentError::Response { provider, reason: reason.into() }
    }
}
