//! The Streamable HTTP transport: both eras, sessions, the security checks and limits, load, the host page.
//!
//! A module of the `server` test binary (`tests/server.rs`).

mod host_page;
mod legacy;
mod limits;
mod modern;
mod security;
mod shared;
mod tasks;
