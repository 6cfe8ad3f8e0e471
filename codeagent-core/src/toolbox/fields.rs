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
//! schema's constraints are checked only when all of them decoded.

use std::fmt;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::map::IntoIter;
use serde_json::{Error, Value};

use super::decode::{Checked, checked_arguments, refused};
use super::{ToolCall, ToolSpec};
use crate::output::ToolError;

/// A call's arguments, handed out one declared field at a time.
pub struct Fields {
    spec: &'static ToolSpec,
    names: &'static [&'static str],
    deny_unknown: bool,
    entries: IntoIter,
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
        Ok(Fields { spec, names, deny_unknown, entries: arguments.into_iter(), violation })
    }

    /// The next declared argument in the order the client sent them: its
    /// index in `names` and its value; `None` when there are no more.
    pub fn next_field(&mut self) -> Result<Option<(usize, Value)>, ToolError> {
        for (name, value) in self.entries.by_ref() {
            if let Some(index) = self.names.iter().position(|known| *known == name) {
                return Ok(Some((index, value)));
            }
            if self.deny_unknown {
                let error: Error = de::Error::unknown_field(&name, self.names);
                return Err(refused(self.spec, &name, &error.to_string()));
            }
        }
        Ok(None)
    }

    /// Decodes the value of field `index`.
    pub fn decode<T: DeserializeOwned>(&self, index: usize, value: Value) -> Result<T, ToolError> {
        serde_path_to_error::deserialize(value).map_err(|error| self.refused_in(index, error.path(), error.inner()))
    }

    /// The value of field `index` when the client left it out: `None` for an
    /// `Option`, else the error serde gives for a missing field.
    pub fn missing<T: DeserializeOwned>(&self, index: usize) -> Result<T, ToolError> {
        T::deserialize(Missing(self.names[index])).map_err(|error| refused(self.spec, "", &error.to_string()))
    }

    /// After the last field: the first constraint of the input schema the
    /// arguments break, if any.
    pub fn finish(self) -> Result<(), ToolError> {
        match self.violation {
            None => Ok(()),
            Some((path, message)) => Err(refused(self.spec, &path, &message)),
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
