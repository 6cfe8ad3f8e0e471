//! A result's `extra`, whose large data may still be the JSON text it was
//! written to (a table's rows, a `Json<T>`'s content; see `raw_json`): the
//! server sends that text as it is, and anyone reading `extra` gets it
//! parsed, once, on the first read.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::raw_json::RawParts;

/// `extra`: a map whose values may hold markers of `parts`.
#[derive(Clone, Default)]
pub(super) struct Extra {
    map: Map<String, Value>,
    parts: RawParts,
    /// `map` with the markers replaced, made on the first read.
    read: OnceLock<Map<String, Value>>,
}

impl Extra {
    /// `map`, without markers.
    pub(super) fn from_map(map: Map<String, Value>) -> Extra {
        Extra { map, parts: RawParts::default(), read: OnceLock::new() }
    }

    /// The map, with every marker replaced by the value it stands for.
    pub(super) fn get(&self) -> &Map<String, Value> {
        if self.parts.is_empty() {
            return &self.map;
        }
        self.read.get_or_init(|| {
            let mut map = self.map.clone();
            map.values_mut().for_each(|value| self.parts.materialise(value));
            map
        })
    }

    /// The map, to change any of it: the markers are replaced first.
    pub(super) fn get_mut(&mut self) -> &mut Map<String, Value> {
        if !self.parts.is_empty() {
            self.map = match self.read.take() {
                Some(read) => read,
                None => {
                    let mut map = std::mem::take(&mut self.map);
                    map.values_mut().for_each(|value| self.parts.materialise(value));
                    map
                }
            };
            self.parts = RawParts::default();
        }
        &mut self.map
    }

    /// The map as it is, markers and all, to add or replace whole entries
    /// (which keeps the markers of the others valid).
    pub(super) fn entries_mut(&mut self) -> &mut Map<String, Value> {
        self.read = OnceLock::new();
        &mut self.map
    }

    /// Adds texts whose markers the map holds (or is about to).
    pub(super) fn add_parts(&mut self, parts: RawParts) {
        self.read = OnceLock::new();
        self.parts.absorb(parts);
    }

    /// The map, materialised.
    pub(super) fn into_map(mut self) -> Map<String, Value> {
        std::mem::take(self.get_mut())
    }

    /// The map with its markers, and the texts they stand for.
    pub(super) fn into_raw(self) -> (Map<String, Value>, RawParts) {
        (self.map, self.parts)
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
