//! The type of a table's column, inferred from its values.

use serde::Serialize;
use serde_json::Value;

/// The JSON type of a column's values, inferred from them (nulls aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum ColumnType {
    /// Whole numbers.
    Integer,
    /// Numbers, some with a fraction.
    Number,
    /// Strings.
    String,
    /// Booleans.
    Boolean,
    /// Objects, arrays, or a mix of types.
    Json,
    /// Only nulls.
    Null,
}

impl ColumnType {
    pub(super) fn of(value: &Value) -> ColumnType {
        match value {
            Value::Null => ColumnType::Null,
            Value::Bool(_) => ColumnType::Boolean,
            Value::Number(number) if number.is_f64() => ColumnType::Number,
            Value::Number(_) => ColumnType::Integer,
            Value::String(_) => ColumnType::String,
            Value::Array(_) | Value::Object(_) => ColumnType::Json,
        }
    }

    pub(super) fn unify(self, other: ColumnType) -> ColumnType {
        use ColumnType::{Integer, Json, Null, Number};
        match (self, other) {
            (Null, other) | (other, Null) => other,
            (a, b) if a == b => a,
            (Integer, Number) | (Number, Integer) => Number,
            _ => Json,
        }
    }
}
