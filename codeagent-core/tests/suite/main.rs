//! The integration tests of `codeagent-core`, in one test binary (one link
//! instead of one per file): each module was a binary of its own.
//!
//! - [`adaptation`]: adapting untrusted or legacy results;
//! - [`display`]: the HTML card;
//! - [`golden`]: the exact wire output of every typed output;
//! - [`layering`]: the crate's modules form layers;
//! - [`mcp_wire`]: the MCP wire format against the official schemas;
//! - [`properties`]: property tests of the trust boundary.
//!
//! `cargo test -p codeagent-core --test suite golden::` runs one of them.

mod adaptation;
mod display;
mod golden;
mod layering;
mod mcp_wire;
mod properties;
