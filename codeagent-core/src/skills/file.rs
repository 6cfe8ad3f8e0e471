//! One file of a skill: its URI, bytes, digest, size and MIME type, and the
//! resource that serves it.

use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use crate::mcp::ResourceContents;
use crate::resources::ResourceFuture;
use crate::toolbox::{Resource, ResourceError, ResourceRead, ResourceSpec};

/// The MIME type of a `SKILL.md`.
pub(super) const MARKDOWN: &str = "text/markdown";

/// One file of a skill, read when the skills were: what every read of its URI
/// returns, and the digest and size `skills/list` publishes for it.
#[derive(Clone, Debug)]
pub struct SkillFile {
    uri: String,
    /// The file's path inside its skill, `/`-separated.
    path: String,
    bytes: Arc<[u8]>,
    digest: String,
    mime_type: String,
}

impl SkillFile {
    pub(super) fn new(uri: String, path: String, bytes: Vec<u8>) -> SkillFile {
        let digest = digest(&bytes);
        let mime_type = mime_type(&path, &bytes).to_owned();
        SkillFile { uri, path, bytes: bytes.into(), digest, mime_type }
    }

    /// Its resource URI, `skill://<skill-path>/<file-path>`.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its path inside the skill's folder, `/`-separated (`references/FORMS.md`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Its content, as read.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The SHA-256 digest of its content, `sha256:` and 64 lowercase hex digits.
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// Its length in bytes.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Its MIME type: `text/markdown` for Markdown, from the extension for
    /// other known kinds, else `text/plain` for UTF-8 and
    /// `application/octet-stream` for the rest.
    pub fn mime_type(&self) -> &str {
        &self.mime_type
    }

    /// The file's contents as `resources/read` returns them: text when the
    /// bytes are UTF-8, else base64.
    fn contents(&self) -> Result<ResourceContents, ResourceError> {
        let contents = match std::str::from_utf8(&self.bytes) {
            Ok(text) => ResourceContents::text(&self.uri, text),
            Err(_) => ResourceContents::blob(&self.uri, STANDARD.encode(&self.bytes)),
        };
        let contents = contents.map_err(|error| ResourceError::failed(error.to_string()))?;
        Ok(contents.with_mime_type(self.mime_type.clone()))
    }
}

/// `sha256:` and the lowercase hex SHA-256 of `bytes`.
fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", crate::lower_hex::lower_hex(&hmac_sha256::Hash::hash(bytes)))
}

/// The MIME type of file `path` with content `bytes`.
fn mime_type(path: &str, bytes: &[u8]) -> &'static str {
    let extension = path.rsplit_once('.').map(|(_, extension)| extension.to_ascii_lowercase());
    let known = match extension.as_deref() {
        Some("md" | "markdown") => MARKDOWN,
        Some("txt") => "text/plain",
        Some("py") => "text/x-python",
        Some("sh") => "text/x-shellscript",
        Some("js" | "mjs") => "text/javascript",
        Some("ts") => "text/x-typescript",
        Some("rs") => "text/x-rust",
        Some("html" | "htm") => "text/html",
        Some("css") => "text/css",
        Some("csv") => "text/csv",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        Some("toml") => "application/toml",
        Some("xml") => "application/xml",
        Some("pdf") => "application/pdf",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("svg") => "image/svg+xml",
        _ => "",
    };
    match known {
        "" if std::str::from_utf8(bytes).is_ok() => "text/plain",
        "" => "application/octet-stream",
        known => known,
    }
}

/// The resource serving one skill file.
pub(super) struct FileResource {
    pub(super) spec: ResourceSpec,
    pub(super) file: SkillFile,
}

impl Resource for FileResource {
    fn spec(&self) -> &ResourceSpec {
        &self.spec
    }

    fn read(&self, _read: ResourceRead) -> ResourceFuture {
        let contents = self.file.contents();
        Box::pin(async move { contents.map(|contents| vec![contents]) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_the_sha256_of_the_bytes_in_lowercase_hex() {
        let file = SkillFile::new("skill://a/x.txt".into(), "x.txt".into(), b"abc".to_vec());
        assert_eq!(file.digest(), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(file.size(), 3);
        assert_eq!(file.mime_type(), "text/plain");
    }

    #[test]
    fn the_mime_type_comes_from_the_extension_or_the_content() {
        assert_eq!(mime_type("SKILL.md", b""), "text/markdown");
        assert_eq!(mime_type("scripts/fill.PY", b""), "text/x-python");
        assert_eq!(mime_type("notes", b"plain words"), "text/plain");
        assert_eq!(mime_type("data.bin", &[0xff, 0xfe, 0x00]), "application/octet-stream");
    }
}
