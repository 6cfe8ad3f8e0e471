//! The server over its transports, in one test binary (one link instead of
//! three): what it does the same over every transport ([`behaviour`]), and
//! what only one transport has: the stdio framing and process ([`stdio`]),
//! Streamable HTTP's eras, sessions, security checks and limits ([`http`]).
//!
//! `cargo test --test server http::security` runs one module.

#[macro_use]
mod common;

mod behaviour;
mod http;
mod stdio;
