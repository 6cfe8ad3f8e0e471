//! What a resource returns, lowered into MCP resource contents.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::ResourceError;
use crate::mcp::ResourceContents;
use crate::output::{Image, Text};

/// Bytes with their MIME type, read as one binary content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Blob {
    bytes: Vec<u8>,
    mime_type: String,
}

impl Blob {
    /// `bytes` of MIME type `mime_type`.
    pub fn new(bytes: impl Into<Vec<u8>>, mime_type: impl Into<String>) -> Self {
        Blob { bytes: bytes.into(), mime_type: mime_type.into() }
    }
}

/// A value a resource can return: lowered into the contents of the URI read,
/// with the resource's MIME type where the value does not carry one.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned by a resource",
    label = "not resource contents",
    note = "return a `String`, `Text`, `Vec<u8>`, `Blob`, `Image`, `ResourceContents` or `Vec<ResourceContents>`, \
            or a `Result` of one whose error implements `Display`"
)]
pub trait IntoContents {
    /// The contents for `uri`.
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError>;
}

fn text(uri: &str, text: String, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
    let contents = ResourceContents::text(uri, text).map_err(|error| ResourceError::failed(error.to_string()))?;
    Ok(vec![contents.with_mime_type(mime_type.map(str::to_owned))])
}

fn binary(uri: &str, bytes: &[u8], mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
    let contents = ResourceContents::blob(uri, STANDARD.encode(bytes))
        .map_err(|error| ResourceError::failed(error.to_string()))?;
    Ok(vec![contents.with_mime_type(mime_type.unwrap_or("application/octet-stream").to_owned())])
}

impl IntoContents for String {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        text(uri, self, mime_type.or(Some("text/plain")))
    }
}

impl IntoContents for &str {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        self.to_owned().into_contents(uri, mime_type)
    }
}

impl IntoContents for Text {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        text(uri, self.as_str().to_owned(), mime_type.or(Some("text/markdown")))
    }
}

impl IntoContents for Vec<u8> {
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        binary(uri, &self, mime_type)
    }
}

impl IntoContents for Blob {
    fn into_contents(self, uri: &str, _: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        binary(uri, &self.bytes, Some(&self.mime_type))
    }
}

impl IntoContents for Image {
    /// Each image as one binary content of its own MIME type.
    fn into_contents(self, uri: &str, _: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        self.encoded()
            .map(|(mime_type, b64)| {
                let contents =
                    ResourceContents::blob(uri, b64).map_err(|error| ResourceError::failed(error.to_string()))?;
                Ok(contents.with_mime_type(mime_type.to_owned()))
            })
            .collect()
    }
}

impl IntoContents for ResourceContents {
    fn into_contents(self, _: &str, _: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(vec![self])
    }
}

impl IntoContents for Vec<ResourceContents> {
    fn into_contents(self, _: &str, _: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        Ok(self)
    }
}

impl<T: IntoContents, E: std::fmt::Display> IntoContents for Result<T, E> {
    /// `Err` is a read failure carrying its message.
    fn into_contents(self, uri: &str, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        match self {
            Ok(value) => value.into_contents(uri, mime_type),
            Err(error) => Err(ResourceError::failed(error.to_string())),
        }
    }
}
