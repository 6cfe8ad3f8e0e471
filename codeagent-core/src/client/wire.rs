//! What a transport does for the session: carry messages out, and put what
//! arrives into the session's inbox.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use super::ClientError;
use crate::mcp::ProtocolVersion;

/// A message for the server.
#[derive(Debug)]
pub(crate) struct Outgoing {
    /// The JSON-RPC message.
    pub(crate) message: Value,
    /// The id of a request (its answer, or its failure, comes back under it).
    pub(crate) id: Option<u64>,
    /// The version the connection speaks, once known (HTTP headers).
    pub(crate) version: Option<ProtocolVersion>,
    /// Headers of this request alone (HTTP): the `x-mcp-header` parameters of a tool call.
    pub(crate) headers: Vec<(String, String)>,
    /// Made for a caller (a mounted tool's, resource's or prompt's), not by
    /// the client on its own behalf.
    pub(crate) acting: Option<Acting>,
}

/// The caller a request is made for (`None`: it came without an identity).
#[derive(Clone, Debug)]
pub(crate) struct Acting(pub(crate) Option<crate::toolbox::Caller>);

impl Outgoing {
    /// A message that is not a request.
    pub(crate) fn other(message: Value, version: Option<ProtocolVersion>) -> Outgoing {
        Outgoing { message, id: None, version, headers: Vec::new(), acting: None }
    }
}

/// What a transport puts in the session's inbox.
#[derive(Debug)]
pub(crate) enum Inbound {
    /// A message from the server.
    Message(Value),
    /// The exchange of request `id` failed (HTTP): its caller gets `error`.
    Failed { id: u64, error: ClientError },
    /// Something arrived that is not a message (a line that is not JSON).
    Problem(String),
    /// The connection ended, for this reason.
    Closed(String),
}

/// A transport: stdio lines or Streamable HTTP.
pub(crate) trait Wire: Send + Sync + 'static {
    /// Sends `outgoing`. Never waits: a request's answer comes through the inbox.
    fn send(&self, outgoing: Outgoing) -> Result<(), ClientError>;

    /// Stops request `id`'s own exchange, if it has one (HTTP: drops its
    /// response stream). Its `notifications/cancelled` is sent separately.
    fn abandon(&self, id: u64);

    /// Opens the stream of server-initiated messages (legacy HTTP's GET),
    /// where the transport has one: whether the server answered it with a
    /// stream. `false` where there is none (stdio carries them on the one
    /// stream, and a server may refuse the GET).
    fn open_events(&self, version: ProtocolVersion) -> Pin<Box<dyn Future<Output = bool> + Send + '_>>;

    /// Closes the connection (legacy HTTP: ends the session).
    fn close(&self);

    /// Whether 2026-07-28 tool calls mirror arguments into headers (HTTP).
    fn mirrors_arguments(&self) -> bool {
        false
    }

    /// The end of the server's standard error, for a process.
    fn stderr(&self) -> Option<String> {
        None
    }
}
