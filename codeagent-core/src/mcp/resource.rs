//! Resources as a server lists and reads them: [`ResourceDefinition`],
//! [`ResourceTemplateDefinition`] and [`ReadResourceResult`]. Fields a later revision
//! adds are kept in `extra`, so what is read can be served again unchanged.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Annotations, Icon, ResourceContents};

/// A resource a server lists (`resources/list`).
///
/// ```
/// use codeagent_core::mcp::ResourceDefinition;
///
/// let resource: ResourceDefinition = serde_json::from_value(serde_json::json!({
///     "uri": "file:///notes.md", "name": "notes", "mimeType": "text/markdown", "size": 120
/// }))?;
/// assert_eq!((resource.uri.as_str(), resource.size), ("file:///notes.md", Some(120)));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceDefinition {
    /// Its URI.
    pub uri: String,
    /// Its name, for the program.
    pub name: String,
    /// A display title (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its size in bytes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
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

/// A family of resources a server lists (`resources/templates/list`): an
/// RFC 6570 URI template.
///
/// ```
/// use codeagent_core::mcp::ResourceTemplateDefinition;
///
/// let template: ResourceTemplateDefinition =
///     serde_json::from_value(serde_json::json!({"uriTemplate": "sales://{region}", "name": "sales"}))?;
/// assert_eq!(template.uri_template, "sales://{region}");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceTemplateDefinition {
    /// The URI template.
    pub uri_template: String,
    /// Its name, for the program.
    pub name: String,
    /// A display title (2025-06-18 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What its resources hold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The MIME type of its resources, when they share one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
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

/// What `resources/read` answers: the resource's contents, text or blobs.
///
/// ```
/// use codeagent_core::mcp::{ReadResourceResult, ResourceContents};
///
/// let read: ReadResourceResult = serde_json::from_value(serde_json::json!({
///     "contents": [{"uri": "file:///notes.md", "mimeType": "text/markdown", "text": "# Notes"}]
/// }))?;
/// assert!(matches!(&read.contents[0], ResourceContents::Text { text, .. } if text == "# Notes"));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ReadResourceResult {
    /// The contents: one or more, each with its URI.
    pub contents: Vec<ResourceContents>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
    /// Fields this crate does not know (2026-07-28's `resultType`,
    /// `ttlMs`, `cacheScope`), kept as they came.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl ReadResourceResult {
    /// The text of the first contents, when they are text.
    ///
    /// ```
    /// use codeagent_core::mcp::ReadResourceResult;
    ///
    /// let read: ReadResourceResult =
    ///     serde_json::from_value(serde_json::json!({"contents": [{"uri": "a://b", "text": "hello"}]}))?;
    /// assert_eq!(read.text(), Some("hello"));
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn text(&self) -> Option<&str> {
        match self.contents.first()? {
            ResourceContents::Text { text, .. } => Some(text),
            ResourceContents::Blob { .. } => None,
        }
    }
}
