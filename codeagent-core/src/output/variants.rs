#[cfg(feature = "diff")]
use super::Diff;
use super::{Code, Image, IntoToolResult, Table, Text, ToolError};
use crate::result::ToolResult;

/// Any of the rich outputs, for a tool that returns different kinds.
///
/// ```
/// use codeagent_core::{Code, IntoToolResult, Output, Text};
///
/// fn show(source: bool) -> Output {
///     if source { Code::new("x = 1").with_lang("python").into() } else { Text::new("x is 1").into() }
/// }
/// assert_eq!(show(false).into_tool_result().value(), "x is 1");
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Output {
    /// Plain text.
    Text(Text),
    /// A table.
    Table(Table),
    /// Images.
    Image(Image),
    /// Source code.
    Code(Code),
    /// A diff (feature `diff`).
    #[cfg(feature = "diff")]
    Diff(Diff),
    /// A failure.
    Error(ToolError),
}

impl IntoToolResult for Output {
    fn into_tool_result(self) -> ToolResult {
        match self {
            Output::Text(output) => output.into_tool_result(),
            Output::Table(output) => output.into_tool_result(),
            Output::Image(output) => output.into_tool_result(),
            Output::Code(output) => output.into_tool_result(),
            #[cfg(feature = "diff")]
            Output::Diff(output) => output.into_tool_result(),
            Output::Error(output) => output.into_tool_result(),
        }
    }

    fn is_rich() -> bool {
        true
    }
}

macro_rules! output_from {
    ($($variant:ident),* $(,)?) => {$(
        impl From<$variant> for Output {
            fn from(output: $variant) -> Self {
                Output::$variant(output)
            }
        }
    )*};
}

output_from!(Text, Table, Image, Code);
#[cfg(feature = "diff")]
output_from!(Diff);

impl From<ToolError> for Output {
    fn from(error: ToolError) -> Self {
        Output::Error(error)
    }
}
