//! Every `_meta` key codeagent reads or writes, in one place: codeagent's own
//! (`dev.codeagent/...`), the MCP Apps keys of a tool definition, the
//! progress token of a request, and the keys of the 2026-07-28 era (what a
//! modern request carries in place of the legacy handshake, and what every
//! modern result carries back). The library names them by these constants
//! only; tests spell them out, since they check the wire.

/// The `_meta` key under which a result's artifact rides in an MCP
/// `CallToolResult` (codeagent's own key; written by
/// [`ToolResult::into_call_result`](crate::ToolResult::into_call_result) for
/// every result, a tool error and an error the engine makes for a call alike;
/// read by [`ToolResult::from_mcp`](crate::ToolResult::from_mcp), by
/// [`access`](crate::access), by the result budget, and by the MCP Apps view's
/// renderer, `ui/assets/renderer.js`, which spells it out).
///
/// Image bytes are not repeated there: each entry of `payload.images` carries
/// `"content": i`, the index of its image block in the result's `content`, in
/// place of `b64`. Nor is structured content: a table's payload carries
/// `"structuredContent": "df"` in place of its `df`, which is the result's
/// `structuredContent`, and the code artifact of [`Json`](crate::Json) carries
/// `"structuredContent": "text"` in place of its `text`, which is that
/// content pretty-printed (see [`FROM_STRUCTURED_KEY`](super::FROM_STRUCTURED_KEY)).
/// [`ToolResult::from_mcp`](crate::ToolResult::from_mcp) puts both back.
pub const ARTIFACT_META_KEY: &str = "dev.codeagent/artifact";

/// The `_meta` key of a tool definition that links it to its MCP Apps view
/// (the MCP Apps extension, `io.modelcontextprotocol/ui`): its value is an
/// object holding [`UI_RESOURCE_URI_KEY`]. Written by the server into each
/// `tools/list` entry of a tool with a view; read by hosts.
pub const UI_META_KEY: &str = "ui";
/// The key, in the [`UI_META_KEY`] object, of the `ui://` URI of the view
/// (MCP Apps).
pub const UI_RESOURCE_URI_KEY: &str = "resourceUri";

/// The request `_meta` key of a progress token (MCP, every version): read by
/// the tool's [`Context`](crate::toolbox::Context) from the `tools/call`
/// request, and sent back under the same name as a parameter of each
/// `notifications/progress`.
pub const PROGRESS_TOKEN_KEY: &str = "progressToken";

/// The `_meta` key of the protocol version of a modern request.
pub const PROTOCOL_VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";
/// The `_meta` key of a modern request's client capabilities.
pub const CLIENT_CAPABILITIES_KEY: &str = "io.modelcontextprotocol/clientCapabilities";
/// The `_meta` key of a request's W3C trace context (SEP-414).
pub const TRACEPARENT_KEY: &str = "traceparent";
/// The `_meta` key of a request's W3C trace state (SEP-414).
pub const TRACESTATE_KEY: &str = "tracestate";
/// The `_meta` key of a modern request's client identity.
pub const CLIENT_INFO_KEY: &str = "io.modelcontextprotocol/clientInfo";
/// The `_meta` key of a modern request's log level.
pub const LOG_LEVEL_KEY: &str = "io.modelcontextprotocol/logLevel";
/// The result `_meta` key of the server's identity (2026-07-28).
pub const SERVER_INFO_KEY: &str = "io.modelcontextprotocol/serverInfo";
/// The notification `_meta` key of a subscription's id (2026-07-28).
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";

/// The tasks extension's identifier (SEP-2663), in `capabilities.extensions`.
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

#[cfg(test)]
mod tests {
    /// The MCP Apps view's renderer, JavaScript, spells the artifact key out:
    /// it must be this one.
    #[test]
    fn the_view_reads_the_artifact_under_the_same_key() {
        let renderer = include_str!("../ui/assets/renderer.js");
        assert!(renderer.contains(&format!("var META_KEY = \"{}\";", super::ARTIFACT_META_KEY)));
    }
}
