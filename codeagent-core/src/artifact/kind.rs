use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The rendering category of an artifact.
///
/// Version 1 defines six kinds; any other string is kept as [`Kind::Other`] so
/// that artifacts from newer producers survive a round trip untouched.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// Plain text: payload `{text}`.
    Text,
    /// A table: payload `{df: {columns, rows}}`.
    Table,
    /// One or more images: payload `{images: [{mime, b64}], output}`.
    Image,
    /// Source code: payload `{text, lang, filename, output}`.
    Code,
    /// A change to a text: payload `{old, new, path}`.
    Diff,
    /// A failure: payload `{message, detail}`.
    Error,
    /// A kind this version does not define.
    Other(String),
}

impl Kind {
    /// The kind's wire name.
    pub fn as_str(&self) -> &str {
        match self {
            Kind::Text => "text",
            Kind::Table => "table",
            Kind::Image => "image",
            Kind::Code => "code",
            Kind::Diff => "diff",
            Kind::Error => "error",
            Kind::Other(other) => other,
        }
    }

    /// The kind named by `name`.
    pub fn from_name(name: &str) -> Kind {
        match name {
            "text" => Kind::Text,
            "table" => Kind::Table,
            "image" => Kind::Image,
            "code" => Kind::Code,
            "diff" => Kind::Diff,
            "error" => Kind::Error,
            other => Kind::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Kind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Kind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        if name.is_empty() {
            return Err(serde::de::Error::custom("an artifact kind must not be empty"));
        }
        Ok(Kind::from_name(&name))
    }
}

/// The state of the result an artifact describes.
///
/// Producers use `success` or `error`; any other non-empty string is kept.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Status {
    /// The tool succeeded.
    Success,
    /// The tool failed.
    Error,
    /// A status this version does not define.
    Other(String),
}

impl Status {
    /// The status's wire name.
    pub fn as_str(&self) -> &str {
        match self {
            Status::Success => "success",
            Status::Error => "error",
            Status::Other(other) => other,
        }
    }

    /// The status named by `name`.
    pub fn from_name(name: &str) -> Status {
        match name {
            "success" => Status::Success,
            "error" => Status::Error,
            other => Status::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Status {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Status {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        if name.is_empty() {
            return Err(serde::de::Error::custom("an artifact status must not be empty"));
        }
        Ok(Status::from_name(&name))
    }
}
