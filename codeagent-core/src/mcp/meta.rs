//! The `_meta` keys of the 2026-07-28 era: what a modern request carries in
//! place of the legacy handshake, and what every modern result carries back.

/// The `_meta` key of the protocol version of a modern request.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of a modern request's client capabilities.
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// The `_meta` key of a modern request's client identity.
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// The `_meta` key of a modern request's log level.
pub const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
/// The result `_meta` key of the server's identity (2026-07-28).
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// The notification `_meta` key of a subscription's id (2026-07-28).
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";
