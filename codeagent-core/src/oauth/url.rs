//! The URL arithmetic of discovery, on strings as they were published: no
//! normalisation (an issuer or a resource is compared exactly, RFC 8414 §3.3,
//! RFC 9728 §3.3), no trailing slash added.

use hyper::Uri;

/// `scheme://authority` of `url`.
pub(crate) fn origin(url: &str) -> Option<String> {
    let uri: Uri = url.parse().ok()?;
    Some(format!("{}://{}", uri.scheme_str()?, uri.authority()?))
}

/// The path of `url` without its query, `""` for none or `/`.
pub(crate) fn path(url: &str) -> String {
    let after_scheme = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = after_scheme.find('/').map_or("", |slash| &after_scheme[slash..]);
    let path = path.split(['?', '#']).next().unwrap_or_default();
    path.trim_end_matches('/').to_owned()
}

/// The well-known URLs a document of `name` for `url` may be at, in the
/// order to try: with the URL's path appended (RFC 8414 §3.1, RFC 9728
/// §3.1), then at the root.
#[cfg(feature = "client")]
pub(crate) fn well_known(url: &str, name: &str) -> Vec<String> {
    let Some(origin) = origin(url) else { return Vec::new() };
    let path = path(url);
    let mut urls = Vec::new();
    if !path.is_empty() {
        urls.push(format!("{origin}/.well-known/{name}{path}"));
    }
    urls.push(format!("{origin}/.well-known/{name}"));
    urls
}

/// The URLs of an authorization server's metadata for `issuer`, in the
/// order the MCP authorization spec gives: OAuth metadata, then OpenID
/// Connect discovery, each with the issuer's path inserted, then OpenID
/// Connect with the path before `.well-known`.
pub(crate) fn server_metadata_urls(issuer: &str) -> Vec<String> {
    let Some(origin) = origin(issuer) else { return Vec::new() };
    let path = path(issuer);
    if path.is_empty() {
        return vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ];
    }
    vec![
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{origin}/.well-known/openid-configuration{path}"),
        format!("{origin}{path}/.well-known/openid-configuration"),
    ]
}

/// Whether the protected resource `resource` covers the server at `server`:
/// the same origin, and the server's path at or below the resource's.
#[cfg(feature = "client")]
pub(crate) fn covers(resource: &str, server: &str) -> bool {
    let (Some(resource_origin), Some(server_origin)) = (origin(resource), origin(server)) else { return false };
    if !resource_origin.eq_ignore_ascii_case(&server_origin) {
        return false;
    }
    let (resource_path, server_path) = (path(resource), path(server));
    server_path == resource_path
        || resource_path.is_empty()
        || server_path.strip_prefix(&resource_path).is_some_and(|rest| rest.starts_with('/'))
}

/// `url` with the query `fields` added.
#[cfg(feature = "client")]
pub(crate) fn with_query(url: &str, fields: &[(&str, &str)]) -> String {
    let query = form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish();
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}{query}")
}

/// The query fields of `url` (before any fragment).
#[cfg(feature = "client")]
pub(crate) fn query(url: &str) -> Vec<(String, String)> {
    let without_fragment = url.split('#').next().unwrap_or_default();
    let Some((_, query)) = without_fragment.split_once('?') else { return Vec::new() };
    form_urlencoded::parse(query.as_bytes()).into_owned().collect()
}

#[cfg(all(test, feature = "client"))]
mod tests {
    use super::*;

    #[test]
    fn well_known_urls_insert_the_path() {
        assert_eq!(
            well_known("http://h:1/mcp", "oauth-protected-resource"),
            ["http://h:1/.well-known/oauth-protected-resource/mcp", "http://h:1/.well-known/oauth-protected-resource"]
        );
        assert_eq!(
            server_metadata_urls("http://a/tenant1"),
            [
                "http://a/.well-known/oauth-authorization-server/tenant1",
                "http://a/.well-known/openid-configuration/tenant1",
                "http://a/tenant1/.well-known/openid-configuration"
            ]
        );
        assert_eq!(server_metadata_urls("http://a").len(), 2);
    }

    #[test]
    fn a_resource_covers_its_own_paths_only() {
        assert!(covers("http://h:1/mcp", "http://h:1/mcp"));
        assert!(covers("http://h:1", "http://h:1/mcp"));
        assert!(covers("HTTP://H:1/", "http://h:1/mcp"));
        assert!(!covers("https://evil.example.com/mcp", "http://h:1/mcp"));
        assert!(!covers("http://h:1/mc", "http://h:1/mcp"));
        assert!(!covers("http://h:1/other", "http://h:1/mcp"));
    }

    #[test]
    fn queries_round_trip() {
        let url = with_query("http://a/authorize", &[("state", "a b&c"), ("scope", "x:y")]);
        assert_eq!(url, "http://a/authorize?state=a+b%26c&scope=x%3Ay");
        assert_eq!(query(&format!("{url}#frag"))[0], ("state".to_owned(), "a b&c".to_owned()));
    }
}
