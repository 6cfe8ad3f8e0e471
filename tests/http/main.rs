//! The Streamable HTTP transport: both eras, sessions, the security checks and limits, load, the host page.
//!
//! One test binary: each module was a binary of its own.

#[path = "../common/mod.rs"]
mod common;

mod host_page;
mod legacy;
mod limits;
mod modern;
mod security;
mod shared;
mod tasks;
