//! Typed outputs and the trait that lowers them into a [`ToolResult`].
//!
//! A tool returns any [`IntoToolResult`] type: a typed output ([`Text`],
//! [`Table`], [`Image`], [`Code`], [`Diff`], [`ToolError`], [`Json`], the
//! [`Output`] enum), a plain value (`String`, `&str`, numbers, `bool`, `()`, a
//! `serde_json::Value`), a ready [`ToolResult`], or a `Result` of any of these
//! whose error converts into a [`ToolError`].

mod code;
mod column_type;
#[cfg(feature = "diff")]
mod diff;
mod error;
mod image;
mod image_format;
mod json;
mod native;
mod plain;
mod records;
mod table;
mod text;
mod variants;
mod written_rows;

pub use code::Code;
pub use column_type::ColumnType;
#[cfg(feature = "diff")]
pub use diff::Diff;
pub use error::ToolError;
pub(crate) use error::call_error;
pub use image::Image;
pub use json::Json;
pub use table::{Column, DEFAULT_PREVIEW_ROWS, Table};
pub use text::Text;
pub use variants::Output;

use crate::artifact::Artifact;
use crate::finite_json::to_json_value;
use crate::result::ToolResult;

/// Lowers a tool's return value into the three-channel [`ToolResult`].
///
/// ```
/// use codeagent_core::{IntoToolResult, Table, Channels};
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Sale { region: &'static str, total: u32 }
///
/// let result = Table::from_rows(&[Sale { region: "north", total: 10 }]).unwrap().into_tool_result();
/// assert_eq!(result.artifact().unwrap().kind_name(), "table");
/// assert!(result.value().contains("| north | 10 |"));
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    label = "this type does not lower into a tool result",
    note = "return a typed output (`Text`, `Table`, `Image`, `Code`, `Diff`, `ToolError`, `Output`), \
            `Json<T>` for any `T: Serialize + JsonSchema`, a `String`, a number, `bool`, `()`, or a `Result` of these"
)]
pub trait IntoToolResult {
    /// Lowers `self`.
    fn into_tool_result(self) -> ToolResult;

    /// The JSON Schema of the structured content this type produces, if it
    /// produces any: `Json<T>` gives `T`'s schema and `Table` the schema of its
    /// `df`. A tool lists it as its `outputSchema`. Computed once per tool.
    fn output_schema() -> Option<serde_json::Value>
    where
        Self: Sized,
    {
        None
    }

    /// Whether this type lowers to a rich artifact (a table, an image, code,
    /// `Json<T>`'s JSON as code, or a diff) that text alone does not show: an MCP Apps host shows such a
    /// tool's results in the built-in view ([`ui::APP_URI`](crate::ui::APP_URI))
    /// unless the tool says otherwise (`#[tool(ui = ...)]`).
    fn is_rich() -> bool
    where
        Self: Sized,
    {
        false
    }
}

/// Title and icon builders shared by every typed output.
macro_rules! presentation_builders {
    ($($output:ty),* $(,)?) => {$(
        impl $output {
            /// Sets the artifact's plain-text title.
            #[must_use]
            pub fn with_title(mut self, title: impl Into<String>) -> Self {
                self.presentation.title = Some(title.into());
                self
            }

            /// Sets the artifact's portable icon name.
            #[must_use]
            pub fn with_icon(mut self, icon: impl Into<String>) -> Self {
                self.presentation.icon = Some(icon.into());
                self
            }
        }
    )*};
}

presentation_builders!(Text, Table, Image, Code, ToolError);
#[cfg(feature = "diff")]
presentation_builders!(Diff);

/// The optional title and icon of a typed output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Presentation {
    pub(crate) title: Option<String>,
    pub(crate) icon: Option<String>,
}

impl Presentation {
    /// Applies the title and icon to an artifact.
    pub(crate) fn apply(self, mut artifact: Artifact) -> Artifact {
        if let Some(title) = self.title {
            artifact = artifact.with_title(title);
        }
        if let Some(icon) = self.icon {
            artifact = artifact.with_icon(icon);
        }
        artifact
    }
}

/// Builds a payload object from `(key, value)` pairs, in order.
pub(crate) fn payload<const N: usize>(
    fields: [(&str, serde_json::Value); N],
) -> serde_json::Map<String, serde_json::Value> {
    fields.into_iter().map(|(key, value)| (key.to_owned(), value)).collect()
}

/// The longest run of backticks in `text` plus one, and at least three: a
/// Markdown fence that `text` cannot close.
pub(crate) fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for ch in text.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat((longest + 1).max(3))
}

/// Converts `value` to JSON like [`to_json_value`], with a problem (a
/// non-finite number, and where) as a tool error about `what`.
pub(crate) fn to_json<T: serde::Serialize + ?Sized>(value: &T, what: &str) -> Result<serde_json::Value, ToolError> {
    to_json_value(value).map_err(|problem| {
        let location = if problem.path.is_empty() { String::new() } else { format!(" at `{}`", problem.path) };
        ToolError::new(format!("{what} is not valid JSON{location}: {}", problem.message))
    })
}
