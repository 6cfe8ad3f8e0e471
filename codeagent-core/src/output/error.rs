use std::fmt;

use serde_json::Value;

use super::{IntoToolResult, Presentation, payload};
use crate::artifact::{Artifact, Kind};
use crate::result::ToolResult;

/// A tool failure the model should see: a message and an optional detail.
///
/// It lowers into an error result (`is_error: true`, artifact kind and status
/// `error`) rather than a protocol error, so the model can read it and
/// correct itself. Any `std::error::Error` converts into one with `?`; its
/// chain of sources becomes the detail.
///
/// ```
/// use codeagent_core::{IntoToolResult, ToolError};
///
/// let result = ToolError::new("region not found").with_detail("known: north, south").into_tool_result();
/// assert!(result.is_error());
/// assert_eq!(result.value(), "region not found\n\nknown: north, south");
/// ```
///
/// `ToolError` deliberately does not implement `std::error::Error` itself, so
/// that the blanket conversion from every error type is possible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    message: String,
    detail: Option<String>,
    pub(crate) presentation: Presentation,
}

impl ToolError {
    /// An error with `message`.
    pub fn new(message: impl Into<String>) -> Self {
        ToolError { message: message.into(), detail: None, presentation: Presentation::default() }
    }

    /// Adds a longer explanation.
    #[must_use]
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The detail, if any.
    pub fn detail_text(&self) -> Option<&str> {
        self.detail.as_deref()
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(detail) = &self.detail {
            write!(f, "\n\n{detail}")?;
        }
        Ok(())
    }
}

impl<E: std::error::Error> From<E> for ToolError {
    fn from(error: E) -> Self {
        let mut causes = Vec::new();
        let mut source = error.source();
        while let Some(cause) = source {
            causes.push(format!("caused by: {cause}"));
            source = cause.source();
        }
        let tool_error = ToolError::new(error.to_string());
        if causes.is_empty() { tool_error } else { tool_error.with_detail(causes.join("\n")) }
    }
}

/// The error result of a call the engine ends rather than the tool: a panic,
/// a tool stopped before it finished. The one constructor of such results,
/// so each has the shape of a tool-returned [`ToolError`] (`is_error: true`,
/// an artifact of kind and status `error` whose payload holds the message);
/// the toolbox's refusals of a call's arguments or state are `ToolError`s
/// lowered the same way.
pub(crate) fn call_error(message: impl Into<String>) -> ToolResult {
    ToolError::new(message).into_tool_result()
}

impl IntoToolResult for ToolError {
    fn into_tool_result(self) -> ToolResult {
        let value = self.to_string();
        let detail = self.detail.map_or(Value::Null, Value::from);
        let artifact =
            Artifact::new(Kind::Error, payload([("message", Value::from(self.message)), ("detail", detail)]));
        ToolResult::new(value).with_artifact(self.presentation.apply(artifact))
    }
}
