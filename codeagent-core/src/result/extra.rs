//! A result's `extra`, whose large data may still be the JSON text it was
//! written to (a table's rows, a `Json<T>`'s content; see `raw_json`): the
//! server sends that text as it is, and anyone reading `extra` gets it
//! parsed, once, on the first read. Likewise the artifact of plain text,
//! which only repeats the value (and which MCP leaves out): it is made when
//! someone reads it, not for every call.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::artifact::{Artifact, Kind};
use crate::raw_json::RawParts;

/// `extra`: a map whose values may hold markers of texts written once,
/// and which may lack the text artifact it holds once read.
#[derive(Clone, Default)]
pub(super) struct Extra {
    map: Map<String, Value>,
    /// What is made on reading; `None` for a map that is all there is (most
    /// results read from JSON or built by hand). Boxed, as a result is moved
    /// around a lot and this is rare but for plain text.
    lazy: Option<Box<Lazy>>,
}

#[derive(Clone, Default)]
struct Lazy {
    /// The texts `map`'s markers stand for.
    parts: RawParts,
    /// The text whose artifact `extra.codeagent.artifact` is, made when read
    /// (`map` is then empty).
    text_artifact: Option<String>,
    /// `map` with the markers replaced and the artifact made, on the first read.
    read: OnceLock<Map<String, Value>>,
}

/// `extra` holding the text artifact of `text`.
fn with_text_artifact(text: String) -> Map<String, Value> {
    let artifact = Artifact::new(Kind::Text, Map::from_iter([("text".to_owned(), Value::String(text))]));
    let codeagent = Map::from_iter([("artifact".to_owned(), artifact.into_value())]);
    Map::from_iter([("codeagent".to_owned(), Value::Object(codeagent))])
}

impl Lazy {
    /// `map` as read: markers replaced, the text artifact made.
    fn made(&self, map: &Map<String, Value>) -> Map<String, Value> {
        if let Some(text) = &self.text_artifact {
            return with_text_artifact(text.clone());
        }
        let mut map = map.clone();
        map.values_mut().for_each(|value| self.parts.materialise(value));
        map
    }
}

impl Extra {
    /// `map`, all there is.
    pub(super) fn from_map(map: Map<String, Value>) -> Extra {
        Extra { map, lazy: None }
    }

    /// `extra` holding only the text artifact of `text` (its portable value), made when read.
    pub(super) fn text_artifact(text: String) -> Extra {
        Extra { map: Map::new(), lazy: Some(Box::new(Lazy { text_artifact: Some(text), ..Lazy::default() })) }
    }

    /// The map, with every marker replaced by the value it stands for.
    pub(super) fn get(&self) -> &Map<String, Value> {
        match &self.lazy {
            None => &self.map,
            Some(lazy) => lazy.read.get_or_init(|| lazy.made(&self.map)),
        }
    }

    /// The map, to change any of it: the markers are replaced first.
    pub(super) fn get_mut(&mut self) -> &mut Map<String, Value> {
        if let Some(mut lazy) = self.lazy.take() {
            self.map = match lazy.read.take() {
                Some(read) => read,
                None => lazy.made(&self.map),
            };
        }
        &mut self.map
    }

    /// The map as it is, markers and all, to add or replace whole entries
    /// (which keeps the markers of the others valid); the text artifact is
    /// made first, so the keys keep their order.
    pub(super) fn entries_mut(&mut self) -> &mut Map<String, Value> {
        if let Some(lazy) = &mut self.lazy {
            if let Some(text) = lazy.text_artifact.take() {
                self.map = with_text_artifact(text);
            }
            lazy.read = OnceLock::new();
        }
        &mut self.map
    }

    /// Adds texts whose markers the map holds (or is about to).
    pub(super) fn add_parts(&mut self, parts: RawParts) {
        self.entries_mut();
        let lazy = self.lazy.get_or_insert_with(Box::default);
        lazy.parts.absorb(parts);
    }

    /// The map, materialised.
    pub(super) fn into_map(mut self) -> Map<String, Value> {
        std::mem::take(self.get_mut())
    }

    /// The map with its markers, and the texts they stand for; the text
    /// artifact made only when `keep_text_artifact` (MCP leaves a text
    /// artifact that repeats a successful result's value out).
    pub(super) fn into_raw(self, keep_text_artifact: bool) -> (Map<String, Value>, RawParts) {
        let Some(lazy) = self.lazy else { return (self.map, RawParts::default()) };
        let Lazy { parts, text_artifact, .. } = *lazy;
        match text_artifact {
            Some(text) if keep_text_artifact => (with_text_artifact(text), parts),
            _ => (self.map, parts),
        }
    }
}

impl PartialEq for Extra {
    fn eq(&self, other: &Extra) -> bool {
        self.get() == other.get()
    }
}

impl fmt::Debug for Extra {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(formatter)
    }
}

impl Serialize for Extra {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.get().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Map::deserialize(deserializer).map(Extra::from_map)
    }
}
