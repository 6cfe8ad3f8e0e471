/// A content block or result that MCP does not allow, naming the offending field.
///
/// ```
/// use codeagent_core::mcp::Annotations;
///
/// let error = Annotations::new().with_priority(1.5).unwrap_err();
/// assert_eq!(error.field(), "annotations.priority");
/// assert_eq!(error.to_string(), "invalid `annotations.priority`: must be between 0 and 1, got 1.5");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid `{field}`: {problem}")]
#[non_exhaustive]
pub struct InvalidContent {
    field: String,
    problem: String,
}

impl InvalidContent {
    /// The error for `field` (its path, such as `content[0].data`), saying
    /// what is wrong with it.
    pub fn new(field: impl Into<String>, problem: impl Into<String>) -> Self {
        InvalidContent { field: field.into(), problem: problem.into() }
    }

    /// The path of the offending field, such as `content[0].data`.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What is wrong with it.
    pub fn problem(&self) -> &str {
        &self.problem
    }
}

/// What kind of JSON value `value` is, for an error message that names what
/// was found ("an object", "a number").
pub(crate) fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
