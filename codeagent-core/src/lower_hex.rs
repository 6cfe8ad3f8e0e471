//! Bytes written as lower-case hex digits: digests in ids, keys and slots,
//! and random ids. The one place the crate writes hex.

use std::fmt::Write as _;

/// `bytes` as `2 * bytes.len()` lower-case hex digits.
pub(crate) fn lower_hex(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(2 * bytes.len());
    for byte in bytes {
        let _ = write!(text, "{byte:02x}");
    }
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn two_digits_a_byte_lower_case() {
        assert_eq!(super::lower_hex(&[0x00, 0x0a, 0xff, 0x5c]), "000aff5c");
        assert_eq!(super::lower_hex(&[]), "");
    }
}
