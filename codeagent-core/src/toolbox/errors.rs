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

/// A tool whose input schema states a constraint that argument checking
/// cannot enforce (a keyword or `format` it does not know, a `pattern` it
/// cannot compile, a `$ref` it cannot resolve). Rather than advertise a
/// constraint and ignore it, the toolbox refuses the tool.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the tool `{tool}` cannot be added: its input schema's {problem}")]
pub struct UnenforceableSchema {
    tool: String,
    problem: String,
}

impl UnenforceableSchema {
    pub(crate) fn new(tool: impl Into<String>, problem: impl Into<String>) -> Self {
        UnenforceableSchema { tool: tool.into(), problem: problem.into() }
    }

    /// The tool.
    pub fn tool(&self) -> &str {
        &self.tool
    }

    /// What cannot be enforced, and where in the schema.
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

/// Why [`Tools::try_add`](crate::tools::Tools::try_add) refused a tool.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AddToolError {
    /// The name is taken.
    #[error(transparent)]
    Duplicate(#[from] DuplicateTool),
    /// The input schema states a constraint that cannot be enforced.
    #[error(transparent)]
    Unenforceable(#[from] UnenforceableSchema),
    /// The tool asks the person for a form MCP elicitation cannot carry.
    #[error("the tool `{tool}` cannot be added: {problem}")]
    NotAForm {
        /// The tool.
        tool: String,
        /// The form type and what is wrong with it.
        problem: String,
    },
}

/// A resource URI or template that is already taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the toolbox already has a resource at `{address}`; resource URIs and templates must be unique")]
pub struct DuplicateResource {
    address: String,
}

impl DuplicateResource {
    pub(crate) fn new(address: impl Into<String>) -> Self {
        DuplicateResource { address: address.into() }
    }

    /// The URI or template that is taken.
    pub fn address(&self) -> &str {
        &self.address
    }
}

/// A prompt name that is already taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the toolbox already has a prompt named `{name}`; prompt names must be unique")]
pub struct DuplicatePrompt {
    name: String,
}

impl DuplicatePrompt {
    pub(crate) fn new(name: impl Into<String>) -> Self {
        DuplicatePrompt { name: name.into() }
    }

    /// The name that is taken.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// Why `completion/complete` could not be answered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompleteError {
    /// No prompt has this name.
    #[error("Unknown prompt: {0}")]
    UnknownPrompt(String),
    /// No resource template is this one.
    #[error("Unknown resource template: {0}")]
    UnknownTemplate(String),
    /// The prompt or template has no argument or variable of this name.
    #[error("`{reference}` has no argument `{argument}`")]
    UnknownArgument {
        /// The prompt name or template.
        reference: String,
        /// The argument or variable.
        argument: String,
    },
    /// The completion function panicked; the message is its panic's.
    #[error("the completion function panicked: {0}")]
    Panicked(String),
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
