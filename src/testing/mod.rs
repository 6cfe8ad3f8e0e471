//! Testing a toolbox through the real protocol (feature `testing`).
//!
//! [`connect`] gives a [`Client`] of a [`Server`] in the same process: the
//! real engine, every message framed and parsed as over stdio, without a
//! process or a socket, in any protocol version. [`Golden`] snapshots what a
//! client receives (a toolbox's listings, a call's result) in every protocol
//! version, checks each against that version's official schema, and shows a
//! readable diff when it changes.
//!
//! ```
//! use codeagent::Server;
//! use codeagent::prelude::*;
//! use codeagent::testing;
//! use serde_json::json;
//!
//! /// Add two integers.
//! #[tool]
//! fn add(
//!     /// The first addend.
//!     a: i64,
//!     /// The second addend.
//!     b: i64,
//! ) -> i64 {
//!     a + b
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let server = Server::new(Toolbox::new().tool(add));
//! for &version in ProtocolVersion::ALL {
//!     let client = testing::connect(&server, version).await;
//!     let output = client.call("add", json!({"a": 2, "b": 3})).await.unwrap();
//!     assert_eq!(output.result().value(), "5");
//! }
//! # }
//! ```

mod golden;

pub use golden::{BLESS_VAR, Golden};

use codeagent_core::client::{Client, Handlers, Protocol};
use codeagent_core::mcp::ProtocolVersion;
use codeagent_core::server::Server;

/// How many bytes the in-process pipe holds each way.
const PIPE_BYTES: usize = 1 << 20;

/// A client of `server` in this process, speaking `version`.
///
/// Panics when the handshake fails: in a test, that is the failure.
pub async fn connect(server: &Server, version: ProtocolVersion) -> Client {
    connect_with(server, Protocol::Only(version), Handlers::new()).await
}

/// A client of `server` in this process, speaking `protocol` and answering
/// the server's questions with `handlers`.
///
/// Panics when the handshake fails.
pub async fn connect_with(server: &Server, protocol: Protocol, handlers: Handlers) -> Client {
    let (client_side, server_side) = tokio::io::duplex(PIPE_BYTES);
    let (server_read, server_write) = tokio::io::split(server_side);
    let server = server.clone();
    tokio::spawn(async move {
        if let Err(error) = server.serve(server_read, server_write).await {
            panic!("the in-process server failed: {error}");
        }
    });
    let (read, write) = tokio::io::split(client_side);
    match Client::builder().protocol(protocol).handlers(handlers).stream(read, write).await {
        Ok(client) => client,
        Err(error) => panic!("connecting to the in-process server ({protocol:?}): {error}"),
    }
}
