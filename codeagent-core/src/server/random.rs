//! Identifiers and secrets drawn from the operating system's CSPRNG.

use std::fmt::Write as _;

/// `N` random bytes as `2 * N` lower-case hex digits (visible ASCII, fit for
/// a session id, a URI or a secret).
pub(crate) fn hex<const N: usize>() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)?;
    let mut text = String::with_capacity(2 * N);
    for byte in bytes {
        let _ = write!(text, "{byte:02x}");
    }
    Ok(text)
}
