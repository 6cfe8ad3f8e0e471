//! Text from elsewhere (a mounted server's stderr, its log notifications,
//! error messages and names, a caller's input) made safe to write into a log
//! line or onto a terminal.
//!
//! [`escaped`] shows every character that could end the line, move the
//! cursor, recolour or retitle the terminal, or reorder the text around it
//! as an escape instead: `\n`, `\r`, `\t`, and `\u{..}` for the other
//! control characters (C0, DEL, C1, so `ESC [` and the 8-bit CSI) and the
//! invisible formatting characters that reorder or hide text (the
//! bidirectional overrides and isolates, zero-width characters, the BOM, the
//! line and paragraph separators). Everything else, backslashes and quotes
//! included, is written as it is: the result is for a human reading a log,
//! not a string to parse back.

use std::fmt;

/// `text` for a log line or the terminal: one line, no control characters
/// or escape sequences, invisible formatting characters made visible (see
/// the module's documentation). Allocates nothing; format it with `{}`.
pub(crate) fn escaped(text: &str) -> Escaped<'_> {
    Escaped(text)
}

/// The [`Display`](fmt::Display) of [`escaped`].
#[derive(Clone, Copy)]
pub(crate) struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        let mut rest = self.0;
        while let Some(position) = rest.find(needs_escape) {
            f.write_str(&rest[..position])?;
            let c = rest[position..].chars().next().unwrap_or_default();
            match c {
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\t' => f.write_str("\\t")?,
                other => {
                    for escape in other.escape_unicode() {
                        f.write_char(escape)?;
                    }
                }
            }
            rest = &rest[position + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

impl fmt::Debug for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

/// Whether `c` is written as an escape: control characters (C0, DEL, C1) and
/// the format characters that reorder, join or hide text.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'               // ARABIC LETTER MARK
            | '\u{180E}'             // MONGOLIAN VOWEL SEPARATOR
            | '\u{200B}'..='\u{200F}' // zero-width space, non-joiner, joiner, LRM, RLM
            | '\u{2028}'..='\u{202E}' // line and paragraph separators, bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}' // word joiner, invisible operators
            | '\u{2066}'..='\u{2069}' // bidi isolates
            | '\u{206A}'..='\u{206F}' // deprecated format characters
            | '\u{FEFF}'             // BOM, zero-width no-break space
            | '\u{FFF9}'..='\u{FFFB}' // interlinear annotations
        )
}

#[cfg(test)]
mod tests {
    use super::escaped;

    #[test]
    fn plain_text_is_unchanged() {
        assert_eq!(escaped("weather: 12 °C, \"dry\" C:\\tmp").to_string(), "weather: 12 °C, \"dry\" C:\\tmp");
    }

    #[test]
    fn line_breaks_and_escape_sequences_are_made_visible() {
        assert_eq!(escaped("a\nb\r\tc").to_string(), "a\\nb\\r\\tc");
        assert_eq!(escaped("\u{1b}[2J\u{1b}]0;owned\u{7}").to_string(), "\\u{1b}[2J\\u{1b}]0;owned\\u{7}");
        assert_eq!(escaped("\u{9b}31m\u{7f}\0").to_string(), "\\u{9b}31m\\u{7f}\\u{0}");
    }

    #[test]
    fn invisible_reordering_characters_are_made_visible() {
        assert_eq!(escaped("x\u{202E}gnp.exe").to_string(), "x\\u{202e}gnp.exe");
        assert_eq!(
            escaped("a\u{2028}b\u{2066}c\u{200B}d\u{FEFF}").to_string(),
            "a\\u{2028}b\\u{2066}c\\u{200b}d\\u{feff}"
        );
    }

    #[test]
    fn debug_quotes_the_escaped_text() {
        assert_eq!(format!("{:?}", escaped("a\nb")), "\"a\\nb\"");
    }
}
