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

use std::borrow::Cow;
use std::io;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use serde_json::Value;
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

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
    /// JSON text and the JSON string holding it (quotes included), written
    /// in one pass by [`write_json_and_quoted`]: a `Json<T>`'s structured
    /// content and its text block. The text is `None` while it is the
    /// result's value, held there rather than copied; lowering the result
    /// hands it over ([`RawParts::adopt`]), and a reader before that gets it
    /// decoded from `quoted`.
    Written { json: Option<Arc<Vec<u8>>>, quoted: Arc<Vec<u8>> },
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

    /// Keeps `quoted`, the JSON string of JSON text that a result's value
    /// holds (both written by [`write_json_and_quoted`]), and returns the
    /// marker of that JSON text; `None` when markers cannot be made. The
    /// text is handed over by [`adopt`](RawParts::adopt) when the result is
    /// lowered, and the text block that repeats it is then written from
    /// `quoted`, not escaped again.
    pub(crate) fn add_quoted(&mut self, quoted: Vec<u8>) -> Option<Value> {
        let prefix = prefix()?;
        Some(self.push(prefix, Part::Written { json: None, quoted: Arc::new(quoted) }))
    }

    /// Whether `marker` stands for JSON text that awaits its text (see
    /// [`add_quoted`](RawParts::add_quoted)).
    pub(crate) fn awaits_text(&self, marker: &Value) -> bool {
        self.index(marker).is_some_and(|index| matches!(self.parts[index].1, Part::Written { json: None, .. }))
    }

    /// Hands `text`, the JSON text `marker` stands for (the value of the
    /// result whose structured content it is), to the part that awaits it,
    /// and returns the marker of that text as a JSON string (the text
    /// block's); `text` back when `marker` awaits no text.
    pub(crate) fn adopt(&mut self, marker: &Value, text: String) -> Result<String, String> {
        let Some(index) = self.index(marker) else { return Err(text) };
        let Some(prefix) = prefix() else { return Err(text) };
        let (number, Part::Written { json: json @ None, .. }) = &mut self.parts[index] else { return Err(text) };
        *json = Some(Arc::new(text.into_bytes()));
        let number = *number;
        Ok(self.push_marker(prefix, Part::Quoted(number)))
    }

    fn push(&mut self, prefix: &str, part: Part) -> Value {
        Value::String(self.push_marker(prefix, part))
    }

    /// Keeps `part` under a new number; its marker.
    fn push_marker(&mut self, prefix: &str, part: Part) -> String {
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        self.parts.push((number, part));
        format!("{prefix}{number}")
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
            Part::Json(json) | Part::Written { json: Some(json), .. } => Some(json),
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
            Some(Part::Json(json) | Part::Written { json: Some(json), .. }) => {
                json.trim_ascii_start().starts_with(b"{")
            }
            Some(Part::Written { json: None, quoted }) => quoted.starts_with(b"\"{"),
            Some(Part::Pretty(_) | Part::Quoted(_)) => false,
            None => value.is_object(),
        }
    }

    /// The value part `index` stands for, parsed.
    fn parsed(&self, index: usize) -> Value {
        match &self.parts[index].1 {
            // Written by serde_json, so it parses; should it not, null.
            Part::Json(json) | Part::Written { json: Some(json), .. } => {
                serde_json::from_slice(json).unwrap_or(Value::Null)
            }
            Part::Written { json: None, quoted } => serde_json::from_slice(&unquote(quoted)).unwrap_or(Value::Null),
            Part::Pretty(of) => {
                let json = self.position(*of).map_or(Value::Null, |of| self.parsed(of));
                Value::String(serde_json::to_string_pretty(&json).unwrap_or_default())
            }
            Part::Quoted(of) => match self.quoted_of(*of) {
                Some(quoted) => serde_json::from_slice(quoted).unwrap_or(Value::Null),
                None => Value::String(String::from_utf8_lossy(&self.text_of(*of)).into_owned()),
            },
        }
    }

    /// Where text number `number` is in `parts`.
    fn position(&self, number: u64) -> Option<usize> {
        self.parts.iter().position(|(known, _)| *known == number)
    }

    /// The JSON text of text number `number` (empty if it is not JSON text).
    fn text_of(&self, number: u64) -> Cow<'_, [u8]> {
        match self.position(number).map(|index| &self.parts[index].1) {
            Some(Part::Json(json) | Part::Written { json: Some(json), .. }) => Cow::Borrowed(json),
            Some(Part::Written { json: None, quoted }) => Cow::Owned(unquote(quoted)),
            _ => Cow::Borrowed(&[]),
        }
    }

    /// The JSON string holding text number `number`, when it was written
    /// with the text.
    fn quoted_of(&self, number: u64) -> Option<&[u8]> {
        match self.position(number).map(|index| &self.parts[index].1) {
            Some(Part::Written { quoted, .. }) => Some(quoted),
            _ => None,
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
                Part::Json(json) | Part::Written { json: Some(json), .. } => out.write_all(json),
                Part::Written { json: None, quoted } => out.write_all(&unquote(quoted)),
                Part::Pretty(_) => serde_json::to_writer(out, &self.parsed(index)).map_err(io::Error::from),
                Part::Quoted(of) => match self.quoted_of(*of) {
                    Some(quoted) => out.write_all(quoted),
                    None => write_quoted(&self.text_of(*of), out),
                },
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
        let mut bytes = Vec::with_capacity(self.len_hint() + TREE_HINT);
        // Writing into memory cannot fail.
        let _ = self.write(value, &mut bytes);
        bytes
    }

    /// About how many bytes the texts take (exactly, but for a pretty text
    /// or a quoted text not written with its JSON).
    pub(crate) fn len_hint(&self) -> usize {
        let quoted = |of: u64| self.quoted_of(of).map_or_else(|| self.text_of(of).len() * 5 / 4, <[u8]>::len);
        self.parts
            .iter()
            .map(|(_, part)| match part {
                Part::Json(json) => json.len(),
                // The text is shorter than its string.
                Part::Written { json, quoted } => json.as_ref().map_or(quoted.len(), |json| json.len()),
                Part::Quoted(of) => quoted(*of),
                Part::Pretty(_) => 0,
            })
            .sum()
    }
}

/// The room the tree around the texts takes, about (a `CallToolResult`'s
/// keys, its artifact in `_meta`), so that writing it does not grow the buffer.
pub(crate) const TREE_HINT: usize = 4096;

/// The text of `quoted`, a JSON string written by [`write_json_and_quoted`].
fn unquote(quoted: &[u8]) -> Vec<u8> {
    serde_json::from_slice::<String>(quoted).map(String::into_bytes).unwrap_or_default()
}

/// Writes `json` as a JSON string: the bytes of `serde_json::to_vec` of it
/// as a string.
fn write_quoted<W: io::Write>(json: &[u8], out: &mut W) -> io::Result<()> {
    out.write_all(b"\"")?;
    write_escaped(json, out)?;
    out.write_all(b"\"")
}

/// For each byte, what follows the backslash of its escape in a JSON string
/// (as `serde_json` writes it), or 0 when it stands for itself.
const ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = b'u';
        byte += 1;
    }
    table[0x08] = b'b';
    table[0x09] = b't';
    table[0x0a] = b'n';
    table[0x0c] = b'f';
    table[0x0d] = b'r';
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table
};

/// Writes `text` escaped as the content of a JSON string: the runs of bytes
/// that stand for themselves are copied whole, the others escaped.
fn write_escaped<W: io::Write + ?Sized>(text: &[u8], out: &mut W) -> io::Result<()> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut run = 0;
    for (index, &byte) in text.iter().enumerate() {
        let escape = ESCAPE[usize::from(byte)];
        if escape == 0 {
            continue;
        }
        out.write_all(&text[run..index])?;
        run = index + 1;
        if escape == b'u' {
            out.write_all(&[b'\\', b'u', b'0', b'0', HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0xf)]])?;
        } else {
            out.write_all(&[b'\\', escape])?;
        }
    }
    out.write_all(&text[run..])
}

/// Writes `value` as compact JSON and, in the same pass, the JSON string
/// holding that text: a `Json<T>`'s structured content and its text block,
/// which repeats it as a string (as the MCP specification asks).
/// Each token `serde_json` writes is copied to both, escaped for the second
/// (a string's quotes, its escapes), so the text block costs copying bytes
/// rather than a scan of the written text.
///
/// The bytes are those of `serde_json::to_vec(value)`, and those of
/// `serde_json::to_vec` of that text as a string.
pub(crate) fn write_json_and_quoted<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<(Vec<u8>, Vec<u8>)> {
    // Room for a text as long as the last one, and its string: a large
    // text is then not copied again and again as its buffers grow (nor
    // are fresh pages touched for each copy).
    let last = LAST_LENGTH.load(Ordering::Relaxed);
    let mut json = Vec::with_capacity(last + 128);
    let mut quoted = Vec::with_capacity(last + last / 4 + 128);
    quoted.push(b'"');
    value.serialize(&mut serde_json::Serializer::with_formatter(&mut json, Twice { quoted: &mut quoted }))?;
    quoted.push(b'"');
    LAST_LENGTH.store(json.len(), Ordering::Relaxed);
    // A text much shorter than the last gives the room back (in place).
    for buffer in [&mut json, &mut quoted] {
        if buffer.capacity() > 2 * buffer.len() + 4096 {
            buffer.shrink_to_fit();
        }
    }
    Ok((json, quoted))
}

/// The length of the last text [`write_json_and_quoted`] wrote.
static LAST_LENGTH: AtomicUsize = AtomicUsize::new(0);

/// The formatter of [`write_json_and_quoted`]: compact JSON to the writer,
/// the same escaped, as a string's content, to `quoted`.
struct Twice<'a> {
    quoted: &'a mut Vec<u8>,
}

impl Twice<'_> {
    /// Writes `bytes`, which need no escaping in a string, to both.
    #[inline]
    fn both<W: ?Sized + io::Write>(&mut self, writer: &mut W, bytes: &[u8]) -> io::Result<()> {
        self.quoted.extend_from_slice(bytes);
        writer.write_all(bytes)
    }
}

/// Numbers, which need no escaping: written by `serde_json`'s own formatter
/// to `quoted`, then copied.
macro_rules! numbers {
    ($($method:ident($ty:ty)),* $(,)?) => {$(
        #[inline]
        fn $method<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: $ty) -> io::Result<()> {
            let start = self.quoted.len();
            CompactFormatter.$method(&mut *self.quoted, value)?;
            writer.write_all(&self.quoted[start..])
        }
    )*};
}

/// Tokens that need no escaping in a string, written to both.
macro_rules! tokens {
    ($($method:ident => $bytes:expr),* $(,)?) => {$(
        #[inline]
        fn $method<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
            self.both(writer, $bytes)
        }
    )*};
}

impl Formatter for Twice<'_> {
    numbers!(
        write_i8(i8),
        write_i16(i16),
        write_i32(i32),
        write_i64(i64),
        write_i128(i128),
        write_u8(u8),
        write_u16(u16),
        write_u32(u32),
        write_u64(u64),
        write_u128(u128),
        write_f32(f32),
        write_f64(f64),
    );

    tokens!(
        write_null => b"null",
        begin_array => b"[",
        end_array => b"]",
        begin_object => b"{",
        end_object => b"}",
        begin_object_value => b":",
    );

    #[inline]
    fn write_bool<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: bool) -> io::Result<()> {
        self.both(writer, if value { b"true" } else { b"false" })
    }

    #[inline]
    fn write_number_str<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: &str) -> io::Result<()> {
        self.both(writer, value.as_bytes())
    }

    #[inline]
    fn begin_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.quoted.extend_from_slice(b"\\\"");
        writer.write_all(b"\"")
    }

    #[inline]
    fn end_string<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.quoted.extend_from_slice(b"\\\"");
        writer.write_all(b"\"")
    }

    /// A run of a string's characters, which holds no byte to escape.
    #[inline]
    fn write_string_fragment<W: ?Sized + io::Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        self.both(writer, fragment.as_bytes())
    }

    fn write_char_escape<W: ?Sized + io::Write>(&mut self, writer: &mut W, char_escape: CharEscape) -> io::Result<()> {
        let mut escape = [0u8; 6];
        let length = {
            let mut rest = &mut escape[..];
            CompactFormatter.write_char_escape(&mut rest, char_escape)?;
            6 - rest.len()
        };
        writer.write_all(&escape[..length])?;
        write_escaped(&escape[..length], &mut *self.quoted)
    }

    #[inline]
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { self.both(writer, b",") }
    }

    #[inline]
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { self.both(writer, b",") }
    }

    /// JSON text written as it is (a `RawValue`), which may hold anything a
    /// string escapes (a line break between tokens).
    fn write_raw_fragment<W: ?Sized + io::Write>(&mut self, writer: &mut W, fragment: &str) -> io::Result<()> {
        writer.write_all(fragment.as_bytes())?;
        write_escaped(fragment.as_bytes(), &mut *self.quoted)
    }
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

    /// What the text block of `value`'s JSON holds, written the plain way:
    /// the JSON text, then that text as a JSON string.
    fn written_twice_plainly<T: serde::Serialize>(value: &T) -> (Vec<u8>, Vec<u8>) {
        let json = serde_json::to_vec(value).unwrap();
        let quoted = serde_json::to_vec(std::str::from_utf8(&json).unwrap()).unwrap();
        (json, quoted)
    }

    #[test]
    fn json_and_quoted_are_written_as_serde_json_writes_them() {
        let mut keyed = std::collections::BTreeMap::new();
        keyed.insert(-3i64, "three");
        keyed.insert(7, "sev\"en");
        let values = [
            json!(null),
            json!([true, false, 0, -1, 1.5, -2.25e-10, 1e300, u64::MAX, i64::MIN]),
            json!({"a": "x\"y\\z", "b": "line\nbreak\ttab\r\u{8}\u{c}\u{1}\u{1f}", "c": "é ✓ 😀 \u{7f}", "d": "/"}),
            json!({"nested": {"empty": {}, "list": [], "s": ""}, "k\"ey": [[["deep"]]]}),
            json!("just a \"string\""),
        ];
        for value in &values {
            let (json, quoted) = write_json_and_quoted(value).unwrap();
            assert_eq!((json, quoted), written_twice_plainly(value), "{value}");
        }
        // Keys that are not strings, bytes, 128-bit and 32-bit numbers, chars, unit variants.
        let (json, quoted) = write_json_and_quoted(&keyed).unwrap();
        assert_eq!((json, quoted), written_twice_plainly(&keyed));
        #[derive(serde::Serialize)]
        enum Variant {
            Unit,
        }
        let odd = (i128::MIN, u128::MAX, 1.5f32, '"', serde_bytes_like(), Some(()), Variant::Unit);
        let (json, quoted) = write_json_and_quoted(&odd).unwrap();
        assert_eq!((json, quoted), written_twice_plainly(&odd));
    }

    /// Bytes that serialise as bytes (an array of numbers in JSON).
    fn serde_bytes_like() -> impl serde::Serialize {
        struct Bytes;
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_bytes(&[0, 34, 92, 255])
            }
        }
        Bytes
    }

    #[test]
    fn a_text_written_with_its_quoted_form_is_read_before_and_written_after_it_is_handed_over() {
        let value = json!({"text": "say \"hi\"\n", "n": [1.5, null]});
        let (json, quoted) = write_json_and_quoted(&value).unwrap();
        let text = String::from_utf8(json).unwrap();
        let mut parts = RawParts::default();
        let marker = parts.add_quoted(quoted).unwrap();
        assert!(parts.awaits_text(&marker) && parts.is_object(&marker));
        // Before the text is handed over, it is decoded for a reader.
        let mut read = json!({"structuredContent": marker.clone()});
        parts.materialise(&mut read);
        assert_eq!(read, json!({"structuredContent": value}));
        assert_eq!(parts.json_text(&marker), None);
        // Anything else awaits no text, and gets its text back.
        let other = parts.add(b"[]".to_vec()).unwrap();
        assert!(!parts.awaits_text(&other));
        assert_eq!(parts.adopt(&other, "[]".to_owned()), Err("[]".to_owned()));
        let block = Value::String(parts.adopt(&marker, text.clone()).unwrap());
        assert!(!parts.awaits_text(&marker));
        assert_eq!(parts.json_text(&marker), Some(text.as_bytes()));
        let tree = json!({"content": [{"type": "text", "text": block}], "structuredContent": marker});
        let plain = json!({"content": [{"type": "text", "text": text}], "structuredContent": value});
        let written = parts.to_vec(&tree);
        assert_eq!(written, serde_json::to_vec(&plain).unwrap());
        // The hint counts the texts exactly: the text, and it quoted (and `[]`).
        let around = r#"{"content":[{"type":"text","text":}],"structuredContent":}"#.len();
        assert_eq!(parts.len_hint() + around, written.len() + 2);
        let mut read = tree;
        parts.materialise(&mut read);
        assert_eq!(read, plain);
    }

    #[test]
    fn the_escaper_escapes_as_serde_json_does() {
        let every_byte: String = (0u8..=0x7f).map(char::from).chain("é✓😀".chars()).collect();
        for text in [every_byte.as_str(), "", "\"", "\\", "plain", "a\"b\\c\nd"] {
            let mut written = Vec::new();
            write_quoted(text.as_bytes(), &mut written).unwrap();
            assert_eq!(written, serde_json::to_vec(text).unwrap(), "{text:?}");
        }
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
