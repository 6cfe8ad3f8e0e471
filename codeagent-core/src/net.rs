//! The outgoing HTTP stack, shared by the agent's model clients and the MCP
//! client: hyper's pooled HTTP/1.1 client, plain `http://` for local servers,
//! and with the `tls` feature `https://` by rustls with its ring provider and
//! the webpki roots.
//!
//! A client may be limited to public addresses ([`Reach::Public`]): then the
//! connector itself refuses a URL whose host is a private, loopback,
//! link-local (or otherwise not globally routable) IP address, and the
//! resolver refuses a name that resolves to one. Both checks sit below every
//! request the client sends, on the address actually connected to, so no
//! caller can skip them and a name cannot resolve one way when checked and
//! another when connected (DNS rebinding).

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::Uri;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::connect::dns::{GaiResolver, Name};
use hyper_util::rt::TokioExecutor;
use tower_service::Service;

/// Which addresses a client may connect to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// Any address.
    Any,
    /// Globally routable addresses only (see [`is_internal`]).
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    Public,
}

/// The connector: TCP (with a connect timeout, no Nagle) limited to its
/// [`Reach`], TLS when the URL asks.
#[cfg(feature = "tls")]
pub(crate) type Connector = hyper_rustls::HttpsConnector<Guarded>;
/// The connector: TCP (with a connect timeout, no Nagle) limited to its
/// [`Reach`]; `https://` URLs fail without the `tls` feature.
#[cfg(not(feature = "tls"))]
pub(crate) type Connector = Guarded;

/// A pooled client sending whole bodies.
pub(crate) type HttpClient = Client<Connector, Full<Bytes>>;

/// A pooled client for `https://` and `http://` URLs, giving up on a
/// connection after `connect_timeout`.
pub(crate) fn http_client(connect_timeout: Duration) -> HttpClient {
    http_client_reaching(connect_timeout, Reach::Any)
}

/// [`http_client`] connecting only to the addresses `reach` allows.
pub(crate) fn http_client_reaching(connect_timeout: Duration, reach: Reach) -> HttpClient {
    let mut tcp = HttpConnector::new_with_resolver(Resolver { reach, inner: GaiResolver::new() });
    tcp.enforce_http(false);
    tcp.set_connect_timeout(Some(connect_timeout));
    tcp.set_nodelay(true);
    Client::builder(TokioExecutor::new()).build(secure(Guarded { reach, inner: tcp }))
}

/// TLS over `tcp` when the URL asks for it.
#[cfg(feature = "tls")]
fn secure(tcp: Guarded) -> Connector {
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
fn secure(tcp: Guarded) -> Connector {
    tcp
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The system's resolver, refusing names that resolve to an internal
/// address when its reach is [`Reach::Public`].
#[derive(Clone)]
pub(crate) struct Resolver {
    reach: Reach,
    inner: GaiResolver,
}

impl Service<Name> for Resolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = std::io::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, name: Name) -> Self::Future {
        let reach = self.reach;
        let resolving = self.inner.call(name.clone());
        Box::pin(async move {
            let addresses: Vec<SocketAddr> = resolving.await?.collect();
            if reach == Reach::Public
                && let Some(internal) = addresses.iter().find(|address| is_internal(address.ip()))
            {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    format!(
                        "`{}` resolves to {}, an internal (private, loopback or link-local) address: refused",
                        crate::log_text::escaped(name.as_str()),
                        internal.ip()
                    ),
                ));
            }
            Ok(addresses.into_iter())
        })
    }
}

/// The TCP connector, refusing a URL whose host is an internal IP address
/// when its reach is [`Reach::Public`] (names are checked by [`Resolver`];
/// an IP address never reaches the resolver).
#[derive(Clone)]
pub(crate) struct Guarded {
    reach: Reach,
    inner: HttpConnector<Resolver>,
}

impl Service<Uri> for Guarded {
    type Response = <HttpConnector<Resolver> as Service<Uri>>::Response;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx).map_err(Into::into)
    }

    fn call(&mut self, uri: Uri) -> Self::Future {
        if self.reach == Reach::Public {
            let host = uri.host().unwrap_or_default();
            let literal = host.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>().ok();
            if let Some(address) = literal.filter(|address| is_internal(*address)) {
                let refused = format!("{address} is an internal (private, loopback or link-local) address: refused");
                return Box::pin(std::future::ready(Err(refused.into())));
            }
        }
        let connecting = self.inner.call(uri);
        Box::pin(async move { connecting.await.map_err(Into::into) })
    }
}

/// Whether `address` is not a globally routable unicast address: loopback,
/// private (RFC 1918, IPv6 unique local), link-local, unspecified, shared
/// (CGNAT), benchmarking, reserved, documentation, broadcast or multicast;
/// IPv6 addresses embedding an IPv4 address (mapped, compatible, NAT64,
/// 6to4) are judged by that address.
pub(crate) fn is_internal(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => is_internal_v4(v4),
        IpAddr::V6(v6) => is_internal_v6(v6),
    }
}

fn is_internal_v4(address: Ipv4Addr) -> bool {
    let [a, b, c, _] = address.octets();
    address.is_unspecified()
        || address.is_loopback()
        || address.is_private()
        || address.is_link_local()
        || address.is_broadcast()
        || address.is_multicast()
        || address.is_documentation()
        || a == 0                                   // "this network", 0.0.0.0/8
        || (a == 100 && (64..128).contains(&b))     // shared address space (CGNAT), 100.64.0.0/10
        || (a == 192 && b == 0 && c == 0)           // IETF protocol assignments, 192.0.0.0/24
        || (a == 198 && (b == 18 || b == 19))       // benchmarking, 198.18.0.0/15
        || a >= 240 // reserved, 240.0.0.0/4
}

fn is_internal_v6(address: Ipv6Addr) -> bool {
    let segments = address.segments();
    let embedded = |high: u16, low: u16| Ipv4Addr::from((u32::from(high) << 16) | u32::from(low));
    if let Some(v4) = address.to_ipv4_mapped() {
        return is_internal_v4(v4); // ::ffff:a.b.c.d
    }
    if segments[..6] == [0; 6] && !address.is_unspecified() && !address.is_loopback() {
        return is_internal_v4(embedded(segments[6], segments[7])); // ::a.b.c.d (deprecated "compatible")
    }
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return is_internal_v4(embedded(segments[6], segments[7])); // NAT64, 64:ff9b::/96
    }
    if segments[0] == 0x2002 {
        return is_internal_v4(embedded(segments[1], segments[2])); // 6to4, 2002::/16
    }
    address.is_unspecified()
        || address.is_loopback()
        || address.is_multicast()
        || (segments[0] & 0xfe00) == 0xfc00 // unique local, fc00::/7
        || (segments[0] & 0xffc0) == 0xfe80 // link-local, fe80::/10
        || (segments[0] & 0xffc0) == 0xfec0 // site-local (deprecated), fec0::/10
        || (segments[0] == 0x2001 && segments[1] == 0x0db8) // documentation, 2001:db8::/32
        || segments[..4] == [0x0100, 0, 0, 0] // discard, 100::/64
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

#[cfg(test)]
mod tests {
    use super::is_internal;

    fn internal(text: &str) -> bool {
        is_internal(text.parse().unwrap())
    }

    #[test]
    fn internal_addresses_of_both_families() {
        for address in [
            "127.0.0.1",
            "127.1.2.3",
            "10.0.0.1",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "0.1.2.3",
            "100.64.0.1",
            "100.127.255.255",
            "192.0.0.8",
            "198.18.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "240.0.0.1",
            "192.0.2.1",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "2002:c0a8:101::1",
            "2001:db8::1",
            "100::1",
        ] {
            assert!(internal(address), "{address} is internal");
        }
    }

    #[test]
    fn public_addresses_of_both_families() {
        for address in [
            "1.1.1.1",
            "8.8.8.8",
            "172.32.0.1",
            "100.128.0.1",
            "192.0.1.1",
            "198.20.0.1",
            "93.184.216.34",
            "2606:4700:4700::1111",
            "2a00:1450:4001:82a::200e",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(!internal(address), "{address} is public");
        }
    }
}
