#![doc = include_str!("../README.md")]

pub use codeagent_core::{
    Artifact, ArtifactRef, Channels, Code, Column, ColumnType, Diff, Image, IntoToolResult, Json, Kind, Output,
    Status, Table, Text, ToolError, ToolResult, ToolResultEvent, Versions,
};
pub use codeagent_core::{access, adapt, artifact, display, event, mcp, output, result};

/// Everything a tool author needs: `use codeagent::prelude::*;`.
pub mod prelude {
    pub use codeagent_core::{
        Channels, Code, Diff, Image, IntoToolResult, Json, Output, Table, Text, ToolError, ToolResult,
    };
}
