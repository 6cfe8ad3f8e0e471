//! The stdio transport: framing, the process and its lifecycle, errors on the wire.
//!
//! A module of the `server` test binary (`tests/server.rs`).

mod errors;
mod protocol;
