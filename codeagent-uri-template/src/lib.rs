//! RFC 6570 URI templates: parsing, expansion, and matching a URI back
//! against a template; and the check of an absolute URI ([`check_uri`]).
//!
//! MCP resource templates (`resources/templates/list`, `uriTemplate`) are
//! RFC 6570 templates; a server answering `resources/read` matches the
//! requested URI against them with [`UriTemplate::matches`] to learn which
//! resource it names and the values of the template's variables.
//!
//! This crate depends on nothing of codeagent (only `regex-lite`,
//! `thiserror`, and `serde` with the feature `serde`): the runtime (`codeagent_core::uri_template`)
//! and the `#[resource]` macro share it, so a template written in a macro is
//! checked when the program is built by the very parser that serves it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::str::FromStr;

use regex_lite::Regex;

mod absolute;
#[cfg(test)]
mod tests;

pub use absolute::{InvalidUri, check_uri, has_scheme};

/// A parsed RFC 6570 URI template (levels 1 to 4 for parsing and expansion),
/// with a matcher built once at parse time.
///
/// Values are plain strings, as in MCP. Matching ([`matches`](Self::matches))
/// is the inverse of [expansion](Self::expand) for the templates MCP servers
/// use; see [`is_matchable`](Self::is_matchable) for the ones it refuses.
///
/// ```
/// use std::collections::BTreeMap;
/// use codeagent_uri_template::UriTemplate;
///
/// let template: UriTemplate = "file:///{+path}{?rev}".parse().unwrap();
/// assert_eq!(template.variables().collect::<Vec<_>>(), ["path", "rev"]);
///
/// let values = template.matches("file:///src/lib%20x.rs?rev=42").unwrap();
/// assert_eq!(values["path"], "src/lib x.rs");
/// assert_eq!(values["rev"], "42");
///
/// let mut values = BTreeMap::new();
/// values.insert("path".to_owned(), "src/main.rs".to_owned());
/// assert_eq!(template.expand(&values), "file:///src/main.rs");
///
/// let users: UriTemplate = "users://{id}/profile".parse().unwrap();
/// assert!(users.matches("users://a/b/profile").is_none());
/// ```
#[derive(Clone)]
pub struct UriTemplate {
    source: String,
    parts: Vec<Part>,
    matcher: Option<Matcher>,
}

/// Why a text is not a valid RFC 6570 URI template. Every case carries the
/// byte offset in the text where the problem is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidTemplate {
    /// A `{` with no `}` closing it.
    #[error("unclosed `{{` at byte {offset}")]
    UnclosedExpression {
        /// Byte offset of the `{`.
        offset: usize,
    },
    /// A `}` outside any expression.
    #[error("`}}` without a matching `{{` at byte {offset}")]
    UnmatchedClose {
        /// Byte offset of the `}`.
        offset: usize,
    },
    /// An expression with no variable (`{}`, `{+}`).
    #[error("empty expression at byte {offset}")]
    EmptyExpression {
        /// Byte offset of the `{`.
        offset: usize,
    },
    /// A variable name outside RFC 6570's `varname` (ALPHA / DIGIT / `_` /
    /// pct-encoded, single dots between).
    #[error("invalid variable name `{name}` at byte {offset}")]
    InvalidVariableName {
        /// The name as written.
        name: String,
        /// Byte offset of the name.
        offset: usize,
    },
    /// A character in operator position that is no RFC 6570 operator.
    #[error("unknown operator `{operator}` at byte {offset}")]
    UnknownOperator {
        /// The character.
        operator: char,
        /// Byte offset of the character.
        offset: usize,
    },
    /// An operator RFC 6570 reserves for future extensions (`=`, `,`, `!`,
    /// `@`, `|`).
    #[error("operator `{operator}` is reserved by RFC 6570, at byte {offset}")]
    ReservedOperator {
        /// The operator.
        operator: char,
        /// Byte offset of the operator.
        offset: usize,
    },
    /// A variable appearing a second time in the template.
    #[error("variable `{name}` used twice, again at byte {offset}")]
    DuplicateVariable {
        /// The variable's name.
        name: String,
        /// Byte offset of the second use.
        offset: usize,
    },
    /// A prefix modifier whose length is not an integer in 1..=9999 (written
    /// without leading zero).
    #[error("invalid prefix length `{length}` at byte {offset}: must be 1 to 9999")]
    InvalidPrefixLength {
        /// The length as written.
        length: String,
        /// Byte offset of the length.
        offset: usize,
    },
    /// A character not allowed in a literal part (space, `"`, `'`, `<`, `>`,
    /// `\`, `^`, `` ` ``, `{`, `|`, `}`, a control character).
    #[error("character {character:?} not allowed in a URI template literal, at byte {offset}")]
    InvalidLiteral {
        /// The character.
        character: char,
        /// Byte offset of the character.
        offset: usize,
    },
    /// A `%` in a literal part not followed by two hexadecimal digits.
    #[error("`%` not followed by two hexadecimal digits at byte {offset}")]
    InvalidPercentEncoding {
        /// Byte offset of the `%`.
        offset: usize,
    },
}

impl InvalidTemplate {
    /// The byte offset in the template text where the problem is.
    pub fn offset(&self) -> usize {
        match self {
            Self::UnclosedExpression { offset }
            | Self::UnmatchedClose { offset }
            | Self::EmptyExpression { offset }
            | Self::InvalidVariableName { offset, .. }
            | Self::UnknownOperator { offset, .. }
            | Self::ReservedOperator { offset, .. }
            | Self::DuplicateVariable { offset, .. }
            | Self::InvalidPrefixLength { offset, .. }
            | Self::InvalidLiteral { offset, .. }
            | Self::InvalidPercentEncoding { offset } => *offset,
        }
    }
}

#[derive(Clone, Debug)]
enum Part {
    /// Literal text, as written in the template (pct-encoded triplets kept).
    Literal(String),
    Expression(Expression),
}

#[derive(Clone, Debug)]
struct Expression {
    op: Op,
    vars: Vec<VarSpec>,
}

#[derive(Clone, Debug)]
struct VarSpec {
    name: String,
    modifier: Modifier,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Modifier {
    None,
    Prefix(usize),
    Explode,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Simple,
    Reserved,
    Fragment,
    Label,
    Path,
    Param,
    Query,
    QueryContinuation,
}

impl Op {
    fn from_char(c: char) -> Option<Self> {
        Some(match c {
            '+' => Self::Reserved,
            '#' => Self::Fragment,
            '.' => Self::Label,
            '/' => Self::Path,
            ';' => Self::Param,
            '?' => Self::Query,
            '&' => Self::QueryContinuation,
            _ => return None,
        })
    }

    /// What starts the expansion when at least one variable is defined.
    fn first(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved => "",
            Self::Fragment => "#",
            Self::Label => ".",
            Self::Path => "/",
            Self::Param => ";",
            Self::Query => "?",
            Self::QueryContinuation => "&",
        }
    }

    fn separator(self) -> &'static str {
        match self {
            Self::Simple | Self::Reserved | Self::Fragment => ",",
            Self::Label => ".",
            Self::Path => "/",
            Self::Param => ";",
            Self::Query | Self::QueryContinuation => "&",
        }
    }

    fn named(self) -> bool {
        matches!(self, Self::Param | Self::Query | Self::QueryContinuation)
    }

    /// What follows a named variable's name when its value is empty.
    fn if_empty(self) -> &'static str {
        if self == Self::Param { "" } else { "=" }
    }

    fn allow_reserved(self) -> bool {
        matches!(self, Self::Reserved | Self::Fragment)
    }

    fn is_query(self) -> bool {
        matches!(self, Self::Query | Self::QueryContinuation)
    }
}

// ---------------------------------------------------------------------------
// Character classes

fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

fn is_reserved(b: u8) -> bool {
    matches!(
        b,
        b':' | b'/'
            | b'?'
            | b'#'
            | b'['
            | b']'
            | b'@'
            | b'!'
            | b'$'
            | b'&'
            | b'\''
            | b'('
            | b')'
            | b'*'
            | b'+'
            | b','
            | b';'
            | b'='
    )
}

/// RFC 6570 `literals`, ASCII part (pct-encoded handled separately).
fn is_literal_ascii(b: u8) -> bool {
    matches!(b, 0x21 | 0x23..=0x24 | 0x26 | 0x28..=0x3B | 0x3D | 0x3F..=0x5B | 0x5D | 0x5F | 0x61..=0x7A | 0x7E)
}

/// Whether `bytes[i..]` starts with a pct-encoded triplet.
fn pct_at(bytes: &[u8], i: usize) -> bool {
    bytes.get(i) == Some(&b'%')
        && bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
        && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
}

fn is_valid_varname(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut i = 0;
    let mut need_char = true;
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_alphanumeric() || b == b'_' {
            i += 1;
            need_char = false;
        } else if pct_at(bytes, i) {
            i += 3;
            need_char = false;
        } else if b == b'.' && !need_char {
            i += 1;
            need_char = true;
        } else {
            return false;
        }
    }
    !need_char
}

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn push_pct(out: &mut String, b: u8) {
    out.push('%');
    out.push(char::from(HEX[usize::from(b >> 4)]));
    out.push(char::from(HEX[usize::from(b & 0xF)]));
}

/// Encodes `value` for an expansion: unreserved characters kept, and with
/// `allow_reserved` reserved characters and pct-encoded triplets kept too.
fn encode(out: &mut String, value: &str, allow_reserved: bool) {
    let bytes = value.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if is_unreserved(b) || (allow_reserved && is_reserved(b)) {
            out.push(char::from(b));
            i += 1;
        } else if allow_reserved && pct_at(bytes, i) {
            out.push_str(&value[i..i + 3]);
            i += 3;
        } else {
            push_pct(out, b);
            i += 1;
        }
    }
}

/// The first `max` characters of `value`; with `allow_reserved` a
/// pct-encoded triplet counts as one character, so it is never split.
fn prefix(value: &str, max: usize, allow_reserved: bool) -> &str {
    let bytes = value.as_bytes();
    let mut end = 0;
    for _ in 0..max {
        if end >= value.len() {
            break;
        }
        if allow_reserved && pct_at(bytes, end) {
            end += 3;
        } else {
            end += value[end..].chars().next().map_or(1, char::len_utf8);
        }
    }
    &value[..end.min(value.len())]
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes the pct-encoded triplets of `text`; `None` for a `%` not starting
/// a triplet or bytes that are not UTF-8.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let high = hex_value(*bytes.get(i + 1)?)?;
            let low = hex_value(*bytes.get(i + 2)?)?;
            out.push((high << 4) | low);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

// ---------------------------------------------------------------------------
// Parsing

impl UriTemplate {
    /// Parses an RFC 6570 URI template (all four levels), and builds its
    /// matcher when the template is [matchable](Self::is_matchable).
    pub fn parse(text: &str) -> Result<Self, InvalidTemplate> {
        let parts = parse_parts(text)?;
        let matcher = Matcher::build(&parts);
        Ok(Self { source: text.to_owned(), parts, matcher })
    }

    /// The template's source text.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// The names of the template's variables, in order of appearance.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts
            .iter()
            .filter_map(|part| match part {
                Part::Expression(expression) => Some(expression.vars.iter().map(|var| var.name.as_str())),
                Part::Literal(_) => None,
            })
            .flatten()
    }

    /// Whether the template has no expression: it names exactly one URI.
    pub fn is_literal(&self) -> bool {
        self.parts.iter().all(|part| matches!(part, Part::Literal(_)))
    }

    /// Whether [`matches`](Self::matches) can ever succeed. It cannot (and
    /// always returns `None`) for templates where matching is ambiguous:
    ///
    /// - a prefix (`{var:3}`) or explode (`{var*}`) modifier;
    /// - several variables in one `{+…}`, `{#…}` or `{.…}` expression (the
    ///   separator can occur inside a value);
    /// - an expression directly after another (no literal between) when the
    ///   second is `{var}`, `{+var}` or `{.var}`, or the first is `{+var}`
    ///   or `{#var}`; `{name}{/rest}` or `{id}{?q}` are fine;
    /// - a `{?…}` or `{&…}` expression followed by anything but other
    ///   `{?…}` / `{&…}` expressions (the query must end the template).
    pub fn is_matchable(&self) -> bool {
        self.matcher.is_some()
    }

    /// Expands the template with `values` as RFC 6570 section 3 says, for
    /// string values: a variable absent from `values` is undefined and
    /// omitted (with its operator's prefix when the whole expression is
    /// undefined); values are pct-encoded per operator (everything but
    /// unreserved characters, or for `{+…}` and `{#…}` everything but
    /// unreserved and reserved characters and pct-encoded triplets).
    pub fn expand(&self, values: &BTreeMap<String, String>) -> String {
        let mut out = String::with_capacity(self.source.len());
        for part in &self.parts {
            match part {
                Part::Literal(text) => encode_literal(&mut out, text),
                Part::Expression(expression) => expand_expression(&mut out, expression, values),
            }
        }
        out
    }

    /// Matches `uri` against the template: `Some` with the decoded value of
    /// each variable present when `uri` is an expansion of the template,
    /// `None` otherwise (and always for a template that is not
    /// [matchable](Self::is_matchable)).
    ///
    /// - `{var}` matches a non-empty run of unreserved characters and
    ///   pct-encoded triplets (no `/`, `?`, `,` …); `{+var}` a non-empty run
    ///   that may also hold reserved characters (`/` included, and `?` unless
    ///   a `{?…}` follows); both are required.
    /// - `{#var}`, `{.var}`, `{/var}`, `{;var}` expand to nothing when
    ///   undefined, so they are optional: a missing one is absent from the
    ///   map, and `/` alone gives an empty value.
    /// - In an expression with several variables, values fill the
    ///   variables from the left (`{x,y}` against `1024` gives `x` only).
    /// - `{?x,y}` and `{&x}` match a query whose parameters come in any
    ///   order, each at most once, each optional; an unknown parameter or one
    ///   without `=` means no match. The query starts with the `?` or `&` of
    ///   any of its expressions: `{?a}{&b}` with `a` undefined expands to
    ///   `&b=…`, which matches.
    /// - Pct-encoding is decoded in the values; a `%` not starting a triplet,
    ///   or a decoded value that is not UTF-8, means no match.
    /// - Where a literal between two variables can also occur in the first
    ///   one's value (`{name}.{ext}`), the first takes the longest value.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        self.matcher.as_ref()?.matches(uri)
    }
}

fn parse_parts(text: &str) -> Result<Vec<Part>, InvalidTemplate> {
    let bytes = text.as_bytes();
    let mut parts = Vec::new();
    let mut seen = BTreeSet::new();
    let mut literal_start = 0;
    let mut i = 0;
    while let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) {
        match c {
            '{' => {
                if literal_start < i {
                    parts.push(Part::Literal(text[literal_start..i].to_owned()));
                }
                let close = text[i + 1..].find(['{', '}']).map(|at| i + 1 + at);
                let close = match close {
                    Some(close) if bytes.get(close) == Some(&b'}') => close,
                    _ => return Err(InvalidTemplate::UnclosedExpression { offset: i }),
                };
                parts.push(Part::Expression(parse_expression(text, i, close, &mut seen)?));
                i = close + 1;
                literal_start = i;
            }
            '}' => return Err(InvalidTemplate::UnmatchedClose { offset: i }),
            '%' => {
                if !pct_at(bytes, i) {
                    return Err(InvalidTemplate::InvalidPercentEncoding { offset: i });
                }
                i += 3;
            }
            c if c.is_ascii() => {
                if !is_literal_ascii(c as u8) {
                    return Err(InvalidTemplate::InvalidLiteral { character: c, offset: i });
                }
                i += 1;
            }
            c => {
                if c.is_control() || is_noncharacter(c) {
                    return Err(InvalidTemplate::InvalidLiteral { character: c, offset: i });
                }
                i += c.len_utf8();
            }
        }
    }
    if literal_start < text.len() {
        parts.push(Part::Literal(text[literal_start..].to_owned()));
    }
    Ok(parts)
}

/// Characters outside RFC 6570's `ucschar` / `iprivate` besides controls.
fn is_noncharacter(c: char) -> bool {
    let c = u32::from(c);
    (0xFDD0..=0xFDEF).contains(&c) || (c & 0xFFFE) == 0xFFFE
}

/// Parses the expression `text[open..=close]` (`{` at `open`, `}` at `close`).
fn parse_expression(
    text: &str,
    open: usize,
    close: usize,
    seen: &mut BTreeSet<String>,
) -> Result<Expression, InvalidTemplate> {
    let body_start = open + 1;
    let body = &text[body_start..close];
    let Some(first) = body.chars().next() else {
        return Err(InvalidTemplate::EmptyExpression { offset: open });
    };
    let (op, list_start) = if let Some(op) = Op::from_char(first) {
        (op, body_start + 1)
    } else if matches!(first, '=' | ',' | '!' | '@' | '|') {
        return Err(InvalidTemplate::ReservedOperator { operator: first, offset: body_start });
    } else if first.is_ascii_alphanumeric() || first == '_' || first == '%' {
        (Op::Simple, body_start)
    } else {
        return Err(InvalidTemplate::UnknownOperator { operator: first, offset: body_start });
    };
    if list_start == close {
        return Err(InvalidTemplate::EmptyExpression { offset: open });
    }
    let mut vars = Vec::new();
    let mut spec_start = list_start;
    for spec in text[list_start..close].split(',') {
        vars.push(parse_varspec(spec, spec_start, seen)?);
        spec_start += spec.len() + 1;
    }
    Ok(Expression { op, vars })
}

fn parse_varspec(spec: &str, offset: usize, seen: &mut BTreeSet<String>) -> Result<VarSpec, InvalidTemplate> {
    let (name, modifier) = if let Some((name, length)) = spec.split_once(':') {
        let valid =
            (1..=4).contains(&length.len()) && length.bytes().all(|b| b.is_ascii_digit()) && !length.starts_with('0');
        match length.parse::<usize>() {
            Ok(max) if valid => (name, Modifier::Prefix(max)),
            _ => {
                let offset = offset + name.len() + 1;
                return Err(InvalidTemplate::InvalidPrefixLength { length: length.to_owned(), offset });
            }
        }
    } else if let Some(name) = spec.strip_suffix('*') {
        (name, Modifier::Explode)
    } else {
        (spec, Modifier::None)
    };
    if !is_valid_varname(name) {
        return Err(InvalidTemplate::InvalidVariableName { name: name.to_owned(), offset });
    }
    if !seen.insert(name.to_owned()) {
        return Err(InvalidTemplate::DuplicateVariable { name: name.to_owned(), offset });
    }
    Ok(VarSpec { name: name.to_owned(), modifier })
}

// ---------------------------------------------------------------------------
// Expansion

/// Copies a literal part, pct-encoding the characters not allowed in a URI.
fn encode_literal(out: &mut String, text: &str) {
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buffer = [0; 4];
            for &b in c.encode_utf8(&mut buffer).as_bytes() {
                push_pct(out, b);
            }
        }
    }
}

fn expand_expression(out: &mut String, expression: &Expression, values: &BTreeMap<String, String>) {
    let op = expression.op;
    let mut first = true;
    for var in &expression.vars {
        let Some(value) = values.get(&var.name) else { continue };
        out.push_str(if first { op.first() } else { op.separator() });
        first = false;
        let value = match var.modifier {
            Modifier::Prefix(max) => prefix(value, max, op.allow_reserved()),
            Modifier::None | Modifier::Explode => value.as_str(),
        };
        if op.named() {
            out.push_str(&var.name);
            if value.is_empty() {
                out.push_str(op.if_empty());
                continue;
            }
            out.push('=');
        }
        encode(out, value, op.allow_reserved());
    }
}

// ---------------------------------------------------------------------------
// Matching

#[derive(Clone, Debug)]
struct Matcher {
    /// Anchored at both ends; the query tail (if any) is the last group.
    regex: Regex,
    captures: Vec<Capture>,
    query: Option<QueryMatcher>,
}

#[derive(Clone, Debug)]
struct Capture {
    name: String,
    /// The group holding the value.
    value: usize,
    /// For `{;var}`: the group holding `;name[=value]`, whose presence with
    /// the value group absent means an empty value.
    presence: Option<usize>,
}

#[derive(Clone, Debug)]
struct QueryMatcher {
    group: usize,
    names: Vec<String>,
}

/// Unreserved characters and pct-encoded triplets.
const UNRESERVED: &str = r"(?:[A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})";

/// Reserved and unreserved characters and pct-encoded triplets, minus
/// `excluded` (the characters that may start a query that follows).
fn reserved_class(excluded: &[char]) -> String {
    let mut class = String::from(r"(?:[A-Za-z0-9._~\-");
    for c in ":/?#[]@!$&'()*+,;=".chars() {
        if !excluded.contains(&c) {
            class.push_str(&regex_lite::escape(c.encode_utf8(&mut [0; 4])));
        }
    }
    class.push_str("]|%[0-9A-Fa-f]{2})");
    class
}

/// A regex matching a literal part as expanded (non-ASCII characters raw or
/// pct-encoded, hex digits in either case).
fn literal_pattern(pattern: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) {
        if pct_at(bytes, i) {
            pattern.push('%');
            push_hex_pattern(pattern, &text[i + 1..i + 3]);
            i += 3;
        } else if c.is_ascii() {
            pattern.push_str(&regex_lite::escape(c.encode_utf8(&mut [0; 4])));
            i += 1;
        } else {
            let mut buffer = [0; 4];
            let raw = c.encode_utf8(&mut buffer);
            pattern.push_str("(?:");
            pattern.push_str(&regex_lite::escape(raw));
            pattern.push('|');
            for &b in raw.as_bytes() {
                let hex = [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xF)]];
                pattern.push('%');
                push_hex_pattern(pattern, std::str::from_utf8(&hex).unwrap_or_default());
            }
            pattern.push(')');
            i += c.len_utf8();
        }
    }
}

fn push_hex_pattern(pattern: &mut String, hex: &str) {
    for c in hex.chars() {
        if c.is_ascii_alphabetic() {
            pattern.push('[');
            pattern.push(c.to_ascii_lowercase());
            pattern.push(c.to_ascii_uppercase());
            pattern.push(']');
        } else {
            pattern.push(c);
        }
    }
}

impl Matcher {
    fn build(parts: &[Part]) -> Option<Self> {
        // The trailing run of query expressions, if any.
        let query_start =
            parts.iter().position(|part| matches!(part, Part::Expression(e) if e.op.is_query())).unwrap_or(parts.len());
        let (head, query) = parts.split_at(query_start);
        let mut query_names = Vec::new();
        for part in query {
            match part {
                Part::Expression(e) if e.op.is_query() && e.vars.iter().all(|var| var.modifier == Modifier::None) => {
                    query_names.extend(e.vars.iter().map(|var| var.name.clone()));
                }
                _ => return None,
            }
        }
        // The characters the query may start with: each expression's own
        // (`?` or `&`), since those before it may all be undefined and
        // expand to nothing (`{?a}{&b}` with `a` undefined is `&b=…`).
        let mut query_leads: Vec<char> = Vec::new();
        for part in query {
            if let Part::Expression(e) = part
                && let Some(lead) = e.op.first().chars().next()
                && !query_leads.contains(&lead)
            {
                query_leads.push(lead);
            }
        }

        let reserved = reserved_class(&query_leads);
        let mut pattern = String::from("^");
        let mut captures = Vec::new();
        let mut group = 0;
        let mut previous: Option<Op> = None;
        for part in head {
            let expression = match part {
                Part::Literal(text) => {
                    literal_pattern(&mut pattern, text);
                    previous = None;
                    continue;
                }
                Part::Expression(expression) => expression,
            };
            let op = expression.op;
            if expression.vars.iter().any(|var| var.modifier != Modifier::None)
                || (expression.vars.len() > 1 && matches!(op, Op::Reserved | Op::Fragment | Op::Label))
            {
                return None;
            }
            if let Some(previous) = previous
                && (matches!(op, Op::Simple | Op::Reserved | Op::Label)
                    || matches!(previous, Op::Reserved | Op::Fragment))
            {
                return None;
            }
            previous = Some(op);
            let class = if op.allow_reserved() { reserved.as_str() } else { UNRESERVED };
            match op {
                Op::Simple | Op::Reserved => {
                    for (index, var) in expression.vars.iter().enumerate() {
                        if index == 0 {
                            pattern.push_str(&format!("({class}+)"));
                        } else {
                            pattern.push_str(&format!("(?:,({class}*))?"));
                        }
                        group += 1;
                        captures.push(Capture { name: var.name.clone(), value: group, presence: None });
                    }
                }
                Op::Param => {
                    for var in &expression.vars {
                        let name = regex_lite::escape(&var.name);
                        pattern.push_str(&format!("(;{name}(?:=({class}*))?)?"));
                        captures.push(Capture { name: var.name.clone(), value: group + 2, presence: Some(group + 1) });
                        group += 2;
                    }
                }
                Op::Fragment | Op::Label | Op::Path => {
                    let first = regex_lite::escape(op.first());
                    let separator = regex_lite::escape(op.separator());
                    pattern.push_str(&format!("(?:{first}"));
                    for (index, var) in expression.vars.iter().enumerate() {
                        if index == 0 {
                            pattern.push_str(&format!("({class}*)"));
                        } else {
                            pattern.push_str(&format!("(?:{separator}({class}*))?"));
                        }
                        group += 1;
                        captures.push(Capture { name: var.name.clone(), value: group, presence: None });
                    }
                    pattern.push_str(")?");
                }
                Op::Query | Op::QueryContinuation => return None,
            }
        }
        let query = if query_leads.is_empty() {
            None
        } else {
            let leads: String =
                query_leads.iter().map(|lead| regex_lite::escape(lead.encode_utf8(&mut [0; 4]))).collect();
            pattern.push_str(&format!("((?s:[{leads}].*))?"));
            Some(QueryMatcher { group: group + 1, names: query_names })
        };
        pattern.push('$');
        let regex = Regex::new(&pattern).ok()?;
        Some(Self { regex, captures, query })
    }

    fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        let found = self.regex.captures(uri)?;
        let mut values = BTreeMap::new();
        for capture in &self.captures {
            let value = match (found.get(capture.value), capture.presence.and_then(|group| found.get(group))) {
                (Some(value), _) => decode(value.as_str())?,
                (None, Some(_)) => String::new(),
                (None, None) => continue,
            };
            values.insert(capture.name.clone(), value);
        }
        if let Some(query) = &self.query
            && let Some(tail) = found.get(query.group)
        {
            // The tail starts with the one-byte `?` or `&`.
            for parameter in tail.as_str().get(1..).unwrap_or_default().split('&') {
                let (name, value) = parameter.split_once('=')?;
                if !query.names.iter().any(|known| known == name)
                    || values.contains_key(name)
                    || !value.bytes().all(|b| is_unreserved(b) || b == b'%')
                {
                    return None;
                }
                values.insert(name.to_owned(), decode(value)?);
            }
        }
        Some(values)
    }
}

// ---------------------------------------------------------------------------
// Trait implementations

impl fmt::Debug for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UriTemplate").field(&self.source).finish()
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

impl Eq for UriTemplate {}

impl std::hash::Hash for UriTemplate {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.source.hash(state);
    }
}

impl FromStr for UriTemplate {
    type Err = InvalidTemplate;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::parse(text)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for UriTemplate {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.source)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for UriTemplate {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::parse(&text).map_err(serde::de::Error::custom)
    }
}
