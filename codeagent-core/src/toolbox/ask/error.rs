//! Why a question to the client got no answer.

use std::time::Duration;

use super::form::FormError;

/// Why [`Context::elicit`](crate::toolbox::Context::elicit),
/// [`sample`](crate::toolbox::Context::sample) or
/// [`roots`](crate::toolbox::Context::roots) has no answer. It converts into a
/// [`ToolError`](crate::ToolError), so `?` turns it into an error result the
/// model can read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AskError {
    /// The client did not declare the capability the question needs, so it
    /// is never asked.
    #[error("the client cannot be asked `{method}`: it did not declare the `{capability}` capability")]
    Unsupported {
        /// The method that would have been sent.
        method: &'static str,
        /// The client capability it needs.
        capability: &'static str,
    },
    /// The question needs a random id (a URL elicitation's) and the system
    /// gives no randomness: it is not asked.
    #[error("the question was not asked: it needs a random id")]
    NoRandomness(#[source] crate::RandomError),
    /// The tool runs with no client to ask (`toolbox.tools().call`, `--call`).
    #[error("nobody can be asked `{0}`: the tool runs without a client")]
    NoClient(&'static str),
    /// The request's transport cannot carry a question: a legacy HTTP request
    /// whose client accepts only a JSON response, not a stream.
    #[error(
        "the client cannot be asked `{0}` on this request: it accepts no event stream (send `Accept: text/event-stream`)"
    )]
    Unreachable(&'static str),
    /// The client did not answer in time.
    #[error("the client did not answer `{method}` within {} seconds", timeout.as_secs_f64())]
    TimedOut {
        /// The method asked.
        method: &'static str,
        /// How long the server waited.
        timeout: Duration,
    },
    /// The request was cancelled (or the client went away) while waiting.
    #[error("the request was cancelled while waiting for the client's answer")]
    Cancelled,
    /// The client answered with an error.
    #[error("the client refused `{method}`: {message} ({code})")]
    Refused {
        /// The method asked.
        method: &'static str,
        /// The JSON-RPC error code.
        code: i64,
        /// The client's message.
        message: String,
    },
    /// The client's answer does not have the shape the question allows.
    #[error("the client's answer to `{method}` is not valid: {problem}")]
    InvalidAnswer {
        /// The method asked.
        method: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// The type asked for is not an elicitation form.
    #[error("{0}")]
    NotAForm(FormError),
}
