//! Prompts as a server lists and renders them: [`PromptDefinition`] with its
//! [`PromptArgumentDefinition`]s, and [`GetPromptResult`] with its [`PromptMessage`]s.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{ContentBlock, Icon, ProtocolVersion, Role};

/// A prompt a server lists (`prompts/list`).
///
/// ```
/// use codeagent_core::mcp::PromptDefinition;
///
/// let prompt: PromptDefinition = serde_json::from_value(serde_json::json!({
///     "name": "review", "arguments": [{"name": "code", "required": true}]
/// }))?;
/// assert_eq!(prompt.arguments[0].required, Some(true));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptDefinition {
    /// Its name.
    pub name: String,
    /// A display title (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The arguments it takes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arguments: Vec<PromptArgumentDefinition>,
    /// Icons (2025-11-25 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Fields this crate does not know, kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An argument of a [`PromptDefinition`]: a string the client supplies by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct PromptArgumentDefinition {
    /// Its name.
    pub name: String,
    /// A display title (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether it must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<bool>,
}

/// One message of a prompt: who says it and what. A prompt returns these;
/// `prompts/get` answers with them ([`GetPromptResult`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        serde_json::json!({ "role": self.role, "content": self.content.into_wire(version) })
    }
}

/// What `prompts/get` answers: the prompt's messages.
///
/// ```
/// use codeagent_core::mcp::{ContentBlock, GetPromptResult, Role};
///
/// let got: GetPromptResult = serde_json::from_value(serde_json::json!({
///     "messages": [{"role": "user", "content": {"type": "text", "text": "Review this"}}]
/// }))?;
/// assert_eq!(got.messages[0].role(), Role::User);
/// assert_eq!(got.messages[0].content(), &ContentBlock::text("Review this"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct GetPromptResult {
    /// A description of the rendered prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Fields this crate does not know (2026-07-28's `resultType`), kept as
    /// they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}
