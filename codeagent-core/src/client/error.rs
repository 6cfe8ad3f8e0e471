//! What can go wrong talking to a server, each case naming what happened.

use std::time::Duration;

use serde_json::Value;

/// Why a client request failed.
///
/// A server that misbehaves (a malformed message, an answer to an id never
/// sent, a process that dies, no answer in time) gives one of these, never a
/// hang or a panic.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The server's process could not be started.
    #[error("could not start the server `{command}`: {source}")]
    Spawn {
        /// The program, as given.
        command: String,
        /// Why it did not start.
        source: std::io::Error,
    },
    /// The server's URL is not one this client can reach.
    #[error("`{url}` is not a server URL this client can use: {reason}")]
    BadUrl {
        /// The URL, as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The server could not be reached, or the connection broke.
    #[error("cannot reach the server at {url}: {reason}")]
    Unreachable {
        /// The server's URL.
        url: String,
        /// What failed.
        reason: String,
    },
    /// The server answered an HTTP request with an error status and no
    /// JSON-RPC error.
    #[error("the server at {url} answered {method} with HTTP {status}: {body}")]
    Http {
        /// The server's URL.
        url: String,
        /// The request's method.
        method: String,
        /// The HTTP status.
        status: u16,
        /// The start of the body, on one line.
        body: String,
    },
    /// The server wants authorization this client could not get (no
    /// [`OAuth`](super::OAuth) given, discovery or the flow failed, or the
    /// server still refused after three authorizations).
    #[error("the server at {url} needs authorization: {reason}")]
    Unauthorized {
        /// The server's URL.
        url: String,
        /// What went wrong.
        reason: String,
    },
    /// The connection is closed: the process exited, the stream ended, or the
    /// client was closed.
    #[error("the server connection is closed: {reason}")]
    Closed {
        /// What ended it (for a process: its exit status and the end of its stderr).
        reason: String,
    },
    /// The server answered with a JSON-RPC error.
    #[error("the server answered {method} with error {code}: {message}")]
    Rpc {
        /// The request's method.
        method: String,
        /// The JSON-RPC error code.
        code: i64,
        /// The error's message.
        message: String,
        /// The error's `data`, if any.
        data: Option<Box<Value>>,
    },
    /// No answer came in time.
    #[error("the server did not answer {method} within {timeout:?}{hint}", hint = hint(.problem))]
    Timeout {
        /// The request's method.
        method: String,
        /// How long the client waited.
        timeout: Duration,
        /// The last thing the server sent that made no sense, if any (an
        /// answer to an id never sent, a line that is not JSON).
        problem: Option<String>,
    },
    /// The server sent something that is not MCP.
    #[error("the server sent a malformed message: {0}")]
    Malformed(String),
    /// The server speaks no protocol version this client does, or not the one asked for.
    #[error("protocol version mismatch: {0}")]
    Version(String),
    /// The server kept asking for input past the client's limit of rounds.
    #[error("{method}: the server still asked for input after {rounds} rounds")]
    TooManyRounds {
        /// The request's method.
        method: String,
        /// The rounds answered.
        rounds: usize,
    },
    /// The server asked a question this client has no handler for.
    #[error("the server asked `{method}`, and this client has no handler for it")]
    Unanswerable {
        /// The question's method (`elicitation/create`, `sampling/createMessage`, `roots/list`).
        method: String,
    },
    /// A handler of this client refused the server's question.
    #[error("the `{method}` handler refused: {reason}")]
    Refused {
        /// The question's method.
        method: String,
        /// What the handler said.
        reason: String,
    },
    /// The server cancelled the task a request became (the tasks extension)
    /// before it ended.
    #[error("{method}: the server cancelled task {task} before it ended")]
    TaskCancelled {
        /// The request's method.
        method: String,
        /// The task's id.
        task: String,
    },
    /// The server sent more in one piece than this client holds: a message
    /// (a JSON answer, a line of a process's output) or one event of a
    /// stream larger than [`ClientBuilder::max_message_size`](super::ClientBuilder::max_message_size).
    /// The answer, stream or connection is dropped.
    #[error("{what} is larger than this client's limit of {limit} bytes (ClientBuilder::max_message_size): dropped")]
    TooLarge {
        /// What was too large.
        what: String,
        /// The limit, in bytes.
        limit: usize,
    },
    /// The request itself is not valid (arguments that are not an object, an
    /// unknown name).
    #[error("invalid request: {0}")]
    Invalid(String),
}

fn hint(problem: &Option<String>) -> String {
    problem.as_ref().map(|problem| format!(" (last problem seen: {problem})")).unwrap_or_default()
}

impl ClientError {
    /// The JSON-RPC error code, when the server answered with one.
    pub fn rpc_code(&self) -> Option<i64> {
        match self {
            ClientError::Rpc { code, .. } => Some(*code),
            _ => None,
        }
    }
}
