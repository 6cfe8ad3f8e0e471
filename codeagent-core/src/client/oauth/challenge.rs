//! A server's `WWW-Authenticate: Bearer ...` challenge (RFC 6750 §3), or
//! `DPoP ...` (RFC 9449 §7.1): where its protected resource metadata is
//! (RFC 9728 §5.1), the scope it wants, and the error.

/// The parameters of a `Bearer` (or `DPoP`) challenge.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Challenge {
    /// `resource_metadata`: the URL of the protected resource metadata.
    pub(crate) resource_metadata: Option<String>,
    /// `scope`: the scopes the request needs, space-separated.
    pub(crate) scope: Option<String>,
    /// `error`: `invalid_token`, `insufficient_scope`, ...
    pub(crate) error: Option<String>,
}

impl Challenge {
    /// The first `Bearer` or `DPoP` challenge among `header`'s challenges,
    /// if there is one.
    pub(crate) fn parse(header: &str) -> Option<Challenge> {
        let mut rest = header.trim_start();
        loop {
            let (scheme, after) = token(rest);
            if scheme.is_empty() {
                return None;
            }
            let (params, next) = parameters(after);
            if scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("dpop") {
                let mut challenge = Challenge::default();
                for (name, value) in params {
                    match name.to_ascii_lowercase().as_str() {
                        "resource_metadata" => challenge.resource_metadata = Some(value),
                        "scope" => challenge.scope = Some(value),
                        "error" => challenge.error = Some(value),
                        _ => {}
                    }
                }
                return Some(challenge);
            }
            rest = next?;
        }
    }

    /// The scopes named, in order.
    pub(crate) fn scopes(&self) -> Option<Vec<String>> {
        self.scope.as_ref().map(|scope| scope.split_whitespace().map(str::to_owned).collect())
    }
}

/// A token (RFC 9110 `tchar`s) at the start of `text`, and what follows it.
fn token(text: &str) -> (&str, &str) {
    let end = text.find(|c: char| !(c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))).unwrap_or(text.len());
    (&text[..end], &text[end..])
}

/// The `name=value` parameters of one challenge, and the text of the next
/// challenge, if one follows.
fn parameters(mut text: &str) -> (Vec<(String, String)>, Option<&str>) {
    let mut params = Vec::new();
    loop {
        text = text.trim_start_matches([' ', '\t', ',']);
        let (name, after) = token(text);
        let after = after.trim_start();
        let Some(after) = after.strip_prefix('=').filter(|_| !name.is_empty()) else {
            // Not a parameter: the next challenge's scheme, or the end.
            return (params, (!name.is_empty()).then_some(text));
        };
        let after = after.trim_start();
        let (value, rest) = match after.strip_prefix('"') {
            Some(quoted) => quoted_string(quoted),
            None => {
                let (value, rest) = token(after);
                (value.to_owned(), rest)
            }
        };
        params.push((name.to_owned(), value));
        text = rest;
    }
}

/// The rest of a quoted string (after its opening quote), unescaped, and
/// what follows its closing quote.
fn quoted_string(text: &str) -> (String, &str) {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((index, c)) = chars.next() {
        match c {
            '"' => return (value, &text[index + 1..]),
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    value.push(escaped);
                }
            }
            _ => value.push(c),
        }
    }
    (value, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_bearer_parameters() {
        let challenge = Challenge::parse(
            r#"Bearer error="insufficient_scope", scope="mcp:write files:read", resource_metadata="http://h/.well-known/oauth-protected-resource/mcp""#,
        )
        .unwrap();
        assert_eq!(challenge.error.as_deref(), Some("insufficient_scope"));
        assert_eq!(challenge.scopes().unwrap(), ["mcp:write", "files:read"]);
        assert_eq!(challenge.resource_metadata.as_deref(), Some("http://h/.well-known/oauth-protected-resource/mcp"));
    }

    #[test]
    fn finds_bearer_among_other_schemes_and_unescapes() {
        let challenge = Challenge::parse(r#"Basic realm="x", Bearer realm="a \"b\"", scope=read"#).unwrap();
        assert_eq!(challenge.scope.as_deref(), Some("read"));
        assert_eq!(Challenge::parse("Bearer").unwrap(), Challenge::default());
        assert_eq!(Challenge::parse(r#"Basic realm="x""#), None);
        assert_eq!(Challenge::parse(""), None);
    }

    #[test]
    fn reads_a_dpop_challenge() {
        let challenge = Challenge::parse(
            r#"DPoP error="use_dpop_nonce", algs="ES256", resource_metadata="http://h/.well-known/oauth-protected-resource""#,
        )
        .unwrap();
        assert_eq!(challenge.error.as_deref(), Some("use_dpop_nonce"));
        assert_eq!(challenge.resource_metadata.as_deref(), Some("http://h/.well-known/oauth-protected-resource"));
    }
}
