//! Records written straight to the JSON text of a table's rows, in one pass:
//! each field is written as it is read and its column's type taken in on the
//! way, so no cell ever becomes a `serde_json::Value` (see `raw_json`).
//!
//! Only the common case is written this way: every record a struct or map
//! with the same fields in the same order, every value valid JSON. Anything
//! else gives `None`, and the table is read cell by cell (`records`), which
//! also words the errors.

use std::fmt;

use serde::ser::{self, Impossible, Serialize};
use serde_json::Value;

use super::column_type::ColumnType;
use crate::finite_json::to_json_value;

/// The rows of a table, written.
pub(super) struct WrittenRows {
    /// The JSON array of the rows, each an array of cells: `[[...],[...]]`
    /// (UTF-8: serde_json writes strings as they are, escapes in ASCII).
    pub(super) json: Vec<u8>,
    /// Where each row's `[` is in `json`.
    pub(super) starts: Vec<usize>,
    /// The column names, from the first record.
    pub(super) names: Vec<String>,
    /// The type of each column.
    pub(super) types: Vec<ColumnType>,
}

/// Writes `rows`; `None` when they are not all records with the first's
/// fields, in its order, holding valid JSON (or there are none).
pub(super) fn write<T: Serialize>(rows: &[T]) -> Option<WrittenRows> {
    if rows.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(rows.len().saturating_mul(64));
    let mut written =
        WrittenRows { json: Vec::new(), starts: Vec::with_capacity(rows.len()), names: Vec::new(), types: Vec::new() };
    let mut names: Vec<&'static str> = Vec::new();
    out.push(b'[');
    for (index, row) in rows.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        written.starts.push(out.len());
        out.push(b'[');
        let mut writer =
            RowWriter { out: &mut out, names: &mut names, types: &mut written.types, first: index == 0, position: 0 };
        row.serialize(&mut writer).ok()?;
        if writer.position != writer.names.len() {
            return None;
        }
        out.push(b']');
    }
    if names.is_empty() {
        return None;
    }
    out.push(b']');
    written.json = out;
    written.names = names.into_iter().map(str::to_owned).collect();
    Some(written)
}

/// A record that cannot be written in the fast way.
#[derive(Debug)]
struct Reshape;

impl fmt::Display for Reshape {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("not written as a row")
    }
}

impl std::error::Error for Reshape {}

impl ser::Error for Reshape {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Reshape
    }
}

/// Writes one record's values as a row's cells.
struct RowWriter<'a> {
    out: &'a mut Vec<u8>,
    /// The first record's field names: a struct's, the same `&'static str`
    /// for every record, so most are told equal by their address.
    names: &'a mut Vec<&'static str>,
    types: &'a mut Vec<ColumnType>,
    /// The first record, whose fields name the columns.
    first: bool,
    /// How many fields were written.
    position: usize,
}

impl RowWriter<'_> {
    fn field<T: Serialize + ?Sized>(&mut self, name: &'static str, value: &T) -> Result<(), Reshape> {
        if self.first {
            self.names.push(name);
            self.types.push(ColumnType::Null);
        } else if self
            .names
            .get(self.position)
            .is_none_or(|expected| !(std::ptr::eq(*expected, name) || *expected == name))
        {
            return Err(Reshape);
        }
        if self.position > 0 {
            self.out.push(b',');
        }
        let ty = match value.serialize(CellWriter { out: self.out }) {
            Ok(ty) => ty,
            Err(Cell::Compound) => {
                let value = to_json_value(value).map_err(|_| Reshape)?;
                serde_json::to_writer(&mut *self.out, &value).map_err(|_| Reshape)?;
                ColumnType::of(&value)
            }
            Err(Cell::Invalid) => return Err(Reshape),
        };
        let column = &mut self.types[self.position];
        *column = column.unify(ty);
        self.position += 1;
        Ok(())
    }
}

macro_rules! reshape {
    ($($method:ident($($ty:ty),*)),* $(,)?) => {$(
        fn $method(self $(, _: $ty)*) -> Result<(), Reshape> {
            Err(Reshape)
        }
    )*};
}

impl ser::Serializer for &mut RowWriter<'_> {
    type Ok = ();
    type Error = Reshape;
    type SerializeSeq = Impossible<(), Reshape>;
    type SerializeTuple = Impossible<(), Reshape>;
    type SerializeTupleStruct = Impossible<(), Reshape>;
    type SerializeTupleVariant = Impossible<(), Reshape>;
    type SerializeMap = Impossible<(), Reshape>;
    type SerializeStruct = Self;
    type SerializeStructVariant = Impossible<(), Reshape>;

    reshape!(
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

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Reshape> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), Reshape> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Reshape> {
        Err(Reshape)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Reshape> {
        Err(Reshape)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Reshape> {
        Err(Reshape)
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct, Reshape> {
        Err(Reshape)
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Reshape> {
        Err(Reshape)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Reshape> {
        // Maps are read cell by cell, where their keys follow serde_json's rules.
        Err(Reshape)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Reshape> {
        Ok(self)
    }

    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Reshape> {
        Err(Reshape)
    }
}

impl ser::SerializeStruct for &mut RowWriter<'_> {
    type Ok = ();
    type Error = Reshape;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Reshape> {
        self.field(key, value)
    }

    fn end(self) -> Result<(), Reshape> {
        Ok(())
    }
}

/// Why a value is not written as a scalar cell.
#[derive(Debug)]
enum Cell {
    /// A sequence, map, struct or variant (or a 128-bit number or bytes):
    /// converted the general way, which refuses what JSON cannot hold.
    Compound,
    /// A NaN or an infinity, or a serialiser's own error.
    Invalid,
}

impl fmt::Display for Cell {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            Cell::Compound => "not a scalar",
            Cell::Invalid => "not valid JSON",
        })
    }
}

impl std::error::Error for Cell {}

impl ser::Error for Cell {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Cell::Invalid
    }
}

/// Writes a scalar cell exactly as `serde_json` writes the `Value` that
/// `serde_json::to_value` makes of it (an `f32` widened to `f64`), and tells
/// its type.
struct CellWriter<'a> {
    out: &'a mut Vec<u8>,
}

type NotScalar = Impossible<ColumnType, Cell>;

impl CellWriter<'_> {
    fn put<T: Serialize>(self, value: T, ty: ColumnType) -> Result<ColumnType, Cell> {
        serde_json::to_writer(&mut *self.out, &value).map_err(|_| Cell::Invalid)?;
        Ok(ty)
    }

    fn float(self, value: f64) -> Result<ColumnType, Cell> {
        if !value.is_finite() {
            return Err(Cell::Invalid);
        }
        // As a `Value` holds it: a float without a fraction is still a float.
        self.put(value, ColumnType::Number)
    }
}

impl ser::Serializer for CellWriter<'_> {
    type Ok = ColumnType;
    type Error = Cell;
    type SerializeSeq = NotScalar;
    type SerializeTuple = NotScalar;
    type SerializeTupleStruct = NotScalar;
    type SerializeTupleVariant = NotScalar;
    type SerializeMap = NotScalar;
    type SerializeStruct = NotScalar;
    type SerializeStructVariant = NotScalar;

    fn serialize_bool(self, value: bool) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Boolean)
    }
    fn serialize_i8(self, value: i8) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Integer)
    }
    fn serialize_i16(self, value: i16) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Integer)
    }
    fn serialize_i32(self, value: i32) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Integer)
    }
    fn serialize_i64(self, value: i64) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Integer)
    }
    fn serialize_u8(self, value: u8) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Integer)
    }
    fn serialize_u16(self, value: u16) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Integer)
    }
    fn serialize_u32(self, value: u32) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Integer)
    }
    fn serialize_u64(self, value: u64) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::Integer)
    }
    fn serialize_f32(self, value: f32) -> Result<ColumnType, Cell> {
        self.float(f64::from(value))
    }
    fn serialize_f64(self, value: f64) -> Result<ColumnType, Cell> {
        self.float(value)
    }
    fn serialize_char(self, value: char) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::String)
    }
    fn serialize_str(self, value: &str) -> Result<ColumnType, Cell> {
        self.put(value, ColumnType::String)
    }
    fn serialize_none(self) -> Result<ColumnType, Cell> {
        self.put((), ColumnType::Null)
    }
    fn serialize_unit(self) -> Result<ColumnType, Cell> {
        self.put((), ColumnType::Null)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<ColumnType, Cell> {
        self.put((), ColumnType::Null)
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<ColumnType, Cell> {
        self.put(variant, ColumnType::String)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<ColumnType, Cell> {
        value.serialize(self)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<ColumnType, Cell> {
        value.serialize(self)
    }

    fn serialize_i128(self, _: i128) -> Result<ColumnType, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_u128(self, _: u128) -> Result<ColumnType, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<ColumnType, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<ColumnType, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<NotScalar, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_tuple(self, _: usize) -> Result<NotScalar, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<NotScalar, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<NotScalar, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<NotScalar, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<NotScalar, Cell> {
        Err(Cell::Compound)
    }
    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<NotScalar, Cell> {
        Err(Cell::Compound)
    }
}

/// The cells of row `index` of the rows written to `json`, parsed.
pub(super) fn row(json: &[u8], starts: &[usize], index: usize) -> Vec<Value> {
    let start = starts[index];
    // A row ends before the `,` that starts the next one, or before the closing `]`.
    let end = starts.get(index + 1).map_or(json.len() - 1, |next| next - 1);
    serde_json::from_slice(&json[start..end]).unwrap_or_default()
}
