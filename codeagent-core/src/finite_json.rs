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

/// `value`, serialised by any serializer as it is but for a non-finite
/// number, which fails the serialisation (the error `custom`, naming the
/// number): [`is_finite`]'s scan done while writing, rather than in a pass
/// of its own.
pub(crate) struct RefuseNonFinite<'a, T: ?Sized>(pub(crate) &'a T);

impl<T: Serialize + ?Sized> Serialize for RefuseNonFinite<'_, T> {
    #[inline]
    fn serialize<S: ser::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Refusing(serializer))
    }
}

/// A serializer, or one of its compound serializers, whose values are
/// wrapped in [`RefuseNonFinite`] on their way in.
struct Refusing<S>(S);

fn refused<E: ser::Error>(value: f64) -> E {
    E::custom(format_args!("{value} is not a finite number; {NO_NAN}"))
}

/// Methods passed on as they are.
macro_rules! pass {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        #[inline]
        fn $method(self, value: $ty) -> Result<S::Ok, S::Error> {
            self.0.$method(value)
        }
    )*};
}

impl<S: ser::Serializer> ser::Serializer for Refusing<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Refusing<S::SerializeSeq>;
    type SerializeTuple = Refusing<S::SerializeTuple>;
    type SerializeTupleStruct = Refusing<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Refusing<S::SerializeTupleVariant>;
    type SerializeMap = Refusing<S::SerializeMap>;
    type SerializeStruct = Refusing<S::SerializeStruct>;
    type SerializeStructVariant = Refusing<S::SerializeStructVariant>;

    pass!(
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
        serialize_unit_struct(&'static str),
    );

    #[inline]
    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.0.serialize_none()
    }

    #[inline]
    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.0.serialize_unit()
    }

    #[inline]
    fn serialize_f32(self, value: f32) -> Result<S::Ok, S::Error> {
        if !value.is_finite() {
            return Err(refused(f64::from(value)));
        }
        self.0.serialize_f32(value)
    }

    #[inline]
    fn serialize_f64(self, value: f64) -> Result<S::Ok, S::Error> {
        if !value.is_finite() {
            return Err(refused(value));
        }
        self.0.serialize_f64(value)
    }

    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&RefuseNonFinite(value))
    }

    #[inline]
    fn serialize_unit_variant(self, name: &'static str, index: u32, variant: &'static str) -> Result<S::Ok, S::Error> {
        self.0.serialize_unit_variant(name, index, variant)
    }

    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &RefuseNonFinite(value))
    }

    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_variant(name, index, variant, &RefuseNonFinite(value))
    }

    #[inline]
    fn serialize_seq(self, length: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(length).map(Refusing)
    }

    #[inline]
    fn serialize_tuple(self, length: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(length).map(Refusing)
    }

    #[inline]
    fn serialize_tuple_struct(self, name: &'static str, length: usize) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, length).map(Refusing)
    }

    #[inline]
    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        length: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0.serialize_tuple_variant(name, index, variant, length).map(Refusing)
    }

    #[inline]
    fn serialize_map(self, length: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(length).map(Refusing)
    }

    #[inline]
    fn serialize_struct(self, name: &'static str, length: usize) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, length).map(Refusing)
    }

    #[inline]
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        length: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0.serialize_struct_variant(name, index, variant, length).map(Refusing)
    }

    #[inline]
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        self.0.collect_str(value)
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

/// Compound serializers whose elements are passed on wrapped.
macro_rules! refusing_compound {
    ($($trait:ident :: $method:ident),* $(,)?) => {$(
        impl<S: ser::$trait> ser::$trait for Refusing<S> {
            type Ok = S::Ok;
            type Error = S::Error;

            #[inline]
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
                self.0.$method(&RefuseNonFinite(value))
            }

            #[inline]
            fn end(self) -> Result<S::Ok, S::Error> {
                self.0.end()
            }
        }
    )*};
}

refusing_compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

/// Compound serializers of named fields, passed on wrapped.
macro_rules! refusing_fields {
    ($($trait:ident),* $(,)?) => {$(
        impl<S: ser::$trait> ser::$trait for Refusing<S> {
            type Ok = S::Ok;
            type Error = S::Error;

            #[inline]
            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), S::Error> {
                self.0.serialize_field(key, &RefuseNonFinite(value))
            }

            #[inline]
            fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
                self.0.skip_field(key)
            }

            #[inline]
            fn end(self) -> Result<S::Ok, S::Error> {
                self.0.end()
            }
        }
    )*};
}

refusing_fields!(SerializeStruct, SerializeStructVariant);

impl<S: ser::SerializeMap> ser::SerializeMap for Refusing<S> {
    type Ok = S::Ok;
    type Error = S::Error;

    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), S::Error> {
        self.0.serialize_key(&RefuseNonFinite(key))
    }

    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), S::Error> {
        self.0.serialize_value(&RefuseNonFinite(value))
    }

    #[inline]
    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(
        &mut self,
        key: &K,
        value: &V,
    ) -> Result<(), S::Error> {
        self.0.serialize_entry(&RefuseNonFinite(key), &RefuseNonFinite(value))
    }

    #[inline]
    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Serialize;

    use super::*;

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(f64),
        Tuple(u8, f32),
        Struct { side: Option<f64> },
    }

    #[derive(Serialize)]
    struct Everything {
        shapes: Vec<Shape>,
        pair: (i128, u128),
        scores: BTreeMap<String, Vec<f64>>,
        bytes: &'static [u8],
        nothing: Option<()>,
    }

    fn everything(score: f64) -> Everything {
        Everything {
            shapes: vec![Shape::Unit, Shape::Newtype(1.5), Shape::Tuple(2, 0.25), Shape::Struct { side: Some(3.0) }],
            pair: (i128::MIN, u128::MAX),
            scores: BTreeMap::from([("a".to_owned(), vec![0.5, score])]),
            bytes: b"\x00\"",
            nothing: None,
        }
    }

    #[test]
    fn a_finite_value_is_written_as_it_is() {
        let value = everything(-2.0);
        assert_eq!(serde_json::to_vec(&RefuseNonFinite(&value)).unwrap(), serde_json::to_vec(&value).unwrap());
    }

    #[test]
    fn a_non_finite_number_anywhere_fails_the_writing() {
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let error = serde_json::to_vec(&RefuseNonFinite(&everything(bad))).unwrap_err();
            assert!(error.to_string().contains(NO_NAN), "{error}");
            let error = serde_json::to_vec(&RefuseNonFinite(&Shape::Struct { side: Some(bad) })).unwrap_err();
            assert!(error.to_string().contains("not a finite number"), "{error}");
        }
        assert!(serde_json::to_vec(&RefuseNonFinite(&Shape::Tuple(1, f32::NAN))).is_err());
        assert!(serde_json::to_vec(&RefuseNonFinite(&[Shape::Newtype(f64::INFINITY)])).is_err());
    }
}
