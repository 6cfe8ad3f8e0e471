//! The runtime of [codeagent](https://docs.rs/codeagent): the three-channel
//! tool result, Artifact v1, typed outputs, and the MCP model.
//!
//! Most users depend on the `codeagent` facade crate instead, which re-exports
//! everything here along with the `#[tool]` macro.

pub mod access;
pub mod adapt;
pub mod artifact;
pub mod display;
pub mod event;
pub mod mcp;
pub mod output;
pub mod result;
pub mod server;
pub mod toolbox;

pub use access::Channels;
pub use artifact::{Artifact, ArtifactRef, Kind, Status, Versions};
pub use event::ToolResultEvent;
pub use output::{Code, Column, ColumnType, Diff, Image, IntoToolResult, Json, Output, Table, Text, ToolError};
pub use result::ToolResult;

/// What the `#[tool]` macro's expansion refers to. Not a public API: it
/// changes without notice.
#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
