//! The MCP side of results: content blocks, protocol-native results, protocol
//! versions and their wire shapes.

/// The `_meta` key under which a result's artifact rides in an MCP `CallToolResult`.
pub const ARTIFACT_META_KEY: &str = "dev.codeagent/artifact";

/// The `extra` key under which a [`ToolResult`](crate::ToolResult) keeps the
/// protocol-native parts of an MCP result (`content`, `structuredContent`,
/// `_meta`), when it has them.
pub const NATIVE_EXTRA_KEY: &str = "mcp";
