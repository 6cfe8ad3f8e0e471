use serde_json::Value;

use super::{IntoToolResult, Presentation, payload};
use crate::artifact::{Artifact, Kind};
use crate::result::ToolResult;

/// A change from an old text to a new one, optionally of a file at `path`.
///
/// Its portable value is a unified diff with `a/` and `b/` path headers.
///
/// ```
/// use codeagent_core::{Diff, IntoToolResult};
///
/// let result = Diff::new("a\nb\n", "a\nc\n").with_path("notes.txt").into_tool_result();
/// assert_eq!(result.value(), "--- a/notes.txt\n+++ b/notes.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    old: String,
    new: String,
    path: Option<String>,
    pub(crate) presentation: Presentation,
}

impl Diff {
    /// The change from `old` to `new`.
    pub fn new(old: impl Into<String>, new: impl Into<String>) -> Self {
        Diff { old: old.into(), new: new.into(), path: None, presentation: Presentation::default() }
    }

    /// Sets the path of the changed file.
    #[must_use]
    pub fn with_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// The unified diff.
    pub fn unified(&self) -> String {
        if self.old == self.new {
            return match &self.path {
                Some(path) => format!("No changes to {path}."),
                None => "No changes.".to_owned(),
            };
        }
        let (old_header, new_header) = match &self.path {
            Some(path) => (format!("a/{path}"), format!("b/{path}")),
            None => ("old".to_owned(), "new".to_owned()),
        };
        diffy::DiffOptions::new()
            .set_original_filename(old_header)
            .set_modified_filename(new_header)
            .create_patch(&self.old, &self.new)
            .to_string()
    }
}

impl IntoToolResult for Diff {
    fn into_tool_result(self) -> ToolResult {
        let value = self.unified();
        let artifact = Artifact::new(
            Kind::Diff,
            payload([
                ("old", Value::from(self.old)),
                ("new", Value::from(self.new)),
                ("path", self.path.map_or(Value::Null, Value::from)),
            ]),
        );
        ToolResult::new(value).with_artifact(self.presentation.apply(artifact))
    }

    fn is_rich() -> bool {
        true
    }
}
