//! A `tools/call` the engine refuses or ends itself (the tool is unknown,
//! its arguments are not an object, it needs a client capability the client
//! lacks, its questions cannot be asked, it timed out) is a JSON-RPC error,
//! as the protocol says; its `data` carries, under `_meta`, the same error
//! artifact a tool returning `ToolError` with that message has, so a host
//! shows every failed call the same way. The one exception is where the
//! official schema closes `data`: 2026-07-28's
//! `MissingRequiredClientCapabilityError` (-32021) holds only
//! `requiredCapabilities`.

use serde_json::{Map, Value};

use crate::IntoToolResult;
use crate::mcp::ARTIFACT_META_KEY;
use crate::output::ToolError;
use crate::server::jsonrpc::RpcError;

/// `error` with the error artifact of its message in `data._meta`, next to
/// whatever `data` held (which stays as it was when it is not an object).
pub(super) fn with_error_artifact(mut error: RpcError) -> RpcError {
    let result = ToolError::new(error.message.clone()).into_tool_result();
    let Some(artifact) = result.artifact() else { return error };
    let Ok(artifact) = serde_json::to_value(artifact.to_artifact()) else { return error };
    let mut data = match error.data.take() {
        None => Map::new(),
        Some(Value::Object(data)) => data,
        Some(other) => {
            error.data = Some(other);
            return error;
        }
    };
    let meta = data.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(meta) = meta {
        meta.insert(ARTIFACT_META_KEY.into(), artifact);
    }
    error.data = Some(Value::Object(data));
    error
}
