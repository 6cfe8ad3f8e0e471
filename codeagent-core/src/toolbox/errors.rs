//! Why a toolbox refused something: a tool name taken, a call that cannot
//! start, a listing cursor it did not hand out.

/// Why a call could not even start: the protocol-level errors of `tools/call`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CallError {
    /// No tool has this name.
    #[error("Unknown tool: {0}")]
    UnknownTool(String),
    /// The arguments are not a JSON object.
    #[error("Invalid arguments for tool {tool}: arguments must be an object, got {found}")]
    ArgumentsNotAnObject {
        /// The tool.
        tool: String,
        /// The JSON type that was sent instead.
        found: &'static str,
    },
}

/// A tool name that is already taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the toolbox already has a tool named `{name}`; tool names must be unique")]
pub struct DuplicateTool {
    name: String,
}

impl DuplicateTool {
    pub(crate) fn new(name: impl Into<String>) -> Self {
        DuplicateTool { name: name.into() }
    }

    /// The name that is taken.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// A `tools/list` cursor this toolbox did not hand out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Invalid cursor: `{cursor}`")]
pub struct InvalidCursor {
    cursor: String,
}

impl InvalidCursor {
    pub(crate) fn new(cursor: impl Into<String>) -> Self {
        InvalidCursor { cursor: cursor.into() }
    }

    /// The cursor that was sent.
    pub fn cursor(&self) -> &str {
        &self.cursor
    }
}
