//! The runtime of [codeagent](https://docs.rs/codeagent): the three-channel
//! tool result, Artifact v1, typed outputs, and the MCP model.
//!
//! Most users depend on the `codeagent` facade crate instead, which re-exports
//! everything here along with the `#[tool]` macro.
//!
//! # Layering
//!
//! The modules form layers, top to bottom; a module imports only from the
//! layers drawn below it (`tests/layering.rs` reads this drawing and checks
//! every import against it):
//!
//! ```text
//! __private        what the macros' expansions call (not a public API)  → toolbox, output, result, mcp
//! server           the MCP engine, and the CLI (`--agent` drives the agent)   (may use everything below)
//! agent            the agent loop and the model clients (feature `agent`)
//!                  → provider, toolbox, result, output, mcp
//! provider         tool definitions for LLM APIs (OpenAI, Anthropic, Gemini), from a
//!                  Toolbox; the CLI's `--list --format` prints them → toolbox, mcp
//! toolbox          the tool runtime                             (may use everything below)
//!   output         typed outputs, lowered into a ToolResult     → result, mcp, artifact, finite_json
//!   result         ToolResult and ToolResultEvent: building, adapting,
//!                  and converting to and from MCP's CallToolResult
//!                                                               → display, access, mcp, artifact
//!   display        the HTML presentation channel and its card   → access, artifact
//!   access         Channels, reading any result shape           → mcp (wire keys), artifact
//!   mcp            the MCP wire model: content, CallToolResult, tool definitions,
//!                  protocol versions, methods, `_meta` keys     → finite_json
//!   ui             the MCP Apps view and the host page (HTML, CSS, JavaScript)   (nothing)
//!   artifact       Artifact v1                                  (nothing)
//!   finite_json    JSON conversion refusing non-finite numbers  (nothing; private)
//!   random         the one source of randomness, failing closed (nothing; private)
//!   schema_ref     the one `$ref` walk of JSON Schemas: resolve, follow, inline
//!                  (nothing; private)
//! ```
//!
//! Below them all, in a crate of its own, `codeagent-uri-template` (re-exported
//! as [`uri_template`]): RFC 6570 URI templates (parse, expand, match), which
//! depends on nothing of codeagent (only `regex-lite`, `thiserror`, `serde`).
//! The `#[resource]` macro uses the same crate, so a template is checked when
//! the program is built with the parser that serves it.
//!
//! The MCP model knows nothing of the three-channel result: the lowering
//! between the two belongs to [`ToolResult`]
//! ([`ToolResult::into_call_result`], [`ToolResult::from_mcp`]), and a tool
//! returning a [`CallToolResult`](mcp::CallToolResult) goes through
//! [`IntoToolResult`], in `output`.

pub mod access;
#[cfg(feature = "agent")]
pub mod agent;
pub mod artifact;
pub mod display;
mod finite_json;
pub mod mcp;
pub mod output;
#[cfg(feature = "provider")]
pub mod provider;
mod random;
pub mod result;
mod schema_ref;
pub mod server;
pub mod toolbox;
pub mod ui;
pub use codeagent_uri_template as uri_template;

pub use access::Channels;
pub use artifact::{Artifact, ArtifactRef, Kind, Status, Versions};
pub use output::{Code, Column, ColumnType, Diff, Image, IntoToolResult, Json, Output, Table, Text, ToolError};
pub use random::RandomError;
pub use result::{ToolResult, ToolResultEvent};

/// What the `#[tool]` macro's expansion refers to. Not a public API: it
/// changes without notice.
#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
