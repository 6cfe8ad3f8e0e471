//! The one source of randomness: the operating system's CSPRNG, for keys,
//! session ids, question ids, stream ids and the URIs of kept results.
//!
//! It fails closed: when the system gives no randomness, every draw is a
//! [`RandomError`], and the caller refuses what needed it (no session is
//! opened, no result is kept, no server starts without its `requestState`
//! key). Nothing falls back to the time, the process id or a counter.

/// The operating system gave no randomness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the operating system's random number generator failed")]
pub struct RandomError(#[source] getrandom::Error);

/// Fills `bytes` with random bytes.
pub(crate) fn fill(bytes: &mut [u8]) -> Result<(), RandomError> {
    getrandom::fill(bytes).map_err(RandomError)
}

/// `N` random bytes.
pub(crate) fn bytes<const N: usize>() -> Result<[u8; N], RandomError> {
    let mut bytes = [0u8; N];
    fill(&mut bytes)?;
    Ok(bytes)
}

/// `N` random bytes as `2 * N` lower-case hex digits (visible ASCII, fit for
/// a session id, a URI or a secret).
pub(crate) fn hex<const N: usize>() -> Result<String, RandomError> {
    Ok(crate::lower_hex::lower_hex(&bytes::<N>()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_differ_and_hex_is_twice_as_long() {
        let (first, second) = (hex::<16>().unwrap(), hex::<16>().unwrap());
        assert_eq!(first.len(), 32);
        assert!(first.bytes().all(|byte| byte.is_ascii_hexdigit() && !byte.is_ascii_uppercase()));
        assert_ne!(first, second);
    }
}
