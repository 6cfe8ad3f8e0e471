//! The integration tests of `codeagent-core`, in one test binary (one link
//! instead of one per file): each module was a binary of its own.
//!
//! - [`adaptation`]: adapting untrusted or legacy results;
//! - [`display`]: the HTML card;
//! - [`golden`]: the exact wire output of every typed output;
//! - [`layering`]: the crate's modules form layers;
//! - [`mcp_wire`]: the MCP wire format against the official schemas;
//! - [`properties`]: property tests of the trust boundary.
//!
//! `cargo test -p codeagent-core --test suite golden::` runs one of them.

mod adaptation;
mod display;
mod golden;
mod layering;
mod mcp_wire;
mod properties;

/// A complete 1x1 RGBA PNG (one red pixel): signature, IHDR, IDAT (zlib), IEND,
/// every chunk with its CRC (`golden::png_is_well_formed` checks it); for the
/// display and golden tests.
pub(crate) const PNG_1X1: &[u8] = b"\x89PNG\r\n\x1a\n\
\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\
\x00\x00\x00\x0dIDAT\x78\xda\x63\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x56\xc7\x2f\x0d\
\x00\x00\x00\x00IEND\xae\x42\x60\x82";

/// Its standard base64, computed independently of the crate.
pub(crate) const PNG_1X1_B64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAH/VscvDQAAAABJRU5ErkJggg==";
