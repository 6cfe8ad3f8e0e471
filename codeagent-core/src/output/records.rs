//! Records (structs or maps) turned into table rows in one pass: the fields of
//! each record are written straight into a row of cells, with no intermediate
//! map per record, and scalar cells never go through a generic JSON tree.

use std::fmt;

use serde::ser::{self, Impossible, Serialize};
use serde_json::{Number, Value};

use super::ToolError;
use crate::finite_json::{NO_NAN, to_json_value};

/// A record's fields, in order, as the rows of a table are built.
pub(super) struct Fields {
    /// The name of each field.
    pub(super) names: Vec<String>,
    /// The value of each field, in the order of `names`.
    pub(super) values: Vec<Value>,
}

/// Reads one record. `expected` is the field names of the records before it:
/// when this record has the same names in the same order, only its values are
/// collected (the common case of a slice of structs).
pub(super) fn record<T: Serialize + ?Sized>(row: &T, index: usize, expected: &[String]) -> Result<Fields, ToolError> {
    let mut fields = Fields { names: Vec::new(), values: Vec::with_capacity(expected.len()) };
    let mut reader = RecordReader { fields: &mut fields, expected, same_names: true, index };
    match row.serialize(&mut reader) {
        Ok(()) => {
            if reader.same_names {
                if fields.values.len() == expected.len() {
                    fields.names.clear();
                } else {
                    fields.names = expected[..fields.values.len()].to_vec();
                }
            }
            Ok(fields)
        }
        Err(Problem::NotARecord) => Err(ToolError::new(format!(
            "table row {index} is not a record: rows must serialise to objects such as structs or maps"
        ))),
        Err(Problem::Tool(error)) => Err(error),
        Err(Problem::Custom(message)) => Err(ToolError::new(format!("table row {index} is not valid JSON: {message}"))),
    }
}

struct RecordReader<'a> {
    fields: &'a mut Fields,
    expected: &'a [String],
    /// Whether every name so far matched `expected` at its position (then
    /// `fields.names` stays empty).
    same_names: bool,
    index: usize,
}

impl RecordReader<'_> {
    fn push_name(&mut self, name: &str) {
        let position = self.fields.values.len();
        if self.same_names && self.expected.get(position).is_some_and(|expected| expected == name) {
            return;
        }
        if self.same_names {
            // The first mismatch: the names so far were the expected ones.
            self.same_names = false;
            self.fields.names = self.expected[..position].to_vec();
        }
        self.fields.names.push(name.to_owned());
    }

    /// The name of the field at `position`, for an error message.
    fn name_at(&self, position: usize) -> &str {
        let names = if self.same_names { self.expected } else { &self.fields.names };
        names.get(position).map_or("?", String::as_str)
    }

    fn push_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Problem> {
        let cell = match value.serialize(ScalarCell) {
            Ok(cell) => cell,
            Err(ScalarProblem::NotFinite(number)) => {
                return Err(self.invalid(String::new(), format!("{number} is not a finite number; {NO_NAN}")));
            }
            Err(ScalarProblem::Compound | ScalarProblem::Custom(_)) => match to_json_value(value) {
                Ok(cell) => cell,
                Err(problem) => return Err(self.invalid(problem.path, problem.message)),
            },
        };
        self.fields.values.push(cell);
        Ok(())
    }

    /// A cell that is not valid JSON, at `path` inside the current field.
    fn invalid(&self, path: String, message: String) -> Problem {
        let name = self.name_at(self.fields.values.len());
        let separator = if path.is_empty() || path.starts_with('[') { "" } else { "." };
        Problem::Tool(ToolError::new(format!(
            "table row {} is not valid JSON at `{name}{separator}{path}`: {message}",
            self.index
        )))
    }
}

/// Why a row could not be read.
#[derive(Debug)]
enum Problem {
    NotARecord,
    Tool(ToolError),
    Custom(String),
}

impl fmt::Display for Problem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::NotARecord => formatter.write_str("not a record"),
            Problem::Tool(error) => formatter.write_str(error.message()),
            Problem::Custom(message) => formatter.write_str(message),
        }
    }
}

impl std::error::Error for Problem {}

impl ser::Error for Problem {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Problem::Custom(message.to_string())
    }
}

macro_rules! not_a_record {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {$(
        fn $method(self $(, _: $ty)*) -> Result<(), Problem> {
            Err(Problem::NotARecord)
        }
    )*};
}

impl<'a, 'b> ser::Serializer for &'b mut RecordReader<'a> {
    type Ok = ();
    type Error = Problem;
    type SerializeSeq = Impossible<(), Problem>;
    type SerializeTuple = Impossible<(), Problem>;
    type SerializeTupleStruct = Impossible<(), Problem>;
    type SerializeTupleVariant = Impossible<(), Problem>;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Problem>;

    not_a_record!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_i128(i128),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_u128(u128),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Problem> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Problem> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Problem> {
        Err(Problem::NotARecord)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Problem> {
        Err(Problem::NotARecord)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Problem> {
        Err(Problem::NotARecord)
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Problem> {
        Err(Problem::NotARecord)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Problem> {
        Err(Problem::NotARecord)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self, Problem> {
        Ok(self)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Problem> {
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Problem> {
        Err(Problem::NotARecord)
    }
}

impl ser::SerializeStruct for &mut RecordReader<'_> {
    type Ok = ();
    type Error = Problem;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Problem> {
        self.push_name(key);
        self.push_value(value)
    }

    fn end(self) -> Result<(), Problem> {
        Ok(())
    }
}

impl ser::SerializeMap for &mut RecordReader<'_> {
    type Ok = ();
    type Error = Problem;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Problem> {
        // serde_json's own rules for map keys: strings, and numbers and
        // booleans written as strings.
        match serde_json::to_value(key).map_err(|error| Problem::Custom(error.to_string()))? {
            Value::String(name) => self.push_name(&name),
            Value::Number(number) => self.push_name(&number.to_string()),
            Value::Bool(flag) => self.push_name(if flag { "true" } else { "false" }),
            _ => return Err(Problem::Custom("a map key must be a string".to_owned())),
        }
        Ok(())
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Problem> {
        self.push_value(value)
    }

    fn end(self) -> Result<(), Problem> {
        Ok(())
    }
}

/// Why a value is not a scalar cell.
#[derive(Debug)]
enum ScalarProblem {
    /// A sequence, map, struct or variant: converted the general way.
    Compound,
    /// A NaN or an infinity.
    NotFinite(f64),
    Custom(String),
}

impl fmt::Display for ScalarProblem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScalarProblem::Compound => formatter.write_str("not a scalar"),
            ScalarProblem::NotFinite(number) => write!(formatter, "{number} is not finite"),
            ScalarProblem::Custom(message) => formatter.write_str(message),
        }
    }
}

impl std::error::Error for ScalarProblem {}

impl ser::Error for ScalarProblem {
    fn custom<T: fmt::Display>(message: T) -> Self {
        ScalarProblem::Custom(message.to_string())
    }
}

/// Converts a scalar (a number, string, boolean, unit or option of one) to a
/// cell exactly as `serde_json::to_value` would, and refuses anything else.
struct ScalarCell;

type NotScalar = Impossible<Value, ScalarProblem>;

fn finite(number: f64) -> Result<Value, ScalarProblem> {
    Number::from_f64(number).map(Value::Number).ok_or(ScalarProblem::NotFinite(number))
}

impl ser::Serializer for ScalarCell {
    type Ok = Value;
    type Error = ScalarProblem;
    type SerializeSeq = NotScalar;
    type SerializeTuple = NotScalar;
    type SerializeTupleStruct = NotScalar;
    type SerializeTupleVariant = NotScalar;
    type SerializeMap = NotScalar;
    type SerializeStruct = NotScalar;
    type SerializeStructVariant = NotScalar;

    fn serialize_bool(self, value: bool) -> Result<Value, ScalarProblem> {
        Ok(Value::Bool(value))
    }
    fn serialize_i8(self, value: i8) -> Result<Value, ScalarProblem> {
        Ok(Value::from(value))
    }
    fn serialize_i16(self, value: i16) -> Result<Value, ScalarProblem> {
        Ok(Value::from(value))
    }
    fn serialize_i32(self, value: i32) -> Result<Value, ScalarProblem> {
        Ok(Value::from(value))
    }
    fn serialize_i64(self, value: i64) -> Result<Value, ScalarProblem> {
        Ok(Value::from(value))
    }
    fn serialize_u8(self, value: u8) -> Result<Value, ScalarProblem> {
        Ok(Value::from(value))
    }
    fn serialize_u16(self, value: u16) -> Result<Value, ScalarProblem> {
        Ok(Value::from(value))
    }
    fn serialize_u32(self, value: u32) -> Result<Value, ScalarProblem> {
        Ok(Value::from(value))
    }
    fn serialize_u64(self, value: u64) -> Result<Value, ScalarProblem> {
        Ok(Value::from(value))
    }
    fn serialize_f32(self, value: f32) -> Result<Value, ScalarProblem> {
        finite(f64::from(value))
    }
    fn serialize_f64(self, value: f64) -> Result<Value, ScalarProblem> {
        finite(value)
    }
    fn serialize_char(self, value: char) -> Result<Value, ScalarProblem> {
        Ok(Value::String(value.to_string()))
    }
    fn serialize_str(self, value: &str) -> Result<Value, ScalarProblem> {
        Ok(Value::String(value.to_owned()))
    }
    fn serialize_none(self) -> Result<Value, ScalarProblem> {
        Ok(Value::Null)
    }
    fn serialize_unit(self) -> Result<Value, ScalarProblem> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Value, ScalarProblem> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<Value, ScalarProblem> {
        Ok(Value::String(variant.to_owned()))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, ScalarProblem> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<Value, ScalarProblem> {
        value.serialize(self)
    }

    // Everything below is converted the general way (`to_json`), which also
    // covers serde_json's own conventions for 128-bit integers and bytes.
    fn serialize_i128(self, _: i128) -> Result<Value, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_u128(self, _: u128) -> Result<Value, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Value, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Value, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<NotScalar, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_tuple(self, _: usize) -> Result<NotScalar, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<NotScalar, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<NotScalar, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<NotScalar, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<NotScalar, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<NotScalar, ScalarProblem> {
        Err(ScalarProblem::Compound)
    }
}
