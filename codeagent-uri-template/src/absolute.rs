//! Checks of an absolute URI, as MCP resources use them: a scheme, then only
//! the characters a URI may hold, with `%` escapes well formed.

/// Why a text is not an absolute URI.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InvalidUri {
    /// No scheme (`file:`, `users:`...), or a malformed one.
    #[error("`{0}` is not a URI with a scheme, such as file:///notes.txt")]
    NoScheme(String),
    /// A `%` not followed by two hex digits.
    #[error("`{0}` has a `%` not followed by two hex digits")]
    BadEscape(String),
    /// A character a URI must percent-encode.
    #[error("`{uri}` contains `{character}`, which a URI must percent-encode (a space is %20)")]
    Unencoded {
        /// The URI.
        uri: String,
        /// The character.
        character: char,
    },
}

/// Whether `text` starts with a URI scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`).
pub fn has_scheme(text: &str) -> bool {
    let scheme = &text[..text.find(':').unwrap_or(0)];
    scheme.starts_with(|ch: char| ch.is_ascii_alphabetic())
        && scheme.chars().all(|ch| ch.is_ascii_alphanumeric() || matches!(ch, '+' | '-' | '.'))
}

/// Checks that `uri` is an absolute URI (RFC 3986 characters only).
///
/// ```
/// use codeagent_uri_template::check_uri;
///
/// assert!(check_uri("file:///notes.txt").is_ok());
/// assert!(check_uri("notes.txt").is_err());
/// assert_eq!(
///     check_uri("file:///my notes.txt").unwrap_err().to_string(),
///     "`file:///my notes.txt` contains ` `, which a URI must percent-encode (a space is %20)"
/// );
/// ```
pub fn check_uri(uri: &str) -> Result<(), InvalidUri> {
    if !has_scheme(uri) {
        return Err(InvalidUri::NoScheme(uri.to_owned()));
    }
    let bytes = uri.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        let byte = bytes[index];
        if byte == b'%' {
            if !bytes.get(index + 1..index + 3).is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)) {
                return Err(InvalidUri::BadEscape(uri.to_owned()));
            }
            index += 3;
            continue;
        }
        if !(byte.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&byte)) {
            let character = uri[index..].chars().next().unwrap_or_default();
            return Err(InvalidUri::Unencoded { uri: uri.to_owned(), character });
        }
        index += 1;
    }
    Ok(())
}
