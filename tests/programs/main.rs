//! Whole programs driven from outside: every example run as a client would run it, and (ignored unless asked for, as they need installs) real clients and hosts no one here wrote: the Python and TypeScript SDKs and the MCP Inspector, a real browser, Claude Code, Codex CLI and Gemini CLI.
//!
//! One test binary: each module was a binary of its own.

#[path = "../child/mod.rs"]
mod child;
#[path = "../common/mod.rs"]
mod common;

#[cfg(feature = "auth")]
#[allow(dead_code, reason = "the examples use part of the issuer's controls")]
#[path = "../auth/issuer.rs"]
mod issuer;

mod browser;
mod examples;
mod hosts;
mod inspector;
mod interop;
