use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::Value;

use super::image_format::Format;
use super::{IntoToolResult, Presentation, ToolError, payload};
use crate::artifact::{Artifact, Kind};
use crate::result::ToolResult;

/// One or more images, with an optional text output.
///
/// The MIME type is checked against the bytes: PNG, JPEG, GIF and WebP are
/// recognised by their signature, so bytes of one format declared as another
/// are refused. Other `image/*` types are taken as declared. Its portable value
/// names the count, types and sizes, then the output text.
///
/// ```
/// use codeagent_core::{Image, IntoToolResult};
///
/// let gif = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;";
/// let result = Image::from_bytes(gif, "image/gif").unwrap().with_output("one pixel").into_tool_result();
/// assert_eq!(result.value(), "1 image: image/gif, 1×1 px, 14 bytes\n\none pixel");
/// assert!(Image::from_bytes(gif, "image/png").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    images: Vec<Picture>,
    output: Option<String>,
    pub(crate) presentation: Presentation,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Picture {
    mime: String,
    b64: String,
    len: usize,
    dimensions: Option<(u32, u32)>,
}

impl Image {
    /// An image from its bytes and MIME type.
    pub fn from_bytes(bytes: impl AsRef<[u8]>, mime: &str) -> Result<Image, ToolError> {
        let bytes = bytes.as_ref();
        let picture = Picture::checked(bytes, mime, STANDARD.encode(bytes))?;
        Ok(Image { images: vec![picture], output: None, presentation: Presentation::default() })
    }

    /// An image from base64 data and its MIME type; the data is decoded once to
    /// be checked.
    pub fn from_base64(b64: impl Into<String>, mime: &str) -> Result<Image, ToolError> {
        let b64 = b64.into();
        let bytes = STANDARD
            .decode(b64.as_bytes())
            .map_err(|error| ToolError::new(format!("the image data is not valid base64: {error}")))?;
        let picture = Picture::checked(&bytes, mime, b64)?;
        Ok(Image { images: vec![picture], output: None, presentation: Presentation::default() })
    }

    /// Appends the images of `other` (its output and title are dropped).
    #[must_use]
    pub fn and(mut self, other: Image) -> Image {
        self.images.extend(other.images);
        self
    }

    /// Sets the text output shown with the images.
    #[must_use]
    pub fn with_output(mut self, output: impl Into<String>) -> Self {
        self.output = Some(output.into());
        self
    }

    /// How many images there are.
    pub fn len(&self) -> usize {
        self.images.len()
    }

    /// Always false: an `Image` holds at least one image.
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
    }

    /// Each image's MIME type and base64 bytes.
    pub(crate) fn encoded(&self) -> impl Iterator<Item = (&str, &str)> {
        self.images.iter().map(|picture| (picture.mime.as_str(), picture.b64.as_str()))
    }

    fn portable_value(&self) -> String {
        let count = self.images.len();
        let noun = if count == 1 { "image" } else { "images" };
        let described: Vec<String> = self.images.iter().map(Picture::describe).collect();
        let mut value = format!("{count} {noun}: {}", described.join("; "));
        if let Some(output) = self.output.as_deref().filter(|output| !output.is_empty()) {
            value.push_str("\n\n");
            value.push_str(output);
        }
        value
    }
}

impl Picture {
    fn checked(bytes: &[u8], mime: &str, b64: String) -> Result<Picture, ToolError> {
        let mime = mime.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        if !mime.starts_with("image/") || mime.len() == "image/".len() {
            return Err(ToolError::new(format!("`{mime}` is not an image MIME type such as image/png")));
        }
        if bytes.is_empty() {
            return Err(ToolError::new("the image has no bytes"));
        }
        let sniffed = Format::sniff(bytes);
        let declared = Format::from_mime(&mime);
        let mime = match (declared, sniffed) {
            (Some(declared), Some(sniffed)) if declared == sniffed => declared.mime().to_owned(),
            (_, Some(sniffed)) => {
                return Err(ToolError::new(format!(
                    "the image is declared as {mime} but its bytes are {} ({})",
                    sniffed.name(),
                    sniffed.mime()
                )));
            }
            (Some(declared), None) => {
                return Err(ToolError::new(format!(
                    "the image is declared as {mime} but its bytes do not start with the {} signature",
                    declared.name()
                )));
            }
            (None, None) => mime,
        };
        Ok(Picture { dimensions: sniffed.and_then(|format| format.dimensions(bytes)), mime, b64, len: bytes.len() })
    }

    fn describe(&self) -> String {
        let size = human_size(self.len);
        match self.dimensions {
            Some((width, height)) => format!("{}, {width}×{height} px, {size}", self.mime),
            None => format!("{}, {size}", self.mime),
        }
    }
}

fn human_size(bytes: usize) -> String {
    #[allow(clippy::cast_precision_loss)]
    let kib = bytes as f64 / 1024.0;
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else if kib < 1024.0 {
        format!("{kib:.1} KiB")
    } else {
        format!("{:.1} MiB", kib / 1024.0)
    }
}

impl IntoToolResult for Image {
    fn into_tool_result(self) -> ToolResult {
        let value = self.portable_value();
        let images: Vec<Value> = self
            .images
            .into_iter()
            .map(|picture| Value::Object(payload([("mime", picture.mime.into()), ("b64", picture.b64.into())])))
            .collect();
        let artifact = Artifact::new(
            Kind::Image,
            payload([("images", Value::Array(images)), ("output", self.output.map_or(Value::Null, Value::from))]),
        );
        ToolResult::new(value).with_artifact(self.presentation.apply(artifact))
    }

    fn is_rich() -> bool {
        true
    }
}
