//! JSON written once: large data (a table's rows, a `Json<T>`'s content)
//! serialised to JSON text when it is read, and carried as that text through
//! the lowering of a result and the server's response, rather than as a
//! `serde_json::Value` tree that would be built, walked and freed.
//!
//! A [`RawParts`] holds the texts. Inside the `Value` trees that the lowering
//! moves around, each text stands as a marker: a string made of a prefix
//! drawn at random once per process and the text's index. Whoever writes the
//! tree out asks the `RawParts` it travels with to write it
//! ([`RawParts::write`]): a marker becomes its text, verbatim. Whoever reads
//! the tree as data asks for it materialised ([`RawParts::materialise`]): a
//! marker becomes its text parsed. A marker means something only to the parts
//! it was made by, and the prefix never leaves the process (every writer
//! replaces it), so no string a client sends can pose as one.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;

/// The texts a `Value` tree's markers stand for, each under a number no
/// other text of the process has (so parts of two sources can be joined).
#[derive(Clone, Debug, Default)]
pub(crate) struct RawParts {
    parts: Vec<(u64, Part)>,
}

/// One text.
#[derive(Clone, Debug)]
enum Part {
    /// JSON text written by this crate with `serde_json`, valid by construction.
    Json(Arc<Vec<u8>>),
    /// The JSON string whose content is text number `n`: a `Json<T>`'s
    /// text block, which holds its compact JSON.
    Quoted(u64),
    /// The JSON string of text number `n`'s JSON pretty-printed: a `Json<T>`
    /// code artifact's `text`, made only if some reader or older version needs it.
    Pretty(u64),
}

/// The number of the next text.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// The markers' prefix, or `None` when the system gave no randomness (then
/// no text is carried raw: every value is built as a tree, as before).
fn prefix() -> Option<&'static str> {
    static PREFIX: OnceLock<Option<String>> = OnceLock::new();
    PREFIX
        .get_or_init(|| crate::random::hex::<16>().ok().map(|hex| format!("\u{0}codeagent-raw-json-{hex}:")))
        .as_deref()
}

impl RawParts {
    /// Whether there are no texts (then a tree holds no markers).
    pub(crate) fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Keeps `json`, JSON text written by `serde_json`, and returns the
    /// marker that stands for it; `json` back when markers cannot be made.
    pub(crate) fn add(&mut self, json: Vec<u8>) -> Result<Value, Vec<u8>> {
        let Some(prefix) = prefix() else { return Err(json) };
        Ok(self.push(prefix, Part::Json(Arc::new(json))))
    }

    fn push(&mut self, prefix: &str, part: Part) -> Value {
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        self.parts.push((number, part));
        Value::String(format!("{prefix}{number}"))
    }

    /// Takes in `other`'s texts (their markers stay valid).
    pub(crate) fn absorb(&mut self, other: RawParts) {
        self.parts.extend(other.parts);
    }

    /// The marker of the JSON string whose content is the JSON `marker`
    /// stands for (as it is, compact); `None` when `marker` is not one of
    /// these parts' markers.
    pub(crate) fn quoted(&mut self, marker: &Value) -> Option<Value> {
        let number = self.parts[self.index(marker)?].0;
        let prefix = prefix()?;
        Some(self.push(prefix, Part::Quoted(number)))
    }

    /// The JSON text `marker` stands for, when it is one of these parts'
    /// markers of JSON text.
    pub(crate) fn json_text(&self, marker: &Value) -> Option<&[u8]> {
        match &self.parts[self.index(marker)?].1 {
            Part::Json(json) => Some(json),
            _ => None,
        }
    }

    /// The marker of the JSON string holding the JSON `marker` stands for,
    /// pretty-printed; `None` when `marker` is not one of these parts' markers.
    pub(crate) fn pretty(&mut self, marker: &Value) -> Option<Value> {
        let number = self.parts[self.index(marker)?].0;
        let prefix = prefix()?;
        Some(self.push(prefix, Part::Pretty(number)))
    }

    /// Where in `parts` the text `value` stands for is, when it is a marker of these parts.
    fn index(&self, value: &Value) -> Option<usize> {
        let Value::String(text) = value else { return None };
        if self.parts.is_empty() {
            return None;
        }
        let number: u64 = text.strip_prefix(prefix()?)?.parse().ok()?;
        self.parts.iter().position(|(known, _)| *known == number)
    }

    /// Whether `value`, once materialised, is a JSON object.
    pub(crate) fn is_object(&self, value: &Value) -> bool {
        match self.index(value).map(|index| &self.parts[index].1) {
            Some(Part::Json(json)) => json.trim_ascii_start().starts_with(b"{"),
            Some(Part::Pretty(_) | Part::Quoted(_)) => false,
            None => value.is_object(),
        }
    }

    /// The value part `index` stands for, parsed.
    fn parsed(&self, index: usize) -> Value {
        match &self.parts[index].1 {
            // Written by serde_json, so it parses; should it not, null.
            Part::Json(json) => serde_json::from_slice(json).unwrap_or(Value::Null),
            Part::Pretty(of) => {
                let json = self.position(*of).map_or(Value::Null, |of| self.parsed(of));
                Value::String(serde_json::to_string_pretty(&json).unwrap_or_default())
            }
            Part::Quoted(of) => Value::String(String::from_utf8_lossy(self.text_of(*of)).into_owned()),
        }
    }

    /// Where text number `number` is in `parts`.
    fn position(&self, number: u64) -> Option<usize> {
        self.parts.iter().position(|(known, _)| *known == number)
    }

    /// The JSON text of text number `number` (empty if it is not JSON text).
    fn text_of(&self, number: u64) -> &[u8] {
        match self.position(number).map(|index| &self.parts[index].1) {
            Some(Part::Json(json)) => json,
            _ => &[],
        }
    }

    /// Replaces every marker in `value` by the value it stands for.
    pub(crate) fn materialise(&self, value: &mut Value) {
        if self.parts.is_empty() {
            return;
        }
        if let Some(index) = self.index(value) {
            *value = self.parsed(index);
            return;
        }
        match value {
            Value::Array(items) => items.iter_mut().for_each(|item| self.materialise(item)),
            Value::Object(map) => map.values_mut().for_each(|item| self.materialise(item)),
            _ => {}
        }
    }

    /// Writes `value` as compact JSON, each marker as the text it stands for:
    /// the bytes `serde_json` would write for the materialised value.
    pub(crate) fn write<W: io::Write>(&self, value: &Value, out: &mut W) -> io::Result<()> {
        if self.parts.is_empty() {
            return serde_json::to_writer(out, value).map_err(io::Error::from);
        }
        if let Some(index) = self.index(value) {
            return match &self.parts[index].1 {
                Part::Json(json) => out.write_all(json),
                Part::Pretty(_) => serde_json::to_writer(out, &self.parsed(index)).map_err(io::Error::from),
                Part::Quoted(of) => write_quoted(self.text_of(*of), out),
            };
        }
        match value {
            Value::Array(items) => {
                out.write_all(b"[")?;
                for (position, item) in items.iter().enumerate() {
                    if position > 0 {
                        out.write_all(b",")?;
                    }
                    self.write(item, out)?;
                }
                out.write_all(b"]")
            }
            Value::Object(map) => {
                out.write_all(b"{")?;
                for (position, (key, item)) in map.iter().enumerate() {
                    if position > 0 {
                        out.write_all(b",")?;
                    }
                    serde_json::to_writer(&mut *out, key).map_err(io::Error::from)?;
                    out.write_all(b":")?;
                    self.write(item, out)?;
                }
                out.write_all(b"}")
            }
            scalar => serde_json::to_writer(out, scalar).map_err(io::Error::from),
        }
    }

    /// The bytes of [`write`](RawParts::write).
    pub(crate) fn to_vec(&self, value: &Value) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(self.len_hint() + 256);
        // Writing into memory cannot fail.
        let _ = self.write(value, &mut bytes);
        bytes
    }

    /// About how many bytes the texts take.
    pub(crate) fn len_hint(&self) -> usize {
        let quoted = |of: u64| self.text_of(of).len() * 5 / 4;
        self.parts
            .iter()
            .map(|(_, part)| match part {
                Part::Json(json) => json.len(),
                Part::Quoted(of) => quoted(*of),
                Part::Pretty(_) => 0,
            })
            .sum()
    }
}

/// Writes JSON text written by serde_json as a JSON string. Such text holds
/// no control character outside its strings (and escapes those inside), so
/// only `"` and `\` need escaping. There is one in every few bytes of
/// typical JSON, so the bytes are escaped without a branch into a buffer of
/// their own, written when full.
fn write_quoted<W: io::Write>(json: &[u8], out: &mut W) -> io::Result<()> {
    const CHUNK: usize = 32 * 1024;
    // Room for a chunk of input escaped whole (two bytes each).
    let mut buffer = vec![0u8; 2 * CHUNK];
    out.write_all(b"\"")?;
    for chunk in json.chunks(CHUNK) {
        let mut end = 0;
        for &byte in chunk {
            // A backslash is written in any case and kept only before `"` and `\`.
            buffer[end] = b'\\';
            end += usize::from(byte == b'"' || byte == b'\\');
            buffer[end] = byte;
            end += 1;
        }
        out.write_all(&buffer[..end])?;
    }
    out.write_all(b"\"")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_marker_is_written_as_its_text_and_read_as_its_value() {
        let mut parts = RawParts::default();
        let marker = parts.add(br#"[[1,"a"],[2,"b"]]"#.to_vec()).unwrap();
        let tree = json!({"df": {"columns": [], "rows": marker}, "text": "x\"y"});
        assert_eq!(
            String::from_utf8(parts.to_vec(&tree)).unwrap(),
            r#"{"df":{"columns":[],"rows":[[1,"a"],[2,"b"]]},"text":"x\"y"}"#
        );
        let mut read = tree.clone();
        parts.materialise(&mut read);
        assert_eq!(read, json!({"df": {"columns": [], "rows": [[1, "a"], [2, "b"]]}, "text": "x\"y"}));
    }

    #[test]
    fn a_pretty_part_is_the_json_pretty_printed_as_a_string() {
        let mut parts = RawParts::default();
        let marker = parts.add(br#"{"a":1}"#.to_vec()).unwrap();
        let pretty = parts.pretty(&marker).unwrap();
        assert!(parts.is_object(&marker));
        assert!(!parts.is_object(&pretty));
        assert_eq!(parts.to_vec(&pretty), br#""{\n  \"a\": 1\n}""#);
    }

    #[test]
    fn a_quoted_part_is_the_json_as_a_string() {
        let mut parts = RawParts::default();
        let text = r#"[{"a":"x\"y\\z\n"},"é"]"#;
        let marker = parts.add(text.as_bytes().to_vec()).unwrap();
        let quoted = parts.quoted(&marker).unwrap();
        assert_eq!(parts.to_vec(&quoted), serde_json::to_vec(text).unwrap());
        let mut read = json!([quoted]);
        parts.materialise(&mut read);
        assert_eq!(read, json!([text]));
    }

    #[test]
    fn a_string_that_only_looks_like_a_marker_is_a_string() {
        let mut parts = RawParts::default();
        let marker = parts.add(b"1".to_vec()).unwrap();
        let Value::String(text) = &marker else { panic!("a marker is a string") };
        let forged = Value::String(format!("{text}0"));
        assert_eq!(parts.to_vec(&json!([marker, forged.clone()])), format!("[1,{}]", forged).into_bytes());
        // Without parts, nothing is a marker.
        assert_eq!(RawParts::default().to_vec(&marker), serde_json::to_vec(&marker).unwrap());
    }
}
