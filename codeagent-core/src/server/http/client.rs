//! Who opens a legacy session, for the per-client session limit
//! ([`HttpOptions::with_max_sessions_per_client`](super::HttpOptions::with_max_sessions_per_client)),
//! and the refusal past it.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::Value;

use super::respond::rpc_error;
use crate::server::jsonrpc::{INVALID_REQUEST, RpcError};
use crate::toolbox::Caller;

/// The key a new session counts against: the authenticated caller (its
/// token's issuer and subject), else the client's address (the last entry
/// of the trusted `address_header` when one is configured and usable, else
/// the connection's), an IPv6 address by its `/64` prefix. `None` when
/// nothing says who the client is (a router served without connection
/// info): then no per-client limit applies.
pub(crate) fn key(
    caller: Option<&Caller>,
    connection: Option<SocketAddr>,
    headers: &HeaderMap,
    address_header: Option<&str>,
) -> Option<String> {
    if let Some(caller) = caller {
        return Some(format!("caller {}", caller.identity()));
    }
    let forwarded = address_header.and_then(|name| forwarded(headers, name));
    let address = forwarded.or(connection.map(|connection| connection.ip()))?;
    Some(format!("address {}", prefix(address)))
}

/// The last address of header `name` (its last occurrence, last entry), as
/// the proxy in front appended it; `None` when it is missing or not an address.
fn forwarded(headers: &HeaderMap, name: &str) -> Option<IpAddr> {
    let value = headers.get_all(name).iter().next_back()?.to_str().ok()?;
    let entry = value.rsplit(',').next()?.trim();
    entry.parse::<IpAddr>().ok().or_else(|| entry.parse::<SocketAddr>().ok().map(|address| address.ip()))
}

/// An IPv4 address as it is (also when mapped into IPv6); an IPv6 address by
/// its `/64` prefix, the block one host or home commonly has to itself.
fn prefix(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(v6.to_bits() & !u128::from(u64::MAX))),
        },
        v4 => v4,
    }
}

/// `429`: the client has `limit` live sessions already.
pub(crate) fn too_many_sessions(id: &Value, limit: usize) -> Response {
    let message = format!(
        "Too Many Requests: this client has {limit} live sessions already, the most one client may open \
         (HttpOptions::with_max_sessions_per_client); end one with DELETE, or let it expire, before opening another"
    );
    rpc_error(StatusCode::TOO_MANY_REQUESTS, id, &RpcError::new(INVALID_REQUEST, message))
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;

    use axum::http::HeaderMap;

    use super::key;
    use crate::toolbox::Caller;

    fn connection(address: &str) -> Option<SocketAddr> {
        Some(address.parse().unwrap())
    }

    #[test]
    fn a_client_is_its_address_and_an_ipv6_one_its_prefix() {
        let headers = HeaderMap::new();
        assert_eq!(key(None, connection("192.0.2.7:4000"), &headers, None).unwrap(), "address 192.0.2.7");
        let a = key(None, connection("[2001:db8:1:2:aaaa::1]:1"), &headers, None);
        let b = key(None, connection("[2001:db8:1:2:bbbb::9]:2"), &headers, None);
        assert_eq!(a, b, "one /64");
        assert_eq!(a.unwrap(), "address 2001:db8:1:2::");
        let other = key(None, connection("[2001:db8:1:3::1]:1"), &headers, None);
        assert_ne!(other, b);
        assert_eq!(key(None, connection("[::ffff:192.0.2.7]:1"), &headers, None).unwrap(), "address 192.0.2.7");
        assert_eq!(key(None, None, &headers, None), None, "nothing says who it is");
    }

    #[test]
    fn a_forwarded_address_counts_only_from_a_trusted_header() {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", "203.0.113.5, 198.51.100.1".parse().unwrap());
        let proxy = connection("10.0.0.1:5000");
        assert_eq!(key(None, proxy, &headers, None).unwrap(), "address 10.0.0.1", "not trusted by default");
        assert_eq!(key(None, proxy, &headers, Some("x-forwarded-for")).unwrap(), "address 198.51.100.1");
        headers.insert("x-forwarded-for", "not an address".parse().unwrap());
        assert_eq!(key(None, proxy, &headers, Some("x-forwarded-for")).unwrap(), "address 10.0.0.1");
    }

    #[test]
    fn an_authenticated_client_is_its_issuer_and_subject_wherever_it_connects_from() {
        let headers = HeaderMap::new();
        let alice = Caller::new("alice").with_claim("iss", "https://issuer.example");
        let here = key(Some(&alice), connection("192.0.2.1:1"), &headers, None);
        let there = key(Some(&alice), connection("198.51.100.2:2"), &headers, None);
        assert_eq!(here, there);
        assert_eq!(here.unwrap(), r#"caller ["https://issuer.example","alice"]"#);
        let elsewhere = Caller::new("alice").with_claim("iss", "https://other.example");
        assert_ne!(key(Some(&elsewhere), None, &headers, None), there, "another issuer's alice is another client");
    }
}
