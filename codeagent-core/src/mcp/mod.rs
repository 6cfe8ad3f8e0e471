//! The MCP side of results: content blocks, protocol-native results, tool
//! definitions, protocol versions and their wire shapes.

mod annotations;
mod call_result;
pub mod codes;
pub(crate) use call_result::restore_from_structured;
mod content;
mod error;
mod icon;
mod implementation;
pub(crate) mod message_member;
pub mod meta;
mod method;
mod prompt;
mod resource;
mod root;
mod tool;
mod version;
mod wire;

pub use annotations::{Annotations, Role};
pub use call_result::{CallToolResult, IntoContent};
pub(crate) use content::checked_uri;
pub use content::{ContentBlock, EmbeddedResource, MediaContent, ResourceContents, ResourceLink, TextContent};
pub use error::InvalidContent;
pub(crate) use error::json_type;
pub use icon::{Icon, Theme};
pub use implementation::{Implementation, ListCapability, ResourcesCapability, ServerCapabilities};
pub use meta::ARTIFACT_META_KEY;
pub use method::{Method, Notification};
pub use prompt::{GetPromptResult, PromptArgumentDefinition, PromptDefinition, PromptMessage};
pub use resource::{ReadResourceResult, ResourceDefinition, ResourceTemplateDefinition};
pub use root::Root;
pub use tool::{ToolAnnotations, ToolDefinition};
pub use version::{ProtocolVersion, UnsupportedVersion};
pub use wire::{LOWERED_AUDIO_URI, output_schema_for};

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
