//! The messages a prompt returns, and what lowers into them.

use super::PromptError;
use crate::mcp::{ContentBlock, Role};
use crate::output::{Image, Text};

pub use crate::mcp::PromptMessage;

/// A value a prompt can return: lowered into its messages.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned by a prompt",
    label = "not prompt messages",
    note = "return a `String`, `Text`, `Image`, `PromptMessage` or `Vec<PromptMessage>`, \
            or a `Result` of one whose error implements `Display`"
)]
pub trait IntoMessages {
    /// The messages.
    fn into_messages(self) -> Result<Vec<PromptMessage>, PromptError>;
}

impl IntoMessages for String {
    /// One user message.
    fn into_messages(self) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(vec![PromptMessage::user(self)])
    }
}

impl IntoMessages for &str {
    /// One user message.
    fn into_messages(self) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(vec![PromptMessage::user(self)])
    }
}

impl IntoMessages for Text {
    /// One user message.
    fn into_messages(self) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(vec![PromptMessage::user(self.as_str())])
    }
}

impl IntoMessages for Image {
    /// One user message per image.
    fn into_messages(self) -> Result<Vec<PromptMessage>, PromptError> {
        self.encoded()
            .map(|(mime_type, b64)| {
                let block =
                    ContentBlock::image(b64, mime_type).map_err(|error| PromptError::failed(error.to_string()))?;
                Ok(PromptMessage::new(Role::User, block))
            })
            .collect()
    }
}

impl IntoMessages for PromptMessage {
    fn into_messages(self) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(vec![self])
    }
}

impl IntoMessages for Vec<PromptMessage> {
    fn into_messages(self) -> Result<Vec<PromptMessage>, PromptError> {
        Ok(self)
    }
}

impl<T: IntoMessages, E: std::fmt::Display> IntoMessages for Result<T, E> {
    /// `Err` is a failure carrying its message.
    fn into_messages(self) -> Result<Vec<PromptMessage>, PromptError> {
        match self {
            Ok(value) => value.into_messages(),
            Err(error) => Err(PromptError::failed(error.to_string())),
        }
    }
}
