//! The JSON-RPC error codes MCP uses, in one place for the server, the
//! client and middleware: JSON-RPC 2.0's own and MCP's.

/// Invalid JSON was received.
pub const PARSE_ERROR: i64 = -32700;
/// The JSON sent is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// The method does not exist or is not available.
pub const METHOD_NOT_FOUND: i64 = -32601;
/// Invalid method parameters.
pub const INVALID_PARAMS: i64 = -32602;
/// An internal error.
pub const INTERNAL_ERROR: i64 = -32603;
/// A resource that does not exist (2024-11-05 to 2025-11-25; 2026-07-28
/// answers [`INVALID_PARAMS`] instead, SEP-2164).
pub const RESOURCE_NOT_FOUND: i64 = -32002;
/// An HTTP header does not match the body (2026-07-28).
pub const HEADER_MISMATCH: i64 = -32020;
/// The client lacks a capability the request needs (2026-07-28).
pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
/// The request's protocol version is not supported (2026-07-28).
pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
