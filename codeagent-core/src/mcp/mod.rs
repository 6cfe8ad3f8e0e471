//! The MCP side of results: content blocks, protocol-native results, tool
//! definitions, protocol versions and their wire shapes.

mod annotations;
mod call_result;
pub(crate) use call_result::restore_from_structured;
mod content;
mod error;
mod icon;
pub mod meta;
mod method;
mod tool;
mod version;
mod wire;

pub use annotations::{Annotations, Role};
pub use call_result::{CallToolResult, IntoContent};
pub(crate) use content::checked_uri;
pub use content::{ContentBlock, EmbeddedResource, MediaContent, ResourceContents, ResourceLink, TextContent};
pub use error::InvalidContent;
pub use icon::{Icon, Theme};
pub use method::{Method, Notification};
pub use tool::{ToolAnnotations, ToolDefinition};
pub use version::{ProtocolVersion, UnsupportedVersion};
pub use wire::{LOWERED_AUDIO_URI, output_schema_for};

/// The `_meta` key under which a result's artifact rides in an MCP `CallToolResult`.
///
/// Image bytes are not repeated there: each entry of `payload.images` carries
/// `"content": i`, the index of its image block in the result's `content`, in
/// place of `b64`. Nor is structured content: a table's payload carries
/// `"structuredContent": "df"` in place of its `df`, which is the result's
/// `structuredContent`, and the code artifact of [`Json`](crate::Json) carries
/// `"structuredContent": "text"` in place of its `text`, which is that
/// content pretty-printed (see [`FROM_STRUCTURED_KEY`]).
/// [`ToolResult::from_mcp`](crate::ToolResult::from_mcp) puts both back.
pub const ARTIFACT_META_KEY: &str = "dev.codeagent/artifact";

/// The payload key by which an artifact in `_meta` names the field it left
/// out because the result's `structuredContent` holds it: `"df"` (the table
/// itself) or `"text"` (the structured content pretty-printed as JSON).
/// Versions that send no `structuredContent` (2024-11-05, 2025-03-26), or send
/// it wrapped as `{"result": ...}`, get the field in the artifact instead.
pub const FROM_STRUCTURED_KEY: &str = "structuredContent";

/// The `extra` key under which a [`ToolResult`](crate::ToolResult) keeps the
/// protocol-native parts of an MCP result (`content`, `structuredContent`,
/// `_meta`), when it has them.
pub const NATIVE_EXTRA_KEY: &str = "mcp";
