//! Conversion to JSON that refuses non-finite numbers.
//!
//! `serde_json` silently writes `NaN` and infinities as `null`. Structured
//! output must not lose data that way, so values are first scanned by a
//! serializer that produces nothing and fails on the first non-finite float;
//! `serde_path_to_error` names where it was found.

use std::fmt;

use serde::{Serialize, ser};
use serde_json::Value;

/// Why a value could not become JSON, and where.
#[derive(Debug)]
pub(crate) struct JsonProblem {
    /// The path inside the value, such as `rows[3].score`; empty at the root.
    pub(crate) path: String,
    /// What is wrong.
    pub(crate) message: String,
}

/// Converts `value` to JSON, failing with the path of any non-finite number
/// (`NaN`, `inf`, `-inf`) or anything else JSON cannot hold.
pub(crate) fn to_json_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, JsonProblem> {
    // The scan without path tracking is cheap; the path is only worked out
    // again when there is a problem to report.
    if value.serialize(&mut FiniteScan).is_err()
        && let Err(error) = serde_path_to_error::serialize(value, &mut FiniteScan)
    {
        let path = error.path().to_string();
        let path = if path == "." { String::new() } else { path };
        return Err(JsonProblem { path, message: error.inner().to_string() });
    }
    serde_json::to_value(value).map_err(|error| JsonProblem { path: String::new(), message: error.to_string() })
}

/// Whether `value` holds no non-finite number (nor anything else the scan refuses).
pub(crate) fn is_finite<T: Serialize + ?Sized>(value: &T) -> bool {
    value.serialize(&mut FiniteScan).is_ok()
}

struct FiniteScan;

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct NotFinite(String);

impl ser::Error for NotFinite {
    fn custom<T: fmt::Display>(message: T) -> Self {
        NotFinite(message.to_string())
    }
}

/// What a non-finite number is told, after the number.
pub(crate) const NO_NAN: &str = "JSON has no NaN or infinity (use an Option for missing values)";

fn check(value: f64) -> Result<(), NotFinite> {
    if value.is_finite() { Ok(()) } else { Err(NotFinite(format!("{value} is not a finite number; {NO_NAN}"))) }
}

macro_rules! accept {
    ($($method:ident($($ty:ty)?)),* $(,)?) => {$(
        fn $method(self $(, _: $ty)?) -> Result<(), NotFinite> {
            Ok(())
        }
    )*};
}

impl ser::Serializer for &mut FiniteScan {
    type Ok = ();
    type Error = NotFinite;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    accept!(
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
        serialize_char(char),
        serialize_str(&str),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
    );

    fn serialize_f32(self, value: f32) -> Result<(), NotFinite> {
        check(f64::from(value))
    }

    fn serialize_f64(self, value: f64) -> Result<(), NotFinite> {
        check(value)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), NotFinite> {
        value.serialize(self)
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), NotFinite> {
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Result<(), NotFinite> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), NotFinite> {
        value.serialize(self)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Self, NotFinite> {
        Ok(self)
    }

    fn serialize_tuple(self, _: usize) -> Result<Self, NotFinite> {
        Ok(self)
    }

    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, NotFinite> {
        Ok(self)
    }

    fn serialize_tuple_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, NotFinite> {
        Ok(self)
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Self, NotFinite> {
        Ok(self)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, NotFinite> {
        Ok(self)
    }

    fn serialize_struct_variant(self, _: &'static str, _: u32, _: &'static str, _: usize) -> Result<Self, NotFinite> {
        Ok(self)
    }
}

macro_rules! compound {
    ($($trait:ident :: $method:ident),* $(,)?) => {$(
        impl ser::$trait for &mut FiniteScan {
            type Ok = ();
            type Error = NotFinite;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotFinite> {
                value.serialize(&mut **self)
            }

            fn end(self) -> Result<(), NotFinite> {
                Ok(())
            }
        }
    )*};
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

macro_rules! fields {
    ($($trait:ident),* $(,)?) => {$(
        impl ser::$trait for &mut FiniteScan {
            type Ok = ();
            type Error = NotFinite;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, _: &'static str, value: &T) -> Result<(), NotFinite> {
                value.serialize(&mut **self)
            }

            fn end(self) -> Result<(), NotFinite> {
                Ok(())
            }
        }
    )*};
}

fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for &mut FiniteScan {
    type Ok = ();
    type Error = NotFinite;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), NotFinite> {
        key.serialize(&mut **self)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), NotFinite> {
        value.serialize(&mut **self)
    }

    fn end(self) -> Result<(), NotFinite> {
        Ok(())
    }
}
