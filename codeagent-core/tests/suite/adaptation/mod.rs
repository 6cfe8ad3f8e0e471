//! Adaptation of untrusted or legacy results (seed 000, "Version negotiation"
//! and "Trust boundary and failure behavior"; the rules as implemented are in
//! the docs of `codeagent_core::ToolResult::adapt`).
//!
//! The `adapt_cases!` table runs one test per row: an input JSON and the
//! properties expected of `ToolResult::adapt`. Every row also checks the rules
//! that hold for all inputs: the input is not modified, the output has a valid
//! artifact, and adapting the output again changes nothing.
//!
//! Further sections: `ToolResultEvent::adapt`, and the `Channels` accessors on
//! raw `serde_json::Value` in the three wire shapes (result, event, MCP
//! `CallToolResult`).

use codeagent_core::artifact::{ArtifactRef, Versions};
use codeagent_core::mcp::ARTIFACT_META_KEY;
use codeagent_core::{Channels, ToolResult, ToolResultEvent};
use serde_json::{Map, Value, json};

// ---------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------

const SCHEMA: &str = "codeagent.tool-artifact";

/// A valid v1 artifact.
fn v1(kind: &str, status: &str, title: Value, payload: Value) -> Value {
    json!({"schema": SCHEMA, "version": 1, "kind": kind, "status": status, "icon": null, "title": title, "payload": payload})
}

fn text_v1() -> Value {
    v1("text", "success", json!("Greeting"), json!({"text": "hello"}))
}

fn image_v1() -> Value {
    v1(
        "image",
        "success",
        json!("Plot"),
        json!({"images": [{"mime": "image/png", "b64": "iVBORw0KGgo="}], "output": null}),
    )
}

fn diff_v1() -> Value {
    v1("diff", "success", Value::Null, json!({"old": "a\n", "new": "b\n", "path": "f.txt"}))
}

/// `artifact` with `key` set to `value`.
fn with(mut artifact: Value, key: &str, value: Value) -> Value {
    artifact[key] = value;
    artifact
}

/// `artifact` without `key`.
fn without(mut artifact: Value, key: &str) -> Value {
    artifact.as_object_mut().unwrap().remove(key);
    artifact
}

/// A result-shaped input carrying `artifact` and the value `portable`.
fn carrying(artifact: Value) -> Value {
    json!({"value": "portable", "is_error": false, "extra": {"codeagent": {"artifact": artifact}}})
}

/// The v1 artifact adaptation synthesises from the portable value.
fn value_backed(value: &str) -> Value {
    v1("text", "success", Value::Null, json!({"text": value}))
}

fn value_backed_error(value: &str) -> Value {
    v1("error", "error", Value::Null, json!({"message": value, "detail": null}))
}

/// What a row expects. `None` fields are not checked.
#[derive(Default)]
struct Expect {
    value: Option<&'static str>,
    is_error: Option<bool>,
    /// The artifact's version, read with `Versions::Any`.
    version: Option<u64>,
    /// Whether the default (v1) accessor returns the artifact; by default,
    /// exactly when the version is 1.
    v1: Option<bool>,
    kind: Option<&'static str>,
    status: Option<&'static str>,
    title: Option<Option<&'static str>>,
    /// The exact artifact JSON.
    artifact: Option<Value>,
    /// The keys of `extra.codeagent.rejected`; empty means no `rejected` at all.
    rejected: Option<Vec<&'static str>>,
    /// The exact `extra.display`; `Value::Null` means absent.
    display: Option<Value>,
    /// JSON pointers into the serialised result and the value each must hold.
    preserved: Vec<(&'static str, Value)>,
}

/// Adapts `input` and checks `expect` plus the rules that hold for every input.
fn check(input: Value, expect: Expect) -> ToolResult {
    let before = input.clone();
    let result = ToolResult::adapt(&input);
    assert_eq!(input, before, "adapt must not modify its input");
    let wire = serde_json::to_value(&result).unwrap();
    let context = format!("\n input: {input}\noutput: {wire}");

    let any = result.artifact_in(&Versions::Any).unwrap_or_else(|| panic!("no valid artifact{context}"));
    if let Some(value) = expect.value {
        assert_eq!(result.value(), value, "value{context}");
    }
    if let Some(is_error) = expect.is_error {
        assert_eq!(result.is_error(), is_error, "is_error{context}");
    }
    if let Some(version) = expect.version {
        assert_eq!(any.version(), version, "version{context}");
    }
    let v1_expected = expect.v1.unwrap_or(any.version() == 1);
    assert_eq!(result.artifact().is_some(), v1_expected, "v1 accessor{context}");
    if let Some(kind) = expect.kind {
        assert_eq!(any.kind_name(), kind, "kind{context}");
    }
    if let Some(status) = expect.status {
        assert_eq!(any.status().as_str(), status, "status{context}");
    }
    if let Some(title) = expect.title {
        assert_eq!(any.title(), title, "title{context}");
    }
    if let Some(artifact) = &expect.artifact {
        assert_eq!(&wire["extra"]["codeagent"]["artifact"], artifact, "artifact{context}");
    }
    if let Some(keys) = &expect.rejected {
        match wire.pointer("/extra/codeagent/rejected") {
            None => assert!(keys.is_empty(), "expected rejected {keys:?}{context}"),
            Some(rejected) => {
                let actual: Vec<&str> = rejected.as_object().unwrap().keys().map(String::as_str).collect();
                assert_eq!(&actual, keys, "rejected keys{context}");
            }
        }
    }
    if let Some(display) = &expect.display {
        let actual = wire.pointer("/extra/display").cloned().unwrap_or(Value::Null);
        assert_eq!(&actual, display, "display{context}");
    }
    for (pointer, expected) in &expect.preserved {
        assert_eq!(wire.pointer(pointer), Some(expected), "preserved {pointer}{context}");
    }

    // Adapting the output again changes nothing.
    let again = ToolResult::adapt(&wire);
    assert_eq!(serde_json::to_value(&again).unwrap(), wire, "adapt is idempotent{context}");
    result
}

macro_rules! adapt_cases {
    ($($name:ident: $input:expr => $expect:expr;)*) => {$(
        #[test]
        fn $name() {
            check($input, $expect);
        }
    )*};
}

mod channels;
mod events;
mod rules;
mod table;
