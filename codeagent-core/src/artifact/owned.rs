use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use super::{ARTIFACT_SCHEMA, ARTIFACT_VERSION, ArtifactRef, Kind, Status, Versions};

/// An owned artifact, as a producer builds it.
///
/// It serialises with exactly the keys `schema, version, kind, status, icon,
/// title, payload`, in that order, all seven always present; keys a newer
/// version adds follow them untouched.
///
/// ```
/// use codeagent_core::artifact::{Artifact, Kind};
/// use serde_json::json;
///
/// let artifact = Artifact::new(Kind::Text, json!({"text": "hello"}).as_object().unwrap().clone())
///     .with_title("Greeting");
/// assert_eq!(
///     serde_json::to_string(&artifact).unwrap(),
///     r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"text","status":"success","icon":null,"title":"Greeting","payload":{"text":"hello"}}"#
/// );
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Artifact {
    version: u64,
    kind: Kind,
    status: Status,
    icon: Option<String>,
    title: Option<String>,
    payload: Map<String, Value>,
    rest: Map<String, Value>,
}

impl Artifact {
    /// A version-1 artifact of `kind`; its status is `error` for [`Kind::Error`]
    /// and `success` otherwise.
    pub fn new(kind: Kind, payload: Map<String, Value>) -> Self {
        let status = if kind == Kind::Error { Status::Error } else { Status::Success };
        Artifact { version: ARTIFACT_VERSION, kind, status, icon: None, title: None, payload, rest: Map::new() }
    }

    /// Sets the status. [`Kind::Error`] keeps `error` whatever is asked.
    #[must_use]
    pub fn with_status(mut self, status: Status) -> Self {
        self.status = if self.kind == Kind::Error { Status::Error } else { status };
        self
    }

    /// Sets the portable icon name.
    #[must_use]
    pub fn with_icon(mut self, icon: impl Into<String>) -> Self {
        self.icon = Some(icon.into());
        self
    }

    /// Sets the plain-text title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The protocol version.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The rendering category.
    pub fn kind(&self) -> &Kind {
        &self.kind
    }

    /// The result state.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The icon name.
    pub fn icon(&self) -> Option<&str> {
        self.icon.as_deref()
    }

    /// The title.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The kind-specific payload.
    pub fn payload(&self) -> &Map<String, Value> {
        &self.payload
    }

    /// The payload, to add fields a host understands.
    pub fn payload_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.payload
    }

    /// Validates `value` as an artifact of a version `versions` accepts.
    pub fn from_value(value: &Value, versions: &Versions) -> Option<Artifact> {
        ArtifactRef::parse(value, versions).map(|view| view.to_artifact())
    }

    /// The artifact as JSON, moving the payload rather than copying it.
    pub fn into_value(self) -> Value {
        let mut object = Map::with_capacity(7 + self.rest.len());
        object.insert("schema".into(), Value::from(ARTIFACT_SCHEMA));
        object.insert("version".into(), Value::from(self.version));
        object.insert("kind".into(), Value::from(self.kind.as_str()));
        object.insert("status".into(), Value::from(self.status.as_str()));
        object.insert("icon".into(), self.icon.map_or(Value::Null, Value::from));
        object.insert("title".into(), self.title.map_or(Value::Null, Value::from));
        object.insert("payload".into(), Value::Object(self.payload));
        object.extend(self.rest);
        Value::Object(object)
    }

    pub(super) fn from_view(view: &ArtifactRef<'_>) -> Self {
        const OUTER: [&str; 7] = ["schema", "version", "kind", "status", "icon", "title", "payload"];
        Artifact {
            version: view.version(),
            kind: view.kind(),
            status: view.status(),
            icon: view.icon().map(str::to_owned),
            title: view.title().map(str::to_owned),
            payload: view.payload().clone(),
            rest: view
                .as_object()
                .iter()
                .filter(|(key, _)| !OUTER.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        }
    }
}

impl Serialize for Artifact {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(7 + self.rest.len()))?;
        map.serialize_entry("schema", ARTIFACT_SCHEMA)?;
        map.serialize_entry("version", &self.version)?;
        map.serialize_entry("kind", &self.kind)?;
        map.serialize_entry("status", &self.status)?;
        map.serialize_entry("icon", &self.icon)?;
        map.serialize_entry("title", &self.title)?;
        map.serialize_entry("payload", &self.payload)?;
        for (key, value) in &self.rest {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Artifact {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Artifact::from_value(&value, &Versions::Any).ok_or_else(|| {
            serde::de::Error::custom(
                "not a codeagent artifact: expected `schema` \"codeagent.tool-artifact\", a positive whole `version`, \
                 non-empty `kind` and `status` strings, string or null `icon` and `title`, and an object `payload`",
            )
        })
    }
}
