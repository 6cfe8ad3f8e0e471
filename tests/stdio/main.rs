//! The stdio transport: framing, the process and its lifecycle, errors on the wire.
//!
//! One test binary: each module was a binary of its own.

#[path = "../common/mod.rs"]
mod common;

mod errors;
mod protocol;
