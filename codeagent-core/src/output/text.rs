use serde_json::Value;

use super::{IntoToolResult, Presentation, payload};
use crate::artifact::{Artifact, Kind};
use crate::result::ToolResult;

/// Plain text. Its portable value is the text itself.
///
/// ```
/// use codeagent_core::{IntoToolResult, Text};
///
/// let result = Text::new("All good.").with_title("Status").into_tool_result();
/// assert_eq!(result.value(), "All good.");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text {
    text: String,
    pub(crate) presentation: Presentation,
}

impl Text {
    /// Text with no title or icon.
    pub fn new(text: impl Into<String>) -> Self {
        Text { text: text.into(), presentation: Presentation::default() }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl IntoToolResult for Text {
    fn into_tool_result(self) -> ToolResult {
        if self.presentation == Presentation::default() {
            return ToolResult::text(self.text);
        }
        let artifact = Artifact::new(Kind::Text, payload([("text", Value::from(self.text.as_str()))]));
        ToolResult::new(self.text).with_artifact(self.presentation.apply(artifact))
    }
}
