//! Any JSON as an MCP `CallToolResult` from some server, read with
//! `ToolResult::from_mcp`: the accessors, the card, then lowering it again
//! (`into_call_result`) and sending it in every protocol version. Also the
//! typed `CallToolResult` deserialised from the same JSON and sent in every
//! version. Nothing panics; the result read has a valid artifact, and what
//! was lowered and read back keeps its error flag (and its artifact, from the
//! versions whose results carry `_meta`).
#![no_main]

use codeagent::ToolResult;
use codeagent::artifact::Versions;
use codeagent::display::render;
use codeagent::mcp::{CallToolResult, ProtocolVersion};
use codeagent_test_support::html::assert_safe_html;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|input: &[u8]| {
    let Ok(raw) = serde_json::from_slice::<Value>(input) else { return };
    let result = ToolResult::from_mcp(&raw);
    let _ = (result.value(), result.is_error(), result.extra(), result.metadata(), result.display());
    let artifact = result.artifact_in(&Versions::Any).unwrap_or_else(|| panic!("no valid artifact from {raw}"));
    let kind = artifact.kind_name().to_owned();
    assert_safe_html(render(&result).as_str());
    assert_safe_html(render(&raw).as_str());

    let lowered = result.clone().into_call_result();
    let _ = (lowered.content(), lowered.structured_content(), lowered.is_error(), lowered.meta());
    for &version in ProtocolVersion::ALL {
        let wire = lowered.to_wire(version, None);
        assert!(wire["content"].is_array(), "no content in {wire}");
        let back = ToolResult::from_mcp(&wire);
        assert_eq!(back.is_error(), result.is_error(), "{version}: the error flag changed: {raw} -> {wire}");
        if version.has_meta() && result.artifact().is_some() {
            let again =
                back.artifact().unwrap_or_else(|| panic!("{version}: the v1 artifact was lost: {raw} -> {wire}"));
            assert_eq!(again.kind_name(), kind, "{version}: the artifact's kind changed: {raw} -> {wire}");
        }
        let _ = lowered.to_wire(version, Some(&serde_json::json!({"type": "object"})));
    }

    if let Ok(typed) = serde_json::from_value::<CallToolResult>(raw) {
        for &version in ProtocolVersion::ALL {
            let wire = typed.to_wire(version, None);
            let _ = ToolResult::from_mcp(&wire);
        }
    }
});
