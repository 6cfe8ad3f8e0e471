use serde_json::{Map, Value};

use super::{ARTIFACT_SCHEMA, Artifact, Kind, Status, Versions};

/// A validated, borrowed view of an artifact inside a result, an event or raw JSON.
///
/// Obtaining one proves the schema and the outer shape are valid and the version
/// passed the consumer's [`Versions`] filter. Nothing is copied: the payload is
/// borrowed from wherever the artifact lives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArtifactRef<'a> {
    object: &'a Map<String, Value>,
    version: u64,
    kind: &'a str,
    status: &'a str,
    icon: Option<&'a str>,
    title: Option<&'a str>,
    payload: &'a Map<String, Value>,
}

impl<'a> ArtifactRef<'a> {
    /// Validates `value` as an artifact whose version `versions` accepts.
    ///
    /// Returns `None`, never panics, for anything else: a wrong or missing
    /// `schema`, a version that is not a positive whole number, a `kind` or
    /// `status` that is not a non-empty string, an `icon` or `title` that is
    /// neither a string nor null, or a `payload` that is not an object.
    pub fn parse(value: &'a Value, versions: &Versions) -> Option<Self> {
        let view = Self::parse_any(value)?;
        versions.accepts(view.version).then_some(view)
    }

    fn parse_any(value: &'a Value) -> Option<Self> {
        let object = value.as_object()?;
        if object.get("schema")?.as_str()? != ARTIFACT_SCHEMA {
            return None;
        }
        Some(ArtifactRef {
            object,
            version: version_number(object.get("version")?)?,
            kind: non_empty_str(object.get("kind")?)?,
            status: non_empty_str(object.get("status")?)?,
            icon: optional_str(object.get("icon"))?,
            title: optional_str(object.get("title"))?,
            payload: object.get("payload")?.as_object()?,
        })
    }

    /// The artifact's protocol version.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The rendering category.
    pub fn kind(&self) -> Kind {
        Kind::from_name(self.kind)
    }

    /// The rendering category's wire name, without allocating.
    pub fn kind_name(&self) -> &'a str {
        self.kind
    }

    /// The result state.
    pub fn status(&self) -> Status {
        Status::from_name(self.status)
    }

    /// Whether the status is `error`.
    pub fn is_error(&self) -> bool {
        self.status == "error"
    }

    /// The optional icon name.
    pub fn icon(&self) -> Option<&'a str> {
        self.icon
    }

    /// The optional plain-text title.
    pub fn title(&self) -> Option<&'a str> {
        self.title
    }

    /// The kind-specific payload.
    pub fn payload(&self) -> &'a Map<String, Value> {
        self.payload
    }

    /// A string field of the payload, such as `text`, `lang` or `message`.
    pub fn payload_str(&self, key: &str) -> Option<&'a str> {
        self.payload.get(key)?.as_str()
    }

    /// The whole artifact object, including keys a newer version may add.
    pub fn as_object(&self) -> &'a Map<String, Value> {
        self.object
    }

    /// An owned copy.
    pub fn to_artifact(&self) -> Artifact {
        Artifact::from_view(self)
    }
}

/// A positive whole number, whether written `2` or `2.0`.
pub(crate) fn version_number(value: &Value) -> Option<u64> {
    let number = value.as_number()?;
    if let Some(whole) = number.as_u64() {
        return (whole >= 1).then_some(whole);
    }
    let float = number.as_f64()?;
    let whole = float.is_finite() && float >= 1.0 && float.fract() == 0.0 && float <= 2f64.powi(53);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    whole.then_some(float as u64)
}

fn non_empty_str(value: &Value) -> Option<&str> {
    value.as_str().filter(|text| !text.is_empty())
}

/// `Some(None)` for absent or null, `Some(Some(text))` for a string, `None` otherwise.
fn optional_str(value: Option<&Value>) -> Option<Option<&str>> {
    match value {
        None | Some(Value::Null) => Some(None),
        Some(Value::String(text)) => Some(Some(text)),
        Some(_) => None,
    }
}
