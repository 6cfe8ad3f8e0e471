//! The safety check of a rendered card, shared by the property tests
//! (`codeagent-core/tests/suite/properties.rs`) and the `display` and `from_mcp`
//! fuzz targets: no `<script`, only the tags the renderer emits, no
//! event-handler attribute, and link and image URLs only with safe schemes
//! (`http`, `https`, `mailto`, and `data:image/...` for an embedded image).

const ALLOWED_TAGS: &[&str] = &[
    "a",
    "blockquote",
    "br",
    "code",
    "del",
    "div",
    "em",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "img",
    "input",
    "li",
    "ol",
    "p",
    "pre",
    "span",
    "strong",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
];

/// Decodes the character references a browser would decode in an attribute.
fn decode_attribute(value: &str) -> String {
    let mut out = String::new();
    let mut rest = value;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';').filter(|end| *end <= 10) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..end];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "colon" => Some(':'),
            _ if entity.starts_with("#x") || entity.starts_with("#X") => {
                u32::from_str_radix(&entity[2..], 16).ok().and_then(char::from_u32)
            }
            _ if entity.starts_with('#') => entity[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match decoded {
            Some(ch) => {
                out.push(ch);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The scheme a browser would see in `url`, if any.
fn url_scheme(url: &str) -> Option<String> {
    let cleaned: String =
        url.trim_start_matches(|ch: char| ch <= ' ').chars().filter(|ch| !matches!(ch, '\t' | '\n' | '\r')).collect();
    let end = cleaned.find([':', '/', '?', '#'])?;
    cleaned[end..].starts_with(':').then(|| cleaned[..end].to_ascii_lowercase())
}

/// A start or end tag of `html`: its lower-case name and attributes.
struct Tag {
    name: String,
    attributes: Vec<(String, String)>,
}

/// A small tokenizer for the markup this crate emits. Text is always escaped,
/// so every `<` starts a tag; attribute values may be quoted or bare.
fn tags(html: &str) -> Vec<Tag> {
    let bytes = html.as_bytes();
    let mut found = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'<' {
            at += 1;
            continue;
        }
        at += 1;
        if bytes.get(at) == Some(&b'/') {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        let name = html[start..at].to_ascii_lowercase();
        let mut attributes = Vec::new();
        loop {
            while at < bytes.len() && (bytes[at].is_ascii_whitespace() || bytes[at] == b'/') {
                at += 1;
            }
            if at >= bytes.len() || bytes[at] == b'>' {
                at += 1;
                break;
            }
            let start = at;
            while at < bytes.len() && !matches!(bytes[at], b'=' | b'>' | b'/') && !bytes[at].is_ascii_whitespace() {
                at += 1;
            }
            let attribute = html[start..at].to_ascii_lowercase();
            let mut value = String::new();
            if bytes.get(at) == Some(&b'=') {
                at += 1;
                match bytes.get(at) {
                    Some(&quote @ (b'"' | b'\'')) => {
                        let start = at + 1;
                        let end = html[start..].find(quote as char).map_or(html.len(), |end| start + end);
                        value = html[start..end].to_owned();
                        at = end + 1;
                    }
                    _ => {
                        let start = at;
                        while at < bytes.len() && bytes[at] != b'>' && !bytes[at].is_ascii_whitespace() {
                            at += 1;
                        }
                        value = html[start..at].to_owned();
                    }
                }
            }
            attributes.push((attribute, value));
        }
        found.push(Tag { name, attributes });
    }
    found
}

/// Asserts that `html` is a safe card: no script tag, only known tags, no
/// event-handler attributes, and URLs only with safe schemes.
pub fn assert_safe_html(html: &str) {
    assert!(!html.to_ascii_lowercase().contains("<script"), "a <script tag in {html}");
    for tag in tags(html) {
        assert!(ALLOWED_TAGS.contains(&tag.name.as_str()), "unexpected tag <{}> in {html}", tag.name);
        for (attribute, value) in &tag.attributes {
            assert!(!attribute.starts_with("on"), "event handler attribute {attribute} in {html}");
            if !matches!(attribute.as_str(), "href" | "src") {
                continue;
            }
            let url = decode_attribute(value);
            if let Some(scheme) = url_scheme(&url) {
                let embedded_image = attribute == "src"
                    && ["data:image/png;", "data:image/jpeg;", "data:image/gif;", "data:image/webp;"]
                        .iter()
                        .any(|prefix| url.starts_with(prefix));
                assert!(
                    matches!(scheme.as_str(), "http" | "https" | "mailto") || embedded_image,
                    "unsafe URL scheme {scheme:?} in {attribute}=\"{url}\" of {html}"
                );
            }
        }
    }
}
