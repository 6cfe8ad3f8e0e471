//! The messages a prompt returns, and what lowers into them.

use serde_json::{Value, json};

use super::PromptError;
use crate::mcp::{ContentBlock, ProtocolVersion, Role};
use crate::output::{Image, Text};

/// One message of a prompt: who says it and what.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptMessage {
    role: Role,
    content: ContentBlock,
}

impl PromptMessage {
    /// A message from `role` with `content` (text, image, audio, an embedded
    /// resource or a resource link).
    pub fn new(role: Role, content: ContentBlock) -> Self {
        PromptMessage { role, content }
    }

    /// A text message from the user.
    pub fn user(text: impl Into<String>) -> Self {
        PromptMessage::new(Role::User, ContentBlock::text(text))
    }

    /// A text message from the assistant.
    pub fn assistant(text: impl Into<String>) -> Self {
        PromptMessage::new(Role::Assistant, ContentBlock::text(text))
    }

    /// Who says it.
    pub fn role(&self) -> Role {
        self.role
    }

    /// What is said.
    pub fn content(&self) -> &ContentBlock {
        &self.content
    }

    /// The text, when the content is text.
    pub fn text(&self) -> Option<&str> {
        match &self.content {
            ContentBlock::Text(text) => Some(&text.text),
            _ => None,
        }
    }

    /// The message as `version` sends it.
    pub fn into_wire(self, version: ProtocolVersion) -> Value {
        json!({ "role": self.role, "content": self.content.into_wire(version) })
    }
}

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
