//! Protocol-native results: an MCP [`CallToolResult`] returned from a tool.

use super::IntoToolResult;
use crate::mcp::{CallToolResult, ProtocolVersion};
use crate::result::ToolResult;

impl IntoToolResult for CallToolResult {
    fn into_tool_result(self) -> ToolResult {
        ToolResult::from_mcp(&self.into_wire(ProtocolVersion::LATEST, None))
    }
}
