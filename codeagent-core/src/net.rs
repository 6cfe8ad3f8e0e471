//! The outgoing HTTP stack, shared by the agent's model clients and the MCP
//! client: hyper's pooled HTTP/1.1 client, plain `http://` for local servers,
//! and with the `tls` feature `https://` by rustls with its ring provider and
//! the webpki roots.

use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

/// The connector: TCP (with a connect timeout, no Nagle), TLS when the URL asks.
#[cfg(feature = "tls")]
pub(crate) type Connector = hyper_rustls::HttpsConnector<HttpConnector>;
/// The connector: TCP (with a connect timeout, no Nagle); `https://` URLs
/// fail without the `tls` feature.
#[cfg(not(feature = "tls"))]
pub(crate) type Connector = HttpConnector;

/// A pooled client sending whole bodies.
pub(crate) type HttpClient = Client<Connector, Full<Bytes>>;

/// A pooled client for `https://` and `http://` URLs, giving up on a
/// connection after `connect_timeout`.
pub(crate) fn http_client(connect_timeout: Duration) -> HttpClient {
    let mut tcp = HttpConnector::new();
    tcp.enforce_http(false);
    tcp.set_connect_timeout(Some(connect_timeout));
    tcp.set_nodelay(true);
    Client::builder(TokioExecutor::new()).build(secure(tcp))
}

/// TLS over `tcp` when the URL asks for it.
#[cfg(feature = "tls")]
fn secure(tcp: HttpConnector) -> Connector {
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring supports rustls's default protocol versions")
        .with_root_certificates(roots)
        .with_no_client_auth();
    hyper_rustls::HttpsConnectorBuilder::new().with_tls_config(tls).https_or_http().enable_http1().wrap_connector(tcp)
}

/// Plain TCP: without the `tls` feature there is no TLS.
#[cfg(not(feature = "tls"))]
fn secure(tcp: HttpConnector) -> Connector {
    tcp
}

/// Whether `https://` URLs can be reached (the `tls` feature).
#[cfg(feature = "client")]
pub(crate) const HAS_TLS: bool = cfg!(feature = "tls");

/// An error with its causes, `a: b: c`.
pub(crate) fn describe(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}
