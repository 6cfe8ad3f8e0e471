//! The built-in host page at `/` ([`HttpOptions::with_host_page`]): a static
//! document that is an MCP client of the endpoint beside it. It passes the
//! same Host and Origin allow-list as the endpoint (it holds no secret, so
//! the authorisation hook is left to the endpoint's requests), and its
//! Content Security Policy lets it reach nothing but its own origin.
//!
//! [`HttpOptions::with_host_page`]: super::HttpOptions::with_host_page

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};

use super::Http;

/// The page's policy: inline script and style only, images only as `data:`
/// URLs, requests only to its own origin, no framing, no form posts.
pub(crate) const HOST_PAGE_POLICY: &str = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
     img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// `GET /`: the host page.
pub(crate) async fn get(State(http): State<Arc<Http>>, headers: HeaderMap) -> Response {
    if let Some(refusal) = http.allow.refusal(&headers) {
        return refusal;
    }
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
        (header::CONTENT_SECURITY_POLICY, HOST_PAGE_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ];
    (headers, http.host_page.clone()).into_response()
}
