//! Decoding a tool's arguments one field at a time: what the expansion of
//! `#[tool]` calls, so that a tool compiles no deserializer of its own.
//!
//! A derived `Deserialize` for each tool's argument struct would instantiate
//! serde's and serde_json's generic code with types local to each expansion,
//! all of it in the same few codegen units of the user's crate: an edit that
//! moves the code of one tool would compile them all again. Decoding field by
//! field instantiates that code once per parameter *type* (`i64`, `String`, a
//! user's struct), shared by every tool taking it.
//!
//! The errors are serde's, in serde's order: the arguments are read in the
//! order the client sent them (an undeclared one refused when it comes up),
//! then the missing ones in the order the function declares them; the input
//! schema's constraints are checked only when all of them decoded. The
//! expansion takes each field in turn ([`Fields::take`]), in the order the
//! function declares them, and [`Fields::finish`] reports the first error in
//! serde's order: each error is kept with its place in that order.

use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Error, Value};

use super::decode::{Checked, checked_arguments, refused};
use super::{ToolCall, ToolSpec};
use crate::output::{IntoToolResult, ToolError, call_error};
use crate::result::ToolResult;

/// A call's arguments, handed out one declared field at a time.
pub struct Fields {
    spec: &'static ToolSpec,
    names: &'static [&'static str],
    /// Per declared field: its place in the order the client sent the
    /// arguments, and its value; `None` when it was not sent.
    slots: Vec<Option<(usize, Value)>>,
    /// How many arguments the client sent: the errors of missing fields come
    /// after those of every argument sent.
    sent: usize,
    /// The first error in serde's order so far, with its place in that order.
    error: Option<(usize, ToolError)>,
    violation: Option<(String, String)>,
}

impl Fields {
    /// Takes the call's arguments, for a tool whose fields are `names` (the
    /// names on the wire, injected parameters included). With `deny_unknown`,
    /// an argument not in `names` is an error.
    pub fn new(
        spec: &'static ToolSpec,
        call: &mut ToolCall,
        names: &'static [&'static str],
        deny_unknown: bool,
    ) -> Result<Fields, ToolError> {
        let Checked { arguments, violation } = checked_arguments(spec, call)?;
        let sent = arguments.len();
        let mut fields =
            Fields { spec, names, slots: names.iter().map(|_| None).collect(), sent, error: None, violation };
        for (place, (name, value)) in arguments.into_iter().enumerate() {
            if let Some(index) = names.iter().position(|known| *known == name) {
                fields.slots[index] = Some((place, value));
            } else if deny_unknown {
                // Serde stops at the first error: what comes after it cannot
                // come first.
                let error: Error = de::Error::unknown_field(&name, names);
                fields.error = Some((place, refused(spec, &name, &error.to_string())));
                break;
            }
        }
        Ok(fields)
    }

    /// The value of field `index`: decoded when the client sent it, else
    /// `None` for an `Option` and the error "missing field" for anything else.
    /// `None` when it fails (the error is kept for [`finish`](Self::finish)).
    pub fn take<T: DeserializeOwned>(&mut self, index: usize) -> Option<T> {
        match self.slots[index].take() {
            Some((place, value)) => self.decode(index, place, value),
            None => match T::deserialize(Missing(self.names[index])) {
                Ok(value) => Some(value),
                Err(error) => {
                    let error = refused(self.spec, "", &error.to_string());
                    self.keep(self.sent + index, error);
                    None
                }
            },
        }
    }

    /// [`take`](Self::take) of a `#[serde(default)]` field: `T::default()`
    /// when the client left it out.
    pub fn take_or_default<T: DeserializeOwned + Default>(&mut self, index: usize) -> Option<T> {
        self.take_or_else(index, T::default)
    }

    /// [`take`](Self::take) of a `#[serde(default = "path")]` field:
    /// `default()` when the client left it out.
    pub fn take_or_else<T: DeserializeOwned>(&mut self, index: usize, default: fn() -> T) -> Option<T> {
        match self.slots[index].take() {
            Some((place, value)) => self.decode(index, place, value),
            None => Some(default()),
        }
    }

    /// After the last field: the first error in serde's order, else the
    /// first constraint of the input schema the arguments break, if any.
    pub fn finish(self) -> Result<(), ToolError> {
        if let Some((_, error)) = self.error {
            return Err(error);
        }
        match self.violation {
            None => Ok(()),
            Some((path, message)) => Err(refused(self.spec, &path, &message)),
        }
    }

    /// What a call whose arguments did not all decode returns: the error
    /// [`finish`](Self::finish) gave. (Given `Ok`, a field that failed
    /// without an error: a bug of the expansion, reported as the call's error.)
    pub fn failed(outcome: Result<(), ToolError>) -> ToolResult {
        match outcome {
            Err(error) => error.into_tool_result(),
            Ok(()) => call_error("an argument was not decoded"),
        }
    }

    /// Decodes `value`, field `index`, sent at `place`.
    fn decode<T: DeserializeOwned>(&mut self, index: usize, place: usize, value: Value) -> Option<T> {
        if self.error.as_ref().is_some_and(|(first, _)| *first < place) {
            // An earlier error is the one reported.
            return None;
        }
        match serde_path_to_error::deserialize(value) {
            Ok(value) => Some(value),
            Err(error) => {
                let error = self.refused_in(index, error.path(), error.inner());
                self.keep(place, error);
                None
            }
        }
    }

    /// Keeps `error`, at `place` in serde's order, when it comes before the one kept.
    fn keep(&mut self, place: usize, error: ToolError) {
        if self.error.as_ref().is_none_or(|(first, _)| place < *first) {
            self.error = Some((place, error));
        }
    }

    /// The error of field `index` refused at `path` inside it.
    fn refused_in(&self, index: usize, path: &serde_path_to_error::Path, error: &Error) -> ToolError {
        let name = self.names[index];
        let inner = path.to_string();
        let path = match inner.as_str() {
            "." => name.to_owned(),
            inner if inner.starts_with('[') => format!("{name}{inner}"),
            inner => format!("{name}.{inner}"),
        };
        refused(self.spec, &path, &error.to_string())
    }
}

impl fmt::Debug for Fields {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_struct("Fields").field("tool", &self.spec.name()).field("names", &self.names).finish()
    }
}

/// What a field left out deserializes from: `None` for an `Option` (and
/// anything else that asks for an option), else the error "missing field".
struct Missing(&'static str);

impl<'de> Deserializer<'de> for Missing {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Error> {
        Err(de::Error::missing_field(self.0))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_none()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct newtype_struct seq tuple tuple_struct
        map struct enum identifier ignored_any
    }
}
