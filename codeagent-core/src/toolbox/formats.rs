//! Standard `format`s only: schemars' integer and float formats (`int32`,
//! `uint8`, `double`, ...) are not JSON Schema formats, and clients warn about
//! them (Gemini CLI: `unknown format "uint32" ignored in schema`).

use serde_json::{Map, Value};

use super::schema::DATA_KEYWORDS;

/// The formats of JSON Schema 2020-12 (its format vocabulary), which listings keep.
const STANDARD: [&str; 19] = [
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// `schema` with only standard `format`s: an integer format whose range is
/// narrower than JSON's (`int8` to `int32`, `uint8` to `uint64`, `uint`)
/// becomes `minimum`/`maximum` bounds (a tighter bound already there stays),
/// and every other format that is not one of JSON Schema 2020-12's
/// (`int64`, `float`, `double`, a format of the author's own) is removed.
/// `date-time`, `email`, `uri` and the rest of the standard ones stay.
///
/// Toolboxes list their schemas this way unless
/// [`Toolbox::with_schemars_formats`](super::Toolbox::with_schemars_formats) says otherwise.
///
/// ```
/// use codeagent_core::schema::standard_formats;
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {
///     "steps": {"type": "integer", "format": "uint32", "minimum": 1},
///     "ratio": {"type": "number", "format": "double"},
///     "at": {"type": "string", "format": "date-time"}}});
/// assert_eq!(standard_formats(&schema), json!({"type": "object", "properties": {
///     "steps": {"type": "integer", "minimum": 1, "maximum": 4294967295u32},
///     "ratio": {"type": "number"},
///     "at": {"type": "string", "format": "date-time"}}}));
/// ```
pub fn standard_formats(schema: &Value) -> Value {
    let mut schema = schema.clone();
    rewrite(&mut schema);
    schema
}

fn rewrite(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if let Some(Value::String(format)) = map.get("format")
                && !STANDARD.contains(&format.as_str())
            {
                let range = integer_range(format);
                super::schema::remove_ordered(map, "format");
                if let Some((low, high)) = range {
                    tighten(map, "minimum", low, |bound, existing| existing >= bound);
                    if let Some(high) = high {
                        tighten(map, "maximum", high, |bound, existing| existing <= bound);
                    }
                }
            }
            for (key, value) in map.iter_mut() {
                if !DATA_KEYWORDS.contains(&key.as_str()) {
                    rewrite(value);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(rewrite),
        _ => {}
    }
}

/// The range of a schemars integer format narrower than JSON's numbers:
/// its least value and, when it is within `f64`'s exact integers, its greatest.
fn integer_range(format: &str) -> Option<(Value, Option<Value>)> {
    let (low, high): (i64, Option<i64>) = match format {
        "int8" => (i8::MIN.into(), Some(i8::MAX.into())),
        "int16" => (i16::MIN.into(), Some(i16::MAX.into())),
        "int32" => (i32::MIN.into(), Some(i32::MAX.into())),
        "uint8" => (0, Some(u8::MAX.into())),
        "uint16" => (0, Some(u16::MAX.into())),
        "uint32" => (0, Some(u32::MAX.into())),
        "uint64" | "uint128" | "uint" => (0, None),
        _ => return None,
    };
    Some((Value::from(low), high.map(Value::from)))
}

/// Sets `key` to `bound` unless a value there already `holds` (is at least as tight).
fn tighten(map: &mut Map<String, Value>, key: &str, bound: Value, holds: fn(f64, f64) -> bool) {
    let tighter = map
        .get(key)
        .and_then(Value::as_f64)
        .zip(bound.as_f64())
        .is_some_and(|(existing, bound)| holds(bound, existing));
    if !tighter {
        map.insert(key.to_owned(), bound);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_narrow_integer_format_becomes_its_bounds() {
        for (format, low, high) in [
            ("int8", json!(-128), json!(127)),
            ("int16", json!(-32768), json!(32767)),
            ("int32", json!(-2147483648i64), json!(2147483647)),
            ("uint8", json!(0), json!(255)),
            ("uint16", json!(0), json!(65535)),
            ("uint32", json!(0), json!(4294967295u32)),
        ] {
            let schema = standard_formats(&json!({"type": "integer", "format": format}));
            assert_eq!(schema, json!({"type": "integer", "minimum": low, "maximum": high}), "{format}");
        }
    }

    #[test]
    fn wide_formats_keep_what_json_can_say() {
        assert_eq!(standard_formats(&json!({"format": "uint64"})), json!({"minimum": 0}));
        assert_eq!(standard_formats(&json!({"format": "int64"})), json!({}));
        assert_eq!(standard_formats(&json!({"format": "float"})), json!({}));
        assert_eq!(standard_formats(&json!({"format": "phone"})), json!({}));
    }

    #[test]
    fn tighter_bounds_stay_and_looser_ones_give_way() {
        let schema = json!({"type": "integer", "format": "uint8", "minimum": 1, "maximum": 1000});
        assert_eq!(standard_formats(&schema), json!({"type": "integer", "minimum": 1, "maximum": 255}));
        let schema = json!({"type": "integer", "format": "int8", "minimum": -1000});
        assert_eq!(standard_formats(&schema), json!({"type": "integer", "minimum": -128, "maximum": 127}));
    }

    #[test]
    fn standard_formats_stay_and_data_is_untouched() {
        let schema = json!({"$defs": {"When": {"type": "string", "format": "date-time"}},
            "anyOf": [{"format": "email"}, {"items": {"format": "int16"}}],
            "default": {"format": "uint32"}, "enum": [{"format": "double"}]});
        assert_eq!(
            standard_formats(&schema),
            json!({"$defs": {"When": {"type": "string", "format": "date-time"}},
                "anyOf": [{"format": "email"}, {"items": {"minimum": -32768, "maximum": 32767}}],
                "default": {"format": "uint32"}, "enum": [{"format": "double"}]})
        );
    }

    #[test]
    fn a_property_named_format_is_a_schema_not_a_keyword() {
        let schema = json!({"type": "object", "properties": {"format": {"type": "string", "format": "uri"}}});
        assert_eq!(standard_formats(&schema), schema);
    }
}
