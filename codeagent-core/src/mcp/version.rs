use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An MCP protocol version this crate speaks.
///
/// Versions are ordered by date. 2024-11-05 to 2025-11-25 form the legacy era
/// (an `initialize` handshake); 2026-07-28 is the modern era (per-request
/// `_meta`, `server/discover`, `resultType`).
///
/// ```
/// use codeagent_core::mcp::ProtocolVersion;
///
/// let version: ProtocolVersion = "2025-06-18".parse().unwrap();
/// assert!(version < ProtocolVersion::LATEST);
/// assert_eq!(version.to_string(), "2025-06-18");
/// assert!("2030-01-01".parse::<ProtocolVersion>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtocolVersion {
    /// 2024-11-05, the first published version.
    V2024_11_05,
    /// 2025-03-26: audio content, tool annotations, Streamable HTTP, batches.
    V2025_03_26,
    /// 2025-06-18: structured content, output schemas, resource links, titles, `_meta` on blocks.
    V2025_06_18,
    /// 2025-11-25: icons; input validation errors as tool errors.
    V2025_11_25,
    /// 2026-07-28: the modern era.
    V2026_07_28,
}

impl ProtocolVersion {
    /// Every version, oldest first.
    pub const ALL: &'static [ProtocolVersion] = &[
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The newest version.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// The newest version negotiated with `initialize`.
    pub const LATEST_LEGACY: ProtocolVersion = ProtocolVersion::V2025_11_25;

    /// The version's date string.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProtocolVersion::V2024_11_05 => "2024-11-05",
            ProtocolVersion::V2025_03_26 => "2025-03-26",
            ProtocolVersion::V2025_06_18 => "2025-06-18",
            ProtocolVersion::V2025_11_25 => "2025-11-25",
            ProtocolVersion::V2026_07_28 => "2026-07-28",
        }
    }

    /// Whether this is the modern (stateless, per-request `_meta`) era.
    pub const fn is_modern(self) -> bool {
        matches!(self, ProtocolVersion::V2026_07_28)
    }

    /// Whether `audio` content blocks exist.
    pub fn has_audio(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// Whether tool `annotations` exist.
    pub fn has_tool_annotations(self) -> bool {
        self >= ProtocolVersion::V2025_03_26
    }

    /// Whether `resource_link` blocks, `structuredContent`, `outputSchema`,
    /// tool `title`, `lastModified` annotations and `_meta` on blocks exist.
    pub fn has_structured_content(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// Whether tools, resources and resource contents carry `_meta`, which the
    /// MCP Apps extension needs (`_meta.ui`): so it is offered from 2025-06-18.
    pub fn has_meta(self) -> bool {
        self >= ProtocolVersion::V2025_06_18
    }

    /// Whether `icons` exist.
    pub fn has_icons(self) -> bool {
        self >= ProtocolVersion::V2025_11_25
    }

    /// Whether results carry `resultType` and structured content may be any JSON value.
    pub fn has_result_type(self) -> bool {
        self >= ProtocolVersion::V2026_07_28
    }

    /// Whether JSON-RPC batches are allowed.
    pub fn has_batches(self) -> bool {
        self == ProtocolVersion::V2025_03_26
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A protocol version string this crate does not speak.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unsupported MCP protocol version `{0}`; supported: {supported}", supported = supported_list())]
#[non_exhaustive]
pub struct UnsupportedVersion(pub String);

impl UnsupportedVersion {
    /// The error for the version string `version`.
    pub fn new(version: impl Into<String>) -> Self {
        UnsupportedVersion(version.into())
    }

    /// The version string that was not recognised.
    pub fn version(&self) -> &str {
        &self.0
    }
}

/// The supported versions, oldest first, comma-separated.
fn supported_list() -> String {
    let supported: Vec<&str> = ProtocolVersion::ALL.iter().map(|version| version.as_str()).collect();
    supported.join(", ")
}

impl FromStr for ProtocolVersion {
    type Err = UnsupportedVersion;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        ProtocolVersion::ALL
            .iter()
            .copied()
            .find(|version| version.as_str() == text)
            .ok_or_else(|| UnsupportedVersion(text.to_owned()))
    }
}

impl Serialize for ProtocolVersion {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ProtocolVersion {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
