use serde_json::Value;

use super::{IntoToolResult, Presentation, fence_for, payload};
use crate::artifact::{Artifact, Kind};
use crate::result::ToolResult;

/// Source code, with an optional language, file name and the output of running it.
///
/// Its portable value is the code in a fenced Markdown block, preceded by the
/// file name and followed by the output.
///
/// ```
/// use codeagent_core::{Code, IntoToolResult};
///
/// let result = Code::new("fn main() {}").with_lang("rust").with_filename("main.rs").into_tool_result();
/// assert_eq!(result.value(), "File: main.rs\n```rust\nfn main() {}\n```");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Code {
    text: String,
    lang: Option<String>,
    filename: Option<String>,
    output: Option<String>,
    pub(crate) presentation: Presentation,
}

impl Code {
    /// The code `text`.
    pub fn new(text: impl Into<String>) -> Self {
        Code { text: text.into(), lang: None, filename: None, output: None, presentation: Presentation::default() }
    }

    /// Sets the language, as a Markdown info string such as `rust` or `python`.
    #[must_use]
    pub fn with_lang(mut self, lang: impl Into<String>) -> Self {
        self.lang = Some(lang.into());
        self
    }

    /// Sets the file name.
    #[must_use]
    pub fn with_filename(mut self, filename: impl Into<String>) -> Self {
        self.filename = Some(filename.into());
        self
    }

    /// Sets the output of running the code.
    #[must_use]
    pub fn with_output(mut self, output: impl Into<String>) -> Self {
        self.output = Some(output.into());
        self
    }

    fn portable_value(&self) -> String {
        let mut value = String::with_capacity(self.text.len() + 64);
        if let Some(filename) = &self.filename {
            value.push_str("File: ");
            value.extend(filename.chars().map(|ch| if ch == '\n' || ch == '\r' { ' ' } else { ch }));
            value.push('\n');
        }
        push_fenced(&mut value, &self.text, self.lang.as_deref().unwrap_or_default());
        if let Some(output) = &self.output {
            value.push_str("\n\nOutput:\n");
            push_fenced(&mut value, output, "");
        }
        value
    }
}

fn push_fenced(value: &mut String, text: &str, info: &str) {
    let fence = fence_for(text);
    value.push_str(&fence);
    // A backtick fence's info string cannot contain a backtick (CommonMark).
    value.extend(info.lines().next().unwrap_or_default().chars().filter(|ch| *ch != '`'));
    value.push('\n');
    value.push_str(text);
    if !text.ends_with('\n') {
        value.push('\n');
    }
    value.push_str(&fence);
}

impl IntoToolResult for Code {
    fn into_tool_result(self) -> ToolResult {
        let value = self.portable_value();
        let text_or_null = |text: Option<String>| text.map_or(Value::Null, Value::from);
        let artifact = Artifact::new(
            Kind::Code,
            payload([
                ("text", Value::from(self.text)),
                ("lang", text_or_null(self.lang)),
                ("filename", text_or_null(self.filename)),
                ("output", text_or_null(self.output)),
            ]),
        );
        ToolResult::new(value).with_artifact(self.presentation.apply(artifact))
    }

    fn is_rich() -> bool {
        true
    }
}
