//! The Python `mcp` client's own OAuth against the gallery behind the real
//! issuer (added below, once the gallery takes `--auth-issuer`).
