//! The argument checker: every constraint an input schema states, enforced on
//! the arguments serde accepted.
//!
//! Serde decodes the type the schema was generated from, so it already
//! enforces types, required fields, unknown fields and enum variants, with
//! good messages; its error wins when there is one. This checker then
//! enforces the rest: ranges, lengths, sizes, `pattern`, `format`,
//! `uniqueItems`, `const`, `enum`, `anyOf`/`oneOf`/`allOf`/`not`,
//! `if`/`then`/`else`, `dependentRequired`, `dependentSchemas`,
//! `propertyNames`, `contains`, `patternProperties`, following `properties`,
//! `items`, `prefixItems`, `additionalProperties` and local `$ref`s.
//!
//! A schema is compiled once, when its [`ToolSpec`](super::ToolSpec) is
//! built: patterns are compiled then, and a keyword or `format` the checker
//! does not know is refused (the toolbox will not take the tool) rather than
//! advertised and ignored.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use regex_lite::Regex;
use serde_json::{Map, Number, Value};

use super::schema::resolve_ref;
use crate::schema_ref::follow_ref;

/// Keywords that only annotate: nothing to enforce.
const ANNOTATIONS: [&str; 9] =
    ["$schema", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly"];

/// Keywords that describe what serde enforces itself when it decodes the type
/// the schema was generated from. A schema made of these (and annotations)
/// only needs no checker at all.
const STRUCTURAL: [&str; 8] =
    ["type", "properties", "required", "additionalProperties", "items", "$ref", "$defs", "definitions"];

/// The `format`s the checker enforces: the ones schemars emits for Rust's
/// numbers, addresses, UUIDs, dates and times.
const FORMATS: [&str; 24] = [
    "int8",
    "int16",
    "int32",
    "int64",
    "int128",
    "int",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uint128",
    "uint",
    "float",
    "double",
    "ipv4",
    "ipv6",
    "ip",
    "uuid",
    "date",
    "time",
    "date-time",
    "partial-time",
    "partial-date-time",
    "regex",
];

/// A constraint of an input schema that cannot be enforced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    /// The keyword.
    pub(crate) keyword: String,
    /// Where it is, as a JSON pointer into the schema (`#/properties/to`).
    pub(crate) location: String,
    /// Why it cannot be enforced, completing "`keyword` at location ...".
    pub(crate) reason: String,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` at {} {}", self.keyword, self.location, self.reason)
    }
}

/// The compiled checker of one input schema.
#[derive(Clone, Debug, Default)]
pub(crate) struct Checker {
    patterns: HashMap<String, Regex>,
}

impl Checker {
    /// Compiles the checker of `schema`: `None` when the schema states nothing
    /// serde does not enforce already, a refusal when it states something the
    /// checker cannot enforce.
    pub(crate) fn compile(schema: &Value) -> Result<Option<Checker>, Refusal> {
        let mut compiler =
            Compiler { root: schema, checker: Checker::default(), constrained: false, pointer: "#".to_owned() };
        compiler.schema(schema)?;
        Ok(compiler.constrained.then_some(compiler.checker))
    }

    /// The first constraint `value` breaks, as `(path, message)`.
    pub(crate) fn first_violation(&self, schema: &Value, value: &Value) -> Option<(String, String)> {
        let mut walk = Walk { checker: self, root: schema, path: Vec::new() };
        walk.check(schema, value, 0).map(|(path, message)| (render(&path), message))
    }

    fn pattern(&self, pattern: &str) -> Option<&Regex> {
        self.patterns.get(pattern)
    }
}

struct Compiler<'a> {
    root: &'a Value,
    checker: Checker,
    constrained: bool,
    pointer: String,
}

impl Compiler<'_> {
    fn refuse<T>(&self, keyword: &str, reason: impl Into<String>) -> Result<T, Refusal> {
        Err(Refusal { keyword: keyword.to_owned(), location: self.pointer.clone(), reason: reason.into() })
    }

    fn nested(&mut self, segment: &str, schema: &Value) -> Result<(), Refusal> {
        let length = self.pointer.len();
        self.pointer.push('/');
        self.pointer.push_str(&segment.replace('~', "~0").replace('/', "~1"));
        let result = self.schema(schema);
        self.pointer.truncate(length);
        result
    }

    fn schema(&mut self, schema: &Value) -> Result<(), Refusal> {
        let map = match schema {
            Value::Bool(true) => return Ok(()),
            Value::Bool(false) => {
                self.constrained = true;
                return Ok(());
            }
            Value::Object(map) => map,
            _ => return self.refuse("schema", "is neither an object nor a boolean"),
        };
        for (keyword, value) in map {
            let keyword = keyword.as_str();
            if ANNOTATIONS.contains(&keyword) || keyword.starts_with("x-") {
                continue;
            }
            let unknown_fields = keyword == "unevaluatedProperties" && value == &Value::Bool(false);
            if !(STRUCTURAL.contains(&keyword) || unknown_fields || keyword == "format" && is_number_format(value)) {
                self.constrained = true;
            }
            self.keyword(keyword, value)?;
        }
        Ok(())
    }

    fn keyword(&mut self, keyword: &str, value: &Value) -> Result<(), Refusal> {
        match keyword {
            "type" => {
                let known = |name: &Value| {
                    matches!(
                        name.as_str(),
                        Some("null" | "boolean" | "integer" | "number" | "string" | "array" | "object")
                    )
                };
                let valid = match value {
                    Value::Array(names) => names.iter().all(known),
                    name => known(name),
                };
                if !valid {
                    return self.refuse(keyword, format!("names an unknown type: {value}"));
                }
            }
            "const" => {}
            "enum" => {
                if !value.is_array() {
                    return self.refuse(keyword, "is not an array");
                }
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
                if !value.is_number() {
                    return self.refuse(keyword, "is not a number");
                }
            }
            "multipleOf" => {
                if !value.as_f64().is_some_and(|step| step > 0.0) {
                    return self.refuse(keyword, "is not a number greater than 0");
                }
            }
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" | "minContains"
            | "maxContains" => {
                if value.as_u64().is_none() {
                    return self.refuse(keyword, "is not a non-negative integer");
                }
            }
            "uniqueItems" => {
                if !value.is_boolean() {
                    return self.refuse(keyword, "is not a boolean");
                }
            }
            "required" => {
                if !value.as_array().is_some_and(|names| names.iter().all(Value::is_string)) {
                    return self.refuse(keyword, "is not an array of property names");
                }
            }
            "dependentRequired" => {
                let names = |names: &Value| names.as_array().is_some_and(|names| names.iter().all(Value::is_string));
                if !value.as_object().is_some_and(|map| map.values().all(names)) {
                    return self.refuse(keyword, "is not an object of arrays of property names");
                }
            }
            "pattern" => {
                let Some(pattern) = value.as_str() else { return self.refuse(keyword, "is not a string") };
                self.compile_pattern(keyword, pattern)?;
            }
            "format" => match value.as_str() {
                Some(format) if FORMATS.contains(&format) => {}
                _ => return self.refuse(keyword, format!("is {value}, a format argument checking does not enforce")),
            },
            "$anchor" => {
                let name = value.as_str().unwrap_or_default();
                let mut chars = name.chars();
                let valid = chars.next().is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
                    && chars.all(|c| c.is_ascii_alphanumeric() || "-._".contains(c));
                if !valid {
                    return self.refuse(
                        keyword,
                        format!("is {value}, not a plain name (a letter or `_`, then letters, digits, `-`, `.`, `_`)"),
                    );
                }
            }
            "$ref" => {
                let Some(reference) = value.as_str() else { return self.refuse(keyword, "is not a string") };
                if let Err(error) = follow_ref(self.root, reference) {
                    return self.refuse(keyword, error.reason());
                }
            }
            // Unknown fields are serde's to refuse (see `Walk::object`); schemars
            // states them so for `#[serde(deny_unknown_fields)]`, with
            // `unevaluatedProperties` when the struct flattens another.
            "additionalProperties" | "unevaluatedProperties" if value == &Value::Bool(false) => {}
            "items" | "additionalProperties" | "not" | "if" | "then" | "else" | "propertyNames" | "contains" => {
                self.nested(keyword, value)?;
            }
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                let Some(branches) = value.as_array().filter(|branches| !branches.is_empty()) else {
                    return self.refuse(keyword, "is not a non-empty array of schemas");
                };
                let length = self.pointer.len();
                self.pointer.push('/');
                self.pointer.push_str(keyword);
                for (index, branch) in branches.iter().enumerate() {
                    self.nested(&index.to_string(), branch)?;
                }
                self.pointer.truncate(length);
            }
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                let Some(map) = value.as_object() else { return self.refuse(keyword, "is not an object of schemas") };
                let length = self.pointer.len();
                self.pointer.push('/');
                self.pointer.push_str(keyword);
                for (name, sub) in map {
                    if keyword == "patternProperties" {
                        self.compile_pattern(keyword, name)?;
                    }
                    self.nested(name, sub)?;
                }
                self.pointer.truncate(length);
            }
            _ => {
                return self.refuse(
                    keyword,
                    "is a keyword argument checking does not enforce: remove it, or check the value in the tool",
                );
            }
        }
        Ok(())
    }

    fn compile_pattern(&mut self, keyword: &str, pattern: &str) -> Result<(), Refusal> {
        if self.checker.patterns.contains_key(pattern) {
            return Ok(());
        }
        match Regex::new(pattern) {
            Ok(regex) => {
                self.checker.patterns.insert(pattern.to_owned(), regex);
                Ok(())
            }
            Err(error) => {
                self.refuse(keyword, format!("is {pattern:?}, which argument checking cannot compile: {error}"))
            }
        }
    }
}

/// Whether a `format` is one serde enforces when it decodes the Rust number
/// it was generated from (every one but `float`: serde turns a too large
/// number into an infinite `f32`).
fn is_number_format(format: &Value) -> bool {
    format.as_str().is_some_and(|format| FORMATS[..14].contains(&format) && format != "float")
}

/// The schema a local reference names: `#`, or a JSON pointer into the schema.
type Violation = (Vec<String>, String);

struct Walk<'a> {
    checker: &'a Checker,
    root: &'a Value,
    path: Vec<String>,
}

impl Walk<'_> {
    fn here(&self, message: String) -> Option<Violation> {
        Some((self.path.clone(), message))
    }

    fn at(&mut self, segment: String, schema: &Value, value: &Value, depth: usize) -> Option<Violation> {
        self.path.push(segment);
        let violation = self.check(schema, value, depth + 1);
        self.path.pop();
        violation
    }

    fn check(&mut self, schema: &Value, value: &Value, depth: usize) -> Option<Violation> {
        let schema = match schema {
            Value::Bool(true) => return None,
            Value::Bool(false) => return self.here(format!("{} is not allowed here", show(value))),
            Value::Object(schema) => schema,
            _ => return None,
        };
        if depth > 128 {
            return self.here("is nested too deeply to check".to_owned());
        }
        if let Some(target) = schema.get("$ref").and_then(Value::as_str).and_then(|r| resolve_ref(self.root, r))
            && let Some(violation) = self.check(target, value, depth + 1)
        {
            return Some(violation);
        }
        if let Some(message) = self.local_violation(schema, value) {
            return self.here(message);
        }
        for sub in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
            if let Some(violation) = self.check(sub, value, depth + 1) {
                return Some(violation);
            }
        }
        for key in ["anyOf", "oneOf"] {
            if let Some(branches) = schema.get(key).and_then(Value::as_array)
                && let Some(violation) = self.alternatives(key, branches, value, depth)
            {
                return Some(violation);
            }
        }
        if let Some(not) = schema.get("not")
            && self.matches(not, value, depth)
        {
            let message = match not.get("const") {
                Some(_) => format!("{} is not allowed", show(value)),
                None => format!("{} is not allowed here: it matches the schema under `not`", show(value)),
            };
            return self.here(message);
        }
        if let Some(condition) = schema.get("if") {
            let branch = if self.matches(condition, value, depth) { schema.get("then") } else { schema.get("else") };
            if let Some(branch) = branch
                && let Some(violation) = self.check(branch, value, depth + 1)
            {
                return Some(violation);
            }
        }
        match value {
            Value::Object(object) => self.object(schema, object, depth),
            Value::Array(items) => self.array(schema, items, depth),
            _ => None,
        }
    }

    fn matches(&mut self, schema: &Value, value: &Value, depth: usize) -> bool {
        let length = self.path.len();
        let matched = self.check(schema, value, depth + 1).is_none();
        self.path.truncate(length);
        matched
    }

    fn alternatives(&mut self, key: &str, branches: &[Value], value: &Value, depth: usize) -> Option<Violation> {
        let mut failures = Vec::new();
        let mut matched = 0;
        for branch in branches {
            match self.check(branch, value, depth + 1) {
                None if key == "anyOf" => return None,
                None => matched += 1,
                Some(violation) => failures.push((branch, violation)),
            }
        }
        match matched {
            1 => return None,
            0 => {}
            _ => {
                return self.here(format!(
                    "{} matches {matched} of the alternatives under `oneOf`; exactly one must match",
                    show(value)
                ));
            }
        }
        let admitting: Vec<&Violation> = failures
            .iter()
            .filter(|(branch, _)| admits(branch, value, self.root))
            .map(|(_, violation)| violation)
            .collect();
        if let [only] = admitting.as_slice() {
            return Some((*only).clone());
        }
        let constants: Option<Vec<String>> = branches.iter().map(|branch| branch.get("const").map(show)).collect();
        match constants {
            Some(constants) => self.here(format!("{} is not one of {}", show(value), constants.join(", "))),
            None => {
                self.here(format!("{} matches none of the {} alternatives under `{key}`", show(value), branches.len()))
            }
        }
    }

    fn local_violation(&self, schema: &Map<String, Value>, value: &Value) -> Option<String> {
        if let Some(declared) = schema.get("type")
            && !type_admits(declared, value)
        {
            let expected = match declared {
                Value::Array(names) => names.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" or "),
                name => name.as_str().unwrap_or_default().to_owned(),
            };
            return Some(format!("expected {expected}, got {} {}", json_type(value), show(value)));
        }
        if let Some(constant) = schema.get("const")
            && !equal(constant, value)
        {
            return Some(format!("{} is not the allowed value {}", show(value), show(constant)));
        }
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array)
            && !allowed.iter().any(|allowed| equal(allowed, value))
        {
            let allowed: Vec<String> = allowed.iter().map(show).collect();
            return Some(format!("{} is not one of {}", show(value), allowed.join(", ")));
        }
        let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
        match value {
            Value::Number(number) => {
                if let Some(message) =
                    schema.get("format").and_then(Value::as_str).and_then(|f| number_format(f, number))
                {
                    return Some(message);
                }
                let number = number.as_f64()?;
                if let Some(minimum) = bound("minimum").filter(|minimum| number < *minimum) {
                    return Some(format!("{number} is less than the minimum {minimum}"));
                }
                if let Some(maximum) = bound("maximum").filter(|maximum| number > *maximum) {
                    return Some(format!("{number} is greater than the maximum {maximum}"));
                }
                if let Some(minimum) = bound("exclusiveMinimum").filter(|minimum| number <= *minimum) {
                    return Some(format!("{number} must be greater than {minimum}"));
                }
                if let Some(maximum) = bound("exclusiveMaximum").filter(|maximum| number >= *maximum) {
                    return Some(format!("{number} must be less than {maximum}"));
                }
                if let Some(step) =
                    bound("multipleOf").filter(|step| *step > 0.0 && (number / step).fract().abs() > 1e-9)
                {
                    return Some(format!("{number} is not a multiple of {step}"));
                }
            }
            Value::String(text) => {
                let length = text.chars().count();
                if let Some(message) = sized(schema, length, "minLength", "maxLength", "characters") {
                    return Some(message);
                }
                if let Some(pattern) = schema.get("pattern").and_then(Value::as_str)
                    && let Some(regex) = self.checker.pattern(pattern)
                    && !regex.is_match(text)
                {
                    return Some(format!("{} does not match the pattern {pattern}", show(value)));
                }
                if let Some(format) = schema.get("format").and_then(Value::as_str)
                    && !string_format(format, text)
                {
                    return Some(format!("{} is not a valid {format}", show(value)));
                }
            }
            Value::Array(items) => {
                if let Some(message) = sized(schema, items.len(), "minItems", "maxItems", "items") {
                    return Some(message);
                }
                if schema.get("uniqueItems").and_then(Value::as_bool) == Some(true) {
                    let mut seen = HashSet::with_capacity(items.len());
                    if let Some(duplicate) = items.iter().find(|item| !seen.insert(canonical(item))) {
                        return Some(format!("has duplicate items ({} appears more than once)", show(duplicate)));
                    }
                }
            }
            Value::Object(object) => {
                if let Some(message) = sized(schema, object.len(), "minProperties", "maxProperties", "properties") {
                    return Some(message);
                }
                for name in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                    if let Some(name) = name.as_str()
                        && !object.contains_key(name)
                    {
                        return Some(format!("missing field `{name}`"));
                    }
                }
                for (present, needed) in
                    schema.get("dependentRequired").and_then(Value::as_object).into_iter().flatten()
                {
                    if !object.contains_key(present) {
                        continue;
                    }
                    for name in needed.as_array().into_iter().flatten().filter_map(Value::as_str) {
                        if !object.contains_key(name) {
                            return Some(format!("missing field `{name}`, required when `{present}` is given"));
                        }
                    }
                }
            }
            _ => {}
        }
        None
    }

    fn object(&mut self, schema: &Map<String, Value>, object: &Map<String, Value>, depth: usize) -> Option<Violation> {
        let properties = schema.get("properties").and_then(Value::as_object);
        let patterns = schema.get("patternProperties").and_then(Value::as_object);
        for (key, item) in object {
            if let Some(names) = schema.get("propertyNames")
                && let Some((_, message)) = self.at(key.clone(), names, &Value::String(key.clone()), depth)
            {
                return self.here(format!("the key {}: {message}", show(&Value::String(key.clone()))));
            }
            let mut matched = false;
            if let Some(sub) = properties.and_then(|properties| properties.get(key)) {
                matched = true;
                if let Some(violation) = self.at(key.clone(), sub, item, depth) {
                    return Some(violation);
                }
            }
            for (pattern, sub) in patterns.into_iter().flatten() {
                if self.checker.pattern(pattern).is_some_and(|regex| regex.is_match(key)) {
                    matched = true;
                    if let Some(violation) = self.at(key.clone(), sub, item, depth) {
                        return Some(violation);
                    }
                }
            }
            // `additionalProperties: false` is serde's to report (unknown
            // fields, with the names it expects), and serde may accept what it
            // does not list (aliases, `null` for an injected parameter).
            if !matched
                && let Some(sub) = schema.get("additionalProperties").filter(|sub| !matches!(sub, Value::Bool(false)))
                && let Some(violation) = self.at(key.clone(), sub, item, depth)
            {
                return Some(violation);
            }
        }
        for (present, sub) in schema.get("dependentSchemas").and_then(Value::as_object).into_iter().flatten() {
            if object.contains_key(present)
                && let Some(violation) = self.check(sub, &Value::Object(object.clone()), depth + 1)
            {
                return Some(violation);
            }
        }
        None
    }

    fn array(&mut self, schema: &Map<String, Value>, items: &[Value], depth: usize) -> Option<Violation> {
        let prefix = schema.get("prefixItems").and_then(Value::as_array);
        for (index, item) in items.iter().enumerate() {
            let sub = match prefix {
                Some(prefix) if index < prefix.len() => Some(&prefix[index]),
                _ => schema.get("items"),
            };
            if let Some(sub) = sub
                && let Some(violation) = self.at(format!("[{index}]"), sub, item, depth)
            {
                return Some(violation);
            }
        }
        if let Some(contains) = schema.get("contains") {
            let found = items.iter().filter(|item| self.matches(contains, item, depth)).count();
            let limit = |key: &str| schema.get(key).and_then(Value::as_u64).and_then(|n| usize::try_from(n).ok());
            let minimum = limit("minContains").unwrap_or(1);
            if found < minimum {
                return self.here(match found {
                    0 => "has no item matching the schema under `contains`".to_owned(),
                    found => format!(
                        "has {found} items matching the schema under `contains`, fewer than the minimum {minimum}"
                    ),
                });
            }
            if let Some(maximum) = limit("maxContains").filter(|maximum| found > *maximum) {
                return self.here(format!(
                    "has {found} items matching the schema under `contains`, more than the maximum {maximum}"
                ));
            }
        }
        None
    }
}

fn sized(schema: &Map<String, Value>, size: usize, min: &str, max: &str, unit: &str) -> Option<String> {
    let limit = |key: &str| schema.get(key).and_then(Value::as_u64).and_then(|limit| usize::try_from(limit).ok());
    if let Some(min) = limit(min).filter(|min| size < *min) {
        return Some(format!("has {size} {unit}, fewer than the minimum {min}"));
    }
    if let Some(max) = limit(max).filter(|max| size > *max) {
        return Some(format!("has {size} {unit}, more than the maximum {max}"));
    }
    None
}

/// The range a number `format` allows, when `number` is outside it.
fn number_format(format: &str, number: &Number) -> Option<String> {
    let (low, high): (i128, i128) = match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" | "int" => (i64::MIN.into(), i64::MAX.into()),
        "int128" => (i128::MIN, i128::MAX),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" | "uint" => (0, u64::MAX.into()),
        "uint128" => (0, i128::MAX),
        "float" => {
            let value = number.as_f64()?;
            return (value.abs() > f64::from(f32::MAX)).then(|| format!("{number} is out of the range of float"));
        }
        _ => return None,
    };
    let value = match (number.as_i64(), number.as_u64(), number.as_f64()) {
        (Some(value), _, _) => i128::from(value),
        (_, Some(value), _) => i128::from(value),
        (_, _, Some(value)) if value.fract() == 0.0 && value.abs() < 1.7e38 => value as i128,
        _ => return Some(format!("{number} is not an integer ({format})")),
    };
    (value < low || value > high).then(|| format!("{number} is out of the range of {format} ({low} to {high})"))
}

/// Whether `text` is valid in a string `format` (numeric formats admit any string).
fn string_format(format: &str, text: &str) -> bool {
    match format {
        "ipv4" => text.parse::<Ipv4Addr>().is_ok(),
        "ipv6" => text.parse::<Ipv6Addr>().is_ok(),
        "ip" => text.parse::<IpAddr>().is_ok(),
        "uuid" => {
            let bytes = text.as_bytes();
            bytes.len() == 36
                && bytes.iter().enumerate().all(|(index, byte)| match index {
                    8 | 13 | 18 | 23 => *byte == b'-',
                    _ => byte.is_ascii_hexdigit(),
                })
        }
        "date" => date(text),
        "time" => time(text, true),
        "partial-time" => time(text, false),
        "date-time" | "partial-date-time" => match text.split_once(['T', 't']) {
            Some((day, clock)) => date(day) && time(clock, format == "date-time"),
            None => false,
        },
        "regex" => Regex::new(text).is_ok(),
        _ => true,
    }
}

/// `YYYY-MM-DD`, a real day (RFC 3339 `full-date`).
fn date(text: &str) -> bool {
    let digits = |part: &str, count: usize| part.len() == count && part.bytes().all(|byte| byte.is_ascii_digit());
    let mut parts = text.split('-');
    let (Some(year), Some(month), Some(day), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    if !(digits(year, 4) && digits(month, 2) && digits(day, 2)) {
        return false;
    }
    let (year, month, day): (u32, u32, u32) =
        (year.parse().unwrap_or(0), month.parse().unwrap_or(0), day.parse().unwrap_or(0));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `HH:MM:SS[.frac]`, then a `Z` or `±HH:MM` offset when `offset` (RFC 3339
/// `full-time`) and none otherwise (`partial-time`).
fn time(text: &str, offset: bool) -> bool {
    // On bytes: an offset may hold non-ASCII characters, and slicing its
    // text at fixed positions could cut one.
    let two = |part: &[u8], max: u32| match part {
        [tens @ b'0'..=b'9', units @ b'0'..=b'9'] => u32::from(tens - b'0') * 10 + u32::from(units - b'0') <= max,
        _ => false,
    };
    let (clock, zone) = if offset {
        match text.find(['Z', 'z', '+', '-']) {
            Some(at) => text.split_at(at),
            None => return false,
        }
    } else {
        (text, "")
    };
    let zone_ok = match zone.as_bytes() {
        [] => !offset,
        [b'Z' | b'z'] => true,
        [b'+' | b'-', h1, h2, b':', m1, m2] => two(&[*h1, *h2], 23) && two(&[*m1, *m2], 59),
        _ => false,
    };
    let (whole, fraction) = match clock.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (clock, None),
    };
    let fraction_ok =
        fraction.is_none_or(|fraction| !fraction.is_empty() && fraction.bytes().all(|byte| byte.is_ascii_digit()));
    let mut parts = whole.split(':');
    let clock_ok = matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some(hour), Some(minute), Some(second), None)
            if two(hour.as_bytes(), 23) && two(minute.as_bytes(), 59) && two(second.as_bytes(), 60)
    );
    zone_ok && fraction_ok && clock_ok
}

/// Whether a `type` keyword admits the value.
fn type_admits(declared: &Value, value: &Value) -> bool {
    let name = json_type(value);
    let integral = matches!(value, Value::Number(number) if number.as_f64().is_some_and(|n| n.fract() == 0.0));
    let admits = |declared: &str| {
        declared == name || (declared == "number" && name == "integer") || (declared == "integer" && integral)
    };
    match declared {
        Value::String(declared) => admits(declared),
        Value::Array(declared) => declared.iter().filter_map(Value::as_str).any(admits),
        _ => true,
    }
}

/// Whether a branch (following one `$ref`) could be the one meant for the
/// value: its `type` admits it, its `const` is it, the value has the fields
/// it requires, and the properties it fixes with a `const` (an enum's tag)
/// are the value's.
fn admits(branch: &Value, value: &Value, root: &Value) -> bool {
    let branch = match branch.get("$ref").and_then(Value::as_str) {
        Some(reference) => match resolve_ref(root, reference) {
            Some(target) => target,
            None => return false,
        },
        None => branch,
    };
    if branch.get("type").is_some_and(|declared| !type_admits(declared, value))
        || branch.get("const").is_some_and(|constant| !equal(constant, value))
    {
        return false;
    }
    if let Value::Object(object) = value
        && let Some(required) = branch.get("required").and_then(Value::as_array)
        && !required.iter().filter_map(Value::as_str).all(|name| object.contains_key(name))
    {
        return false;
    }
    let (Some(properties), Value::Object(object)) = (branch.get("properties").and_then(Value::as_object), value) else {
        return true;
    };
    properties.iter().all(|(key, property)| match (property.get("const"), object.get(key)) {
        (Some(constant), Some(given)) => equal(constant, given),
        _ => true,
    })
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`), objects regardless of order.
fn equal(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Number(left), Value::Number(right)) => {
            match (left.as_i64(), right.as_i64(), left.as_u64(), right.as_u64()) {
                (Some(left), Some(right), _, _) => left == right,
                (_, _, Some(left), Some(right)) => left == right,
                _ => left.as_f64() == right.as_f64(),
            }
        }
        (Value::Array(left), Value::Array(right)) => {
            left.len() == right.len() && left.iter().zip(right).all(|(left, right)| equal(left, right))
        }
        (Value::Object(left), Value::Object(right)) => {
            left.len() == right.len()
                && left.iter().all(|(key, value)| right.get(key).is_some_and(|other| equal(value, other)))
        }
        (left, right) => left == right,
    }
}

/// A rendering equal for values [`equal`] finds equal, to find duplicates.
fn canonical(value: &Value) -> String {
    match value {
        Value::Number(number) => match (number.as_i64(), number.as_u64(), number.as_f64()) {
            (Some(value), _, _) => value.to_string(),
            (_, Some(value), _) => value.to_string(),
            (_, _, Some(value)) if value.fract() == 0.0 && value.abs() < 9.2e18 => (value as i64).to_string(),
            _ => number.to_string(),
        },
        Value::Array(items) => format!("[{}]", items.iter().map(canonical).collect::<Vec<_>>().join(",")),
        Value::Object(object) => {
            let mut entries: Vec<String> = object
                .iter()
                .map(|(key, value)| format!("{}:{}", Value::from(key.as_str()), canonical(value)))
                .collect();
            entries.sort();
            format!("{{{}}}", entries.join(","))
        }
        other => other.to_string(),
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The value as JSON, cut short when long.
fn show(value: &Value) -> String {
    let mut shown = value.to_string();
    if shown.chars().count() > 80 {
        shown = shown.chars().take(77).collect::<String>() + "...";
    }
    shown
}

fn render(path: &[String]) -> String {
    let mut rendered = String::new();
    for segment in path {
        if !segment.starts_with('[') && !rendered.is_empty() {
            rendered.push('.');
        }
        rendered.push_str(segment);
    }
    rendered
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn violation(schema: Value, value: Value) -> Option<(String, String)> {
        let checker = Checker::compile(&schema).expect("compiles").unwrap_or_default();
        checker.first_violation(&schema, &value)
    }

    #[test]
    fn a_schema_serde_enforces_needs_no_checker() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "integer", "format": "int64"},
            "b": {"type": "array", "items": {"$ref": "#/$defs/B"}}}, "required": ["a"],
            "additionalProperties": false, "$defs": {"B": {"type": "string", "description": "b"}}});
        assert!(Checker::compile(&schema).unwrap().is_none());
        assert!(Checker::compile(&json!({"unevaluatedProperties": false})).unwrap().is_none());
        assert!(Checker::compile(&json!({"type": "number", "format": "float"})).unwrap().is_some());
    }

    #[test]
    fn refusals_name_the_keyword_and_where_it_is() {
        let refused = |schema: Value| Checker::compile(&schema).unwrap_err().to_string();
        assert_eq!(
            refused(json!({"properties": {"a": {"$ref": "#/$defs/Missing"}}})),
            "`$ref` at #/properties/a is \"#/$defs/Missing\", which does not name a definition of this schema"
        );
        assert_eq!(
            refused(json!({"anyOf": [{"type": "string"}, {"format": "hostname"}]})),
            "`format` at #/anyOf/1 is \"hostname\", a format argument checking does not enforce"
        );
        assert!(refused(json!({"$dynamicRef": "#x"})).starts_with("`$dynamicRef` at # is a keyword"));
        assert_eq!(refused(json!({"minLength": -1})), "`minLength` at # is not a non-negative integer");
    }

    #[test]
    fn string_formats() {
        for (format, good, bad) in [
            ("date", "2024-02-29", "2023-02-29"),
            ("date", "1999-12-31", "2024-13-01"),
            ("date-time", "2024-01-01T10:00:00Z", "2024-01-01 10:00:00Z"),
            ("date-time", "2024-01-01t10:00:60.25+02:00", "2024-01-01T25:00:00Z"),
            ("partial-date-time", "2024-01-01T10:00:00.5", "2024-01-01T10:00:00Z"),
            ("time", "23:59:59-05:30", "23:59:59"),
            // Non-ASCII characters where the offset's digits or colon go.
            ("time", "23:59:59+05:30", "23:59:59+0é00"),
            ("date-time", "2024-01-01T10:00:00-05:30", "2024-01-01T10:00:00+02é0"),
            ("partial-time", "08:30:00", "8:30:00"),
            ("uuid", "67e55044-10b1-426f-9247-bb680e5fe0c8", "67e55044-10b1-426f-9247-bb680e5fe0c"),
            ("ipv4", "192.168.0.1", "192.168.0.256"),
            ("ipv6", "::1", "1::2::3"),
            ("ip", "10.0.0.1", "localhost"),
        ] {
            assert!(string_format(format, good), "{format}: {good}");
            assert!(!string_format(format, bad), "{format}: {bad}");
        }
    }

    #[test]
    fn integer_formats() {
        let schema = json!({"properties": {"n": {"type": "integer", "format": "int8"}}});
        assert_eq!(
            violation(schema, json!({"n": -129})),
            Some(("n".to_owned(), "-129 is out of the range of int8 (-128 to 127)".to_owned()))
        );
    }

    #[test]
    fn applicators() {
        let one_of = json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]});
        assert_eq!(
            violation(one_of, json!(3)).unwrap().1,
            "3 matches 2 of the alternatives under `oneOf`; exactly one must match"
        );
        let not = json!({"properties": {"n": {"type": "integer", "not": {"const": 0}}}});
        assert_eq!(violation(not, json!({"n": 0})).unwrap(), ("n".to_owned(), "0 is not allowed".to_owned()));
        let contains = json!({"contains": {"const": "x"}, "minContains": 2});
        assert_eq!(
            violation(contains, json!(["x", "y"])).unwrap().1,
            "has 1 items matching the schema under `contains`, fewer than the minimum 2"
        );
        let names = json!({"propertyNames": {"pattern": "^[a-z]+$"}});
        assert_eq!(
            violation(names, json!({"ok": 1, "Bad": 2})).unwrap().1,
            "the key \"Bad\": \"Bad\" does not match the pattern ^[a-z]+$"
        );
        let conditional = json!({"if": {"properties": {"unit": {"const": "pct"}}},
            "then": {"properties": {"value": {"maximum": 100}}}});
        assert_eq!(
            violation(conditional.clone(), json!({"unit": "pct", "value": 150})).unwrap(),
            ("value".to_owned(), "150 is greater than the maximum 100".to_owned())
        );
        assert_eq!(violation(conditional, json!({"unit": "abs", "value": 150})), None);
        let patterns = json!({"patternProperties": {"^n_": {"type": "integer", "minimum": 1}}});
        assert_eq!(violation(patterns, json!({"n_a": 0})).unwrap().0, "n_a");
        let unique = json!({"uniqueItems": true});
        assert_eq!(
            violation(unique.clone(), json!([1, 1.0])).unwrap().1,
            "has duplicate items (1.0 appears more than once)"
        );
        assert_eq!(violation(unique, json!([{"a": 1, "b": 2}, {"b": 2, "a": 1}])).unwrap().0, "");
    }
}
