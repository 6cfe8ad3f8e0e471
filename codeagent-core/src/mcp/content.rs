use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{Annotations, Icon, InvalidContent};

/// One block of an MCP tool result's `content`.
///
/// Build blocks with the constructors, which validate what MCP requires
/// (base64 data, MIME types, URIs); serialise them for a protocol version with
/// [`CallToolResult::to_wire`](super::CallToolResult::to_wire), which lowers
/// what an older version lacks to the nearest form it has.
///
/// ```
/// use codeagent_core::mcp::{Annotations, ContentBlock, Role};
///
/// let block = ContentBlock::text("Done.").with_annotations(Annotations::new().with_audience([Role::User]));
/// let image = ContentBlock::image("iVBORw0KGgo=", "image/png")?;
/// assert!(ContentBlock::image("not base64!", "image/png").is_err());
/// # Ok::<(), codeagent_core::mcp::InvalidContent>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ContentBlock {
    /// Text for the model or the user.
    Text(TextContent),
    /// A base64-encoded image.
    Image(MediaContent),
    /// Base64-encoded audio (2025-03-26 and later; an embedded blob before).
    Audio(MediaContent),
    /// A link to a resource the client may read (2025-06-18 and later; a text block before).
    ResourceLink(ResourceLink),
    /// A resource embedded in the result.
    Resource(EmbeddedResource),
}

/// A text block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// An image or audio block: base64 data and its MIME type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct MediaContent {
    /// The base64-encoded bytes.
    pub data: String,
    /// The MIME type, such as `image/png` or `audio/wav`.
    pub mime_type: String,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// A link to a resource.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct ResourceLink {
    /// The resource's URI.
    pub uri: String,
    /// Its programmatic name.
    pub name: String,
    /// Its display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Its MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons for it (2025-11-25 and later).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// A resource embedded in a result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct EmbeddedResource {
    /// The resource's contents.
    pub resource: ResourceContents,
    /// Hints for the client.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// Metadata.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// The contents of an embedded resource: text or a base64 blob.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum ResourceContents {
    /// Text contents.
    #[non_exhaustive]
    Text {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The text.
        text: String,
        /// Metadata.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
    /// Binary contents.
    #[non_exhaustive]
    Blob {
        /// The resource's URI.
        uri: String,
        /// Its MIME type.
        #[serde(rename = "mimeType", default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
        /// The base64-encoded bytes.
        blob: String,
        /// Metadata.
        #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
        meta: Option<Map<String, Value>>,
    },
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> ContentBlock {
        ContentBlock::Text(TextContent::new(text))
    }

    /// An image block from base64 `data`, which is checked.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Result<ContentBlock, InvalidContent> {
        Ok(ContentBlock::Image(MediaContent::image(data, mime_type)?))
    }

    /// An image block from raw bytes.
    pub fn image_bytes(bytes: &[u8], mime_type: impl Into<String>) -> ContentBlock {
        ContentBlock::Image(MediaContent::encoded(bytes, mime_type.into()))
    }

    /// An audio block from base64 `data`, which is checked.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Result<ContentBlock, InvalidContent> {
        Ok(ContentBlock::Audio(MediaContent::audio(data, mime_type)?))
    }

    /// An audio block from raw bytes.
    pub fn audio_bytes(bytes: &[u8], mime_type: impl Into<String>) -> ContentBlock {
        ContentBlock::Audio(MediaContent::encoded(bytes, mime_type.into()))
    }

    /// A link to the resource at `uri` called `name`; add details with the
    /// [`ResourceLink`] fields.
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Result<ResourceLink, InvalidContent> {
        ResourceLink::new(uri, name)
    }

    /// An embedded text resource.
    pub fn embedded_text(
        uri: impl Into<String>,
        text: impl Into<String>,
        mime_type: Option<String>,
    ) -> Result<ContentBlock, InvalidContent> {
        let resource = ResourceContents::text(uri, text)?.with_mime_type(mime_type);
        Ok(ContentBlock::Resource(EmbeddedResource::new(resource)))
    }

    /// An embedded binary resource from base64 `blob`, which is checked.
    pub fn embedded_blob(
        uri: impl Into<String>,
        blob: impl Into<String>,
        mime_type: Option<String>,
    ) -> Result<ContentBlock, InvalidContent> {
        let resource = ResourceContents::blob(uri, blob)?.with_mime_type(mime_type);
        Ok(ContentBlock::Resource(EmbeddedResource::new(resource)))
    }

    /// Sets the block's annotations.
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        *self.annotations_mut() = Some(annotations);
        self
    }

    /// Adds a `_meta` entry to the block.
    #[must_use]
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta_mut().get_or_insert_with(Map::new).insert(key.into(), value);
        self
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ContentBlock::Text(text) => Some(&text.text),
            _ => None,
        }
    }

    fn annotations_mut(&mut self) -> &mut Option<Annotations> {
        match self {
            ContentBlock::Text(block) => &mut block.annotations,
            ContentBlock::Image(block) | ContentBlock::Audio(block) => &mut block.annotations,
            ContentBlock::ResourceLink(block) => &mut block.annotations,
            ContentBlock::Resource(block) => &mut block.annotations,
        }
    }

    fn meta_mut(&mut self) -> &mut Option<Map<String, Value>> {
        match self {
            ContentBlock::Text(block) => &mut block.meta,
            ContentBlock::Image(block) | ContentBlock::Audio(block) => &mut block.meta,
            ContentBlock::ResourceLink(block) => &mut block.meta,
            ContentBlock::Resource(block) => &mut block.meta,
        }
    }
}

impl From<ResourceLink> for ContentBlock {
    fn from(link: ResourceLink) -> Self {
        ContentBlock::ResourceLink(link)
    }
}

impl TextContent {
    /// A text block's contents, with no annotations or metadata.
    pub fn new(text: impl Into<String>) -> Self {
        TextContent { text: text.into(), annotations: None, meta: None }
    }
}

impl ResourceLink {
    /// A link to the resource at `uri` called `name`, which is checked; add
    /// details with the setters.
    pub fn new(uri: impl Into<String>, name: impl Into<String>) -> Result<ResourceLink, InvalidContent> {
        let uri = checked_uri(uri.into(), "uri")?;
        Ok(ResourceLink {
            uri,
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            size: None,
            icons: None,
            annotations: None,
            meta: None,
        })
    }

    /// Sets the display title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Sets the MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the size in bytes.
    #[must_use]
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }

    /// Sets the icons.
    #[must_use]
    pub fn with_icons(mut self, icons: impl IntoIterator<Item = Icon>) -> Self {
        self.icons = Some(icons.into_iter().collect());
        self
    }
}

impl EmbeddedResource {
    /// The embedded `resource`, with no annotations or metadata.
    pub fn new(resource: ResourceContents) -> Self {
        EmbeddedResource { resource, annotations: None, meta: None }
    }
}

impl ResourceContents {
    /// Text contents of the resource at `uri`, which is checked.
    pub fn text(uri: impl Into<String>, text: impl Into<String>) -> Result<ResourceContents, InvalidContent> {
        let uri = checked_uri(uri.into(), "resource.uri")?;
        Ok(ResourceContents::Text { uri, mime_type: None, text: text.into(), meta: None })
    }

    /// Binary contents of the resource at `uri` from base64 `blob`; both are checked.
    pub fn blob(uri: impl Into<String>, blob: impl Into<String>) -> Result<ResourceContents, InvalidContent> {
        let uri = checked_uri(uri.into(), "resource.uri")?;
        let blob = checked_base64(blob.into(), "resource.blob")?;
        Ok(ResourceContents::Blob { uri, mime_type: None, blob, meta: None })
    }

    /// Sets (or, with `None`, clears) the MIME type.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<Option<String>>) -> Self {
        let slot = match &mut self {
            ResourceContents::Text { mime_type, .. } | ResourceContents::Blob { mime_type, .. } => mime_type,
        };
        *slot = mime_type.into();
        self
    }

    /// The resource's URI.
    pub fn uri(&self) -> &str {
        match self {
            ResourceContents::Text { uri, .. } | ResourceContents::Blob { uri, .. } => uri,
        }
    }
}

impl MediaContent {
    /// Image contents from base64 `data` and an `image/*` MIME type, both checked.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Result<MediaContent, InvalidContent> {
        MediaContent::checked(data.into(), mime_type.into(), "image/")
    }

    /// Audio contents from base64 `data` and an `audio/*` MIME type, both checked.
    pub fn audio(data: impl Into<String>, mime_type: impl Into<String>) -> Result<MediaContent, InvalidContent> {
        MediaContent::checked(data.into(), mime_type.into(), "audio/")
    }

    fn checked(data: String, mime_type: String, family: &str) -> Result<MediaContent, InvalidContent> {
        let data = checked_base64(data, "data")?;
        if !mime_type.starts_with(family) || mime_type.len() == family.len() {
            return Err(InvalidContent::new("mimeType", format!("`{mime_type}` is not a {family}* MIME type")));
        }
        Ok(MediaContent { data, mime_type, annotations: None, meta: None })
    }

    fn encoded(bytes: &[u8], mime_type: String) -> MediaContent {
        MediaContent { data: STANDARD.encode(bytes), mime_type, annotations: None, meta: None }
    }
}

fn checked_base64(data: String, field: &str) -> Result<String, InvalidContent> {
    match STANDARD.decode(data.as_bytes()) {
        Ok(_) => Ok(data),
        Err(error) => Err(InvalidContent::new(field, format!("not valid base64: {error}"))),
    }
}

pub(crate) fn checked_uri(uri: String, field: &str) -> Result<String, InvalidContent> {
    match crate::uri_template::check_uri(&uri) {
        Ok(()) => Ok(uri),
        Err(problem) => Err(InvalidContent::new(field, problem.to_string())),
    }
}
