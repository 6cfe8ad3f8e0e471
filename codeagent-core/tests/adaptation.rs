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

// ---------------------------------------------------------------------------
// ToolResult::adapt, the table
// ---------------------------------------------------------------------------

adapt_cases! {
    // --- valid v1 artifacts are kept -------------------------------------
    valid_v1_is_kept_exactly: carrying(text_v1()) => Expect {
        value: Some("portable"), is_error: Some(false), version: Some(1), artifact: Some(text_v1()),
        rejected: Some(vec![]), display: Some(Value::Null), ..Expect::default()
    };

    // --- versions -----------------------------------------------------------
    version_zero_is_malformed: carrying(with(text_v1(), "version", json!(0))) => Expect {
        value: Some("portable"), version: Some(1), artifact: Some(value_backed("portable")),
        rejected: Some(vec!["artifact"]), preserved: vec![("/extra/codeagent/rejected/artifact/version", json!(0))],
        ..Expect::default()
    };
    version_negative_is_malformed: carrying(with(text_v1(), "version", json!(-1))) => Expect {
        version: Some(1), artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]),
        preserved: vec![("/extra/codeagent/rejected/artifact/version", json!(-1))], ..Expect::default()
    };
    version_fraction_is_malformed_not_future: carrying(with(text_v1(), "version", json!(1.5))) => Expect {
        version: Some(1), artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]),
        ..Expect::default()
    };
    version_string_is_malformed: carrying(with(text_v1(), "version", json!("1"))) => Expect {
        version: Some(1), artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]),
        ..Expect::default()
    };
    version_string_two_is_not_taken_for_a_future_version: carrying(with(text_v1(), "version", json!("2"))) => Expect {
        version: Some(1), v1: Some(true), kind: Some("text"), rejected: Some(vec!["artifact"]),
        ..Expect::default()
    };
    version_huge_fraction_is_malformed: carrying(with(text_v1(), "version", json!(2.000001))) => Expect {
        version: Some(1), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    version_null_is_malformed: carrying(with(text_v1(), "version", Value::Null)) => Expect {
        version: Some(1), artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]),
        ..Expect::default()
    };
    version_whole_float_is_accepted_as_future: carrying(with(text_v1(), "version", json!(2.0))) => Expect {
        version: Some(2), v1: Some(false), artifact: Some(with(text_v1(), "version", json!(2.0))),
        rejected: Some(vec![]), ..Expect::default()
    };
    future_version_travels_unchanged: carrying(
        json!({"schema": SCHEMA, "version": 2, "kind": "chart", "status": "streaming", "icon": "bar",
               "title": "Future", "payload": {"series": [1, 2]}, "layers": [{"z": 1}]})
    ) => Expect {
        version: Some(2), v1: Some(false), kind: Some("chart"), status: Some("streaming"),
        artifact: Some(json!({"schema": SCHEMA, "version": 2, "kind": "chart", "status": "streaming", "icon": "bar",
               "title": "Future", "payload": {"series": [1, 2]}, "layers": [{"z": 1}]})),
        rejected: Some(vec![]), ..Expect::default()
    };
    future_version_is_not_rewritten_on_error: json!({"value": "v", "is_error": true,
        "extra": {"codeagent": {"artifact": with(image_v1(), "version", json!(7))}}}) => Expect {
        is_error: Some(true), version: Some(7), v1: Some(false), artifact: Some(with(image_v1(), "version", json!(7))),
        ..Expect::default()
    };

    // --- outer shape --------------------------------------------------------
    missing_schema_with_version_is_malformed: carrying(without(text_v1(), "schema")) => Expect {
        version: Some(1), artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]),
        ..Expect::default()
    };
    wrong_schema_is_malformed: carrying(with(text_v1(), "schema", json!("someone-else.artifact"))) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    schema_not_a_string_is_malformed: carrying(with(text_v1(), "schema", json!(["codeagent.tool-artifact"]))) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    payload_not_an_object_is_malformed: carrying(with(text_v1(), "payload", json!(["hello"]))) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    payload_missing_is_malformed: carrying(without(text_v1(), "payload")) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    kind_not_a_string_is_malformed: carrying(with(text_v1(), "kind", json!(5))) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    empty_kind_is_malformed: carrying(with(text_v1(), "kind", json!(""))) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    status_missing_is_malformed: carrying(without(text_v1(), "status")) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    empty_status_is_malformed: carrying(with(text_v1(), "status", json!(""))) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    icon_a_number_is_malformed: carrying(with(text_v1(), "icon", json!(3))) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]),
        preserved: vec![("/extra/codeagent/rejected/artifact/icon", json!(3))], ..Expect::default()
    };
    title_an_object_is_malformed: carrying(with(text_v1(), "title", json!({"en": "x"}))) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    artifact_not_an_object_is_malformed: carrying(json!("codeagent.tool-artifact")) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]),
        preserved: vec![("/extra/codeagent/rejected/artifact", json!("codeagent.tool-artifact"))], ..Expect::default()
    };
    malformed_artifact_on_an_error_result_becomes_an_error_artifact: json!({"value": "it broke", "is_error": true,
        "extra": {"codeagent": {"artifact": {"schema": SCHEMA, "version": "x"}}}}) => Expect {
        is_error: Some(true), artifact: Some(value_backed_error("it broke")), rejected: Some(vec!["artifact"]),
        ..Expect::default()
    };
    unknown_kind_v1_is_kept: carrying(v1("chart", "success", Value::Null, json!({"series": [], "extra_field": 1}))) => Expect {
        version: Some(1), kind: Some("chart"),
        artifact: Some(v1("chart", "success", Value::Null, json!({"series": [], "extra_field": 1}))),
        rejected: Some(vec![]), ..Expect::default()
    };

    // --- legacy artifacts ---------------------------------------------------
    legacy_unversioned_is_upgraded: carrying(json!({"kind": "table", "title": "Legacy", "payload": {"df": {"columns": [], "rows": []}}})) => Expect {
        version: Some(1), kind: Some("table"), status: Some("success"), title: Some(Some("Legacy")),
        artifact: Some(v1("table", "success", json!("Legacy"), json!({"df": {"columns": [], "rows": []}}))),
        rejected: Some(vec![]), ..Expect::default()
    };
    legacy_with_the_right_schema_is_upgraded: carrying(json!({"schema": SCHEMA, "kind": "code", "status": "success", "icon": "file", "payload": {"text": "x"}})) => Expect {
        artifact: Some(json!({"schema": SCHEMA, "version": 1, "kind": "code", "status": "success", "icon": "file", "title": null, "payload": {"text": "x"}})),
        rejected: Some(vec![]), ..Expect::default()
    };
    legacy_without_payload_gets_an_empty_one: carrying(json!({"kind": "text"})) => Expect {
        artifact: Some(v1("text", "success", Value::Null, json!({}))), rejected: Some(vec![]), ..Expect::default()
    };
    legacy_with_wrong_schema_is_rejected: carrying(json!({"schema": "acme.card", "kind": "table", "payload": {}})) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    legacy_with_payload_not_an_object_is_rejected: carrying(json!({"kind": "table", "payload": "rows"})) => Expect {
        artifact: Some(value_backed("portable")), rejected: Some(vec!["artifact"]), ..Expect::default()
    };
    legacy_error_kind_gets_error_status: carrying(json!({"kind": "error", "status": "success", "payload": {"message": "m"}})) => Expect {
        kind: Some("error"), status: Some("error"), rejected: Some(vec![]), ..Expect::default()
    };
    legacy_on_an_error_result_gets_error_status: json!({"value": "v", "is_error": true,
        "extra": {"codeagent": {"artifact": {"kind": "diff", "payload": {"old": "a", "new": "b"}}}}}) => Expect {
        is_error: Some(true), kind: Some("diff"), status: Some("error"), ..Expect::default()
    };

    // --- error status -------------------------------------------------------
    error_kind_with_success_status_becomes_error: carrying(v1("error", "success", Value::Null, json!({"message": "m", "detail": null}))) => Expect {
        kind: Some("error"), status: Some("error"),
        artifact: Some(v1("error", "error", Value::Null, json!({"message": "m", "detail": null}))),
        rejected: Some(vec![]), ..Expect::default()
    };
    is_error_with_image_kind_keeps_the_image: json!({"value": "plot failed half way", "is_error": true,
        "extra": {"codeagent": {"artifact": image_v1()}}}) => Expect {
        value: Some("plot failed half way"), is_error: Some(true), kind: Some("image"), status: Some("error"),
        artifact: Some(with(image_v1(), "status", json!("error"))), ..Expect::default()
    };
    mcp_is_error_with_diff_kind_keeps_the_diff: json!({"value": "v", "isError": true,
        "extra": {"codeagent": {"artifact": diff_v1()}}}) => Expect {
        is_error: Some(true), kind: Some("diff"), status: Some("error"),
        preserved: vec![("/isError", json!(true)), ("/extra/codeagent/artifact/payload/path", json!("f.txt"))],
        ..Expect::default()
    };
    top_level_error_metadata_forces_error_status: json!({"value": "v", "is_error": false,
        "error": {"provider": "acme", "message": "rate limited"},
        "extra": {"codeagent": {"artifact": image_v1()}}}) => Expect {
        is_error: Some(true), kind: Some("image"), status: Some("error"),
        preserved: vec![("/error", json!({"provider": "acme", "message": "rate limited"}))], ..Expect::default()
    };
    top_level_error_string_without_artifact_gives_an_error_artifact: json!({"value": "timeout", "error": "timeout"}) => Expect {
        is_error: Some(true), artifact: Some(value_backed_error("timeout")),
        preserved: vec![("/error", json!("timeout"))], ..Expect::default()
    };
    null_or_false_error_metadata_is_not_an_error: json!({"value": "ok", "error": null, "extra": {"codeagent": {"artifact": text_v1()}}}) => Expect {
        is_error: Some(false), status: Some("success"), preserved: vec![("/error", Value::Null)], ..Expect::default()
    };
    false_error_metadata_is_not_an_error: json!({"value": "ok", "error": false}) => Expect {
        is_error: Some(false), artifact: Some(value_backed("ok")), ..Expect::default()
    };

    // --- unrelated metadata survives ----------------------------------------
    unrelated_metadata_survives: json!({
        "value": "3 rows", "is_error": false,
        "request": {"id": "req-7", "name": "summarise", "arguments": {"group": "region"}},
        "provenance": {"source": "cache", "at": "2025-01-01"},
        "provider": {"name": "acme", "usage": {"tokens": 12}},
        "extra": {"codeagent": {"artifact": text_v1(), "trace_id": "t-1"}, "provider": {"raw": [1, 2]}, "source": "s3://x"}
    }) => Expect {
        value: Some("3 rows"), artifact: Some(text_v1()), rejected: Some(vec![]),
        preserved: vec![
            ("/request/id", json!("req-7")),
            ("/request/arguments", json!({"group": "region"})),
            ("/provenance", json!({"source": "cache", "at": "2025-01-01"})),
            ("/provider/usage/tokens", json!(12)),
            ("/extra/codeagent/trace_id", json!("t-1")),
            ("/extra/provider", json!({"raw": [1, 2]})),
            ("/extra/source", json!("s3://x")),
        ],
        ..Expect::default()
    };
    extra_not_an_object_is_kept_as_rejected: json!({"value": "v", "extra": "legacy-string", "request": {"id": "r"}}) => Expect {
        value: Some("v"), artifact: Some(value_backed("v")), rejected: Some(vec!["extra"]),
        preserved: vec![("/extra/codeagent/rejected/extra", json!("legacy-string")), ("/request/id", json!("r"))],
        ..Expect::default()
    };
    codeagent_not_an_object_is_kept_as_rejected: json!({"value": "v", "extra": {"codeagent": [1, 2], "other": true}}) => Expect {
        artifact: Some(value_backed("v")), rejected: Some(vec!["codeagent"]),
        preserved: vec![("/extra/codeagent/rejected/codeagent", json!([1, 2])), ("/extra/other", json!(true))],
        ..Expect::default()
    };

    // --- display --------------------------------------------------------------
    toolcard_is_promoted_on_a_copy: json!({
        "id": "result-1", "value": "summary ready",
        "request": {"id": "call-1", "name": "summarise"},
        "extra": {"display": {"open": true, "toolcard": {"title": "Card", "icon": "table", "markdown": "**3** rows", "size": 9}}}
    }) => Expect {
        value: Some("summary ready"), artifact: Some(value_backed("summary ready")),
        display: Some(json!({"open": true, "title": "Card", "icon": "table", "markdown": "**3** rows"})),
        rejected: Some(vec![]),
        preserved: vec![("/id", json!("result-1")), ("/request/id", json!("call-1"))],
        ..Expect::default()
    };
    toolcard_with_artifact_data_is_upgraded: json!({"value": "script", "extra": {"display": {"toolcard": {"kind": "code", "title": "Script", "payload": {"text": "x <- 1", "lang": "r"}}}}}) => Expect {
        value: Some("script"),
        artifact: Some(v1("code", "success", json!("Script"), json!({"text": "x <- 1", "lang": "r"}))),
        display: Some(json!({"title": "Script"})), ..Expect::default()
    };
    right_output_string_is_promoted_to_text: json!({"value": "v", "request": {"id": "r-2"}, "extra": {"display": {"right_output": "<b>legacy</b>"}}}) => Expect {
        value: Some("v"), artifact: Some(value_backed("v")),
        display: Some(json!({"text": "<b>legacy</b>"})), preserved: vec![("/request/id", json!("r-2"))],
        ..Expect::default()
    };
    right_output_object_is_promoted: json!({"value": "v", "extra": {"display": {"right_output": {"html": "<i>x</i>", "title": "Old"}}}}) => Expect {
        display: Some(json!({"title": "Old", "html": "<i>x</i>"})), ..Expect::default()
    };
    malformed_display_falls_back_to_the_artifact: json!({"value": "v", "extra": {
        "codeagent": {"artifact": with(text_v1(), "icon", json!("wave"))}, "display": {"title": 42, "markdown": "m"}}}) => Expect {
        artifact: Some(with(text_v1(), "icon", json!("wave"))),
        display: Some(json!({"title": "Greeting", "icon": "wave"})), rejected: Some(vec!["display"]),
        preserved: vec![("/extra/codeagent/rejected/display", json!({"title": 42, "markdown": "m"}))],
        ..Expect::default()
    };
    display_not_an_object_falls_back: json!({"value": "v", "extra": {"display": "<script>x</script>"}}) => Expect {
        artifact: Some(value_backed("v")), display: Some(json!({})), rejected: Some(vec!["display"]),
        ..Expect::default()
    };
    display_open_not_a_bool_falls_back: json!({"value": "v", "extra": {"display": {"open": "yes"}}}) => Expect {
        display: Some(json!({})), rejected: Some(vec!["display"]), ..Expect::default()
    };
    valid_display_is_kept_as_is: json!({"value": "v", "extra": {"display": {"title": "T", "markdown": "**m**", "custom": [1]}}}) => Expect {
        display: Some(json!({"title": "T", "markdown": "**m**", "custom": [1]})), rejected: Some(vec![]),
        ..Expect::default()
    };
    null_display_is_dropped: json!({"value": "v", "extra": {"display": null}}) => Expect {
        display: Some(Value::Null), rejected: Some(vec![]), ..Expect::default()
    };

    // --- non-object input and non-string values --------------------------------
    raw_string_input: json!("just text") => Expect {
        value: Some("just text"), is_error: Some(false), artifact: Some(value_backed("just text")), ..Expect::default()
    };
    raw_number_input: json!(42) => Expect {
        value: Some("42"), artifact: Some(value_backed("42")), ..Expect::default()
    };
    raw_null_input: Value::Null => Expect {
        value: Some(""), artifact: Some(value_backed("")), ..Expect::default()
    };
    raw_array_input: json!([1, "a", null]) => Expect {
        value: Some(r#"[1,"a",null]"#), artifact: Some(value_backed(r#"[1,"a",null]"#)), ..Expect::default()
    };
    raw_bool_input: json!(true) => Expect {
        value: Some("true"), is_error: Some(false), ..Expect::default()
    };
    value_an_object_becomes_its_json_text: json!({"value": {"rows": 3, "ok": true}}) => Expect {
        value: Some(r#"{"rows":3,"ok":true}"#), artifact: Some(value_backed(r#"{"rows":3,"ok":true}"#)), ..Expect::default()
    };
    value_a_number_becomes_its_text: json!({"value": 12.5, "is_error": false}) => Expect {
        value: Some("12.5"), ..Expect::default()
    };
    value_missing_is_empty: json!({"is_error": false, "extra": {"codeagent": {"artifact": text_v1()}}}) => Expect {
        value: Some(""), artifact: Some(text_v1()), ..Expect::default()
    };
    empty_object_input: json!({}) => Expect {
        value: Some(""), is_error: Some(false), artifact: Some(value_backed("")), display: Some(Value::Null),
        rejected: Some(vec![]), ..Expect::default()
    };
}

// ---------------------------------------------------------------------------
// ToolResult::adapt, rules checked beyond the table
// ---------------------------------------------------------------------------

#[test]
fn future_version_is_read_with_any_or_an_explicit_set() {
    let future = json!({"schema": SCHEMA, "version": 2, "kind": "chart", "status": "success", "icon": null, "title": null, "payload": {}});
    let result = check(carrying(future.clone()), Expect { version: Some(2), v1: Some(false), ..Expect::default() });
    assert!(result.artifact().is_none());
    assert!(result.artifact_in(&Versions::V1).is_none());
    assert_eq!(result.artifact_in(&Versions::Any).unwrap().version(), 2);
    assert_eq!(result.artifact_in(&Versions::from([1, 2])).unwrap().kind_name(), "chart");
    assert_eq!(result.artifact_in(&Versions::from(2)).unwrap().as_object(), future.as_object().unwrap());
    assert!(result.artifact_in(&Versions::from([1, 3])).is_none());
    // The event carries it unchanged too.
    let event = result.into_event("c", "t");
    assert_eq!(event.artifact.as_ref(), Some(&future));
    assert!(event.artifact().is_none());
    assert_eq!(event.artifact_in(&Versions::from([1, 2])).unwrap().version(), 2);
}

#[test]
fn toolcard_promotion_does_not_touch_value_or_ids_and_trust() {
    let input = json!({
        "id": "result-9", "value": "<b>provider-facing</b>", "is_error": false,
        "request": {"id": "call-9", "name": "t", "arguments": {}},
        "extra": {"display": {"toolcard": {"title": "Card", "html": "<script>alert(1)</script>"}}}
    });
    let before = input.clone();
    let result = ToolResult::adapt(&input);
    assert_eq!(input, before);
    assert_eq!(result.value(), "<b>provider-facing</b>");
    assert_eq!(result.metadata()["id"], "result-9");
    assert_eq!(result.metadata()["request"]["id"], "call-9");
    let display = result.display().expect("a promoted display");
    assert_eq!(display.title(), Some("Card"));
    assert!(display.trusted_html().is_none(), "html promoted from JSON is not trusted");
    let card = codeagent_core::display::render(&result);
    assert!(!card.as_str().contains("<script"), "{card}");
}

/// Seed: "the original is kept under extra.codeagent.rejected so nothing is
/// lost". An input that already carries rejected data from an earlier hop and
/// brings a new malformed artifact must keep both.
#[test]
fn earlier_rejected_data_is_not_overwritten() {
    let input = json!({"value": "v", "extra": {"codeagent": {
        "artifact": {"schema": SCHEMA, "version": "bad-new"},
        "rejected": {"artifact": {"marker": "rejected-by-an-earlier-hop"}}
    }}});
    let wire = serde_json::to_string(&ToolResult::adapt(&input)).unwrap();
    assert!(wire.contains("bad-new"), "the new rejected artifact is kept: {wire}");
    assert!(wire.contains("rejected-by-an-earlier-hop"), "the earlier rejected data is kept: {wire}");
}

/// Design §2: Artifact v1 is "serialised with exactly these keys in this
/// order, all seven always present". A valid v1 artifact that omits `icon` and
/// `title` (the accessor accepts it) should come out of adaptation in that form.
#[test]
fn adapted_v1_artifact_has_all_seven_keys() {
    let sparse = without(without(text_v1(), "icon"), "title");
    assert!(ArtifactRef::parse(&sparse, &Versions::V1).is_some(), "absent icon/title is valid");
    let result = ToolResult::adapt(&carrying(sparse));
    let artifact = serde_json::to_string(&result.extra()["codeagent"]["artifact"]).unwrap();
    assert_eq!(
        artifact,
        r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"text","status":"success","icon":null,"title":null,"payload":{"text":"hello"}}"#
    );
}

/// Same contract: keys in the canonical order and the version as the integer 1,
/// whatever order or number form the producer used.
#[test]
fn adapted_v1_artifact_is_in_canonical_order_and_form() {
    let shuffled = json!({"payload": {"text": "hello"}, "title": "Greeting", "kind": "text", "icon": null,
        "status": "success", "version": 1.0, "schema": SCHEMA, "producer": "x"});
    let result = ToolResult::adapt(&carrying(shuffled));
    let artifact = serde_json::to_string(&result.extra()["codeagent"]["artifact"]).unwrap();
    assert_eq!(
        artifact,
        r#"{"schema":"codeagent.tool-artifact","version":1,"kind":"text","status":"success","icon":null,"title":"Greeting","payload":{"text":"hello"},"producer":"x"}"#
    );
}

/// "Unrelated metadata survives adaptation": keys of a legacy artifact beyond
/// the seven are data a newer consumer may need; the upgrade keeps them after
/// the seven, as `Artifact` itself does for unknown keys.
#[test]
fn legacy_upgrade_keeps_unknown_keys() {
    let legacy = json!({"kind": "table", "payload": {"df": {}}, "source": "session-restore", "rows_total": 1000});
    let result = ToolResult::adapt(&carrying(legacy));
    let artifact = result.artifact().unwrap();
    assert_eq!(artifact.as_object().get("source"), Some(&json!("session-restore")));
    assert_eq!(artifact.as_object().get("rows_total"), Some(&json!(1000)));
}

/// A result read back from its own JSON must offer the same channels through
/// the `Value` accessors as the `ToolResult` did. Adapting event-shaped JSON
/// (top-level `artifact`) as a result breaks that: the top-level artifact is
/// kept as unvalidated metadata and the `Value` accessor, which looks at a
/// top-level `artifact` first, returns it instead of the adapted one.
#[test]
fn adapting_event_shaped_json_as_a_result_keeps_the_channels_consistent() {
    let event = json!({"id": "c1", "name": "plot", "display": null, "value": "a plot", "is_error": false,
        "artifact": with(image_v1(), "version", json!("1"))});
    let result = ToolResult::adapt(&event);
    let wire = serde_json::to_value(&result).unwrap();
    assert_eq!(
        wire.artifact_in(&Versions::Any).map(|a| a.as_object().clone()),
        result.artifact_in(&Versions::Any).map(|a| a.as_object().clone()),
        "Value accessors on the serialised result disagree with the result: {wire}"
    );
    // And a valid event artifact is recognised rather than replaced by a value-backed one.
    let valid = json!({"id": "c1", "name": "plot", "display": null, "value": "a plot", "is_error": false, "artifact": image_v1()});
    assert_eq!(ToolResult::adapt(&valid).artifact().map(|a| a.kind_name()), Some("image"));
}

#[test]
fn every_rule_keeps_a_string_value_byte_for_byte() {
    let value = "  spaces, \"quotes\", <tags>, émoji 🎉, and a trailing newline\n";
    for extra in [
        json!(null),
        json!("x"),
        json!({"codeagent": 5}),
        json!({"codeagent": {"artifact": {"version": 0}}}),
        json!({"display": 1}),
    ] {
        for is_error in [json!(true), json!(false), json!("maybe")] {
            let result = ToolResult::adapt(&json!({"value": value, "is_error": is_error, "extra": extra}));
            assert_eq!(result.value(), value);
        }
    }
}

// ---------------------------------------------------------------------------
// ToolResultEvent::adapt
// ---------------------------------------------------------------------------

fn event_json(artifact: Value) -> Value {
    json!({"id": "call-3", "name": "plot", "display": null, "value": "portable", "is_error": false, "artifact": artifact})
}

/// Adapts an event and checks the rules that hold for every input.
fn adapt_event(input: &Value) -> ToolResultEvent {
    let before = input.clone();
    let event = ToolResultEvent::adapt(input);
    assert_eq!(input, &before, "adapt must not modify its input");
    assert!(event.artifact_in(&Versions::Any).is_some(), "a valid artifact: {input}");
    let wire = serde_json::to_value(&event).unwrap();
    let keys: Vec<&str> = wire.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["id", "name", "display", "value", "is_error", "artifact"]);
    assert_eq!(ToolResultEvent::adapt(&wire), event, "idempotent: {input}");
    event
}

#[test]
fn event_valid_v1_is_kept_with_ids() {
    let input = json!({"id": "call-3", "name": "plot", "display": {"title": "T"}, "value": "portable", "is_error": false, "artifact": image_v1()});
    let event = adapt_event(&input);
    assert_eq!(serde_json::to_value(&event).unwrap(), input);
}

#[test]
fn event_numeric_id_and_missing_name() {
    let event = adapt_event(&json!({"id": 42, "name": 7, "value": "v"}));
    assert_eq!(event.id, "42");
    assert_eq!(event.name, "");
    assert_eq!(event.artifact, Some(value_backed("v")));
    assert_eq!(event.display, None);
}

#[test]
fn event_future_version_travels_unchanged() {
    let future = with(image_v1(), "version", json!(2));
    let event = adapt_event(&event_json(future.clone()));
    assert_eq!(event.artifact.as_ref(), Some(&future));
    assert!(event.artifact().is_none());
    assert_eq!(event.artifact_in(&Versions::Any).unwrap().version(), 2);
    assert_eq!(event.artifact_in(&Versions::from([1, 2])).unwrap().version(), 2);
}

#[test]
fn event_whole_float_version_is_a_future_version() {
    let future = with(image_v1(), "version", json!(2.0));
    let event = adapt_event(&event_json(future.clone()));
    assert_eq!(event.artifact.as_ref(), Some(&future));
    assert_eq!(event.artifact_in(&Versions::Any).unwrap().version(), 2);
}

#[test]
fn event_malformed_versions_are_replaced_by_a_value_backed_v1() {
    for version in [json!(0), json!(-1), json!(1.5), json!("1"), json!(null), json!([1])] {
        let event = adapt_event(&event_json(with(text_v1(), "version", version.clone())));
        assert_eq!(event.artifact, Some(value_backed("portable")), "version {version}");
        assert_eq!(event.value, "portable");
    }
}

#[test]
fn event_legacy_artifact_is_upgraded() {
    let event = adapt_event(&event_json(json!({"kind": "code", "payload": {"text": "x"}})));
    assert_eq!(event.artifact, Some(v1("code", "success", Value::Null, json!({"text": "x"}))));
}

#[test]
fn event_is_error_with_image_keeps_image_and_forces_status() {
    let mut input = event_json(image_v1());
    input["is_error"] = json!(true);
    let event = adapt_event(&input);
    assert!(event.is_error);
    assert_eq!(event.artifact, Some(with(image_v1(), "status", json!("error"))));
}

#[test]
fn event_error_kind_forces_error_status() {
    let event = adapt_event(&event_json(v1("error", "success", Value::Null, json!({"message": "m"}))));
    assert_eq!(event.artifact().unwrap().status().as_str(), "error");
}

/// `ToolResultEvent::adapt` promises "the same rules as ToolResult::adapt",
/// which forces error status for `isError` or a non-null top-level `error`.
#[test]
fn event_top_level_error_metadata_forces_error_status() {
    let mut broken = Vec::new();
    for (key, flag) in [("error", json!("provider timeout")), ("isError", json!(true))] {
        let mut input = event_json(image_v1());
        input[key] = flag;
        let event = ToolResultEvent::adapt(&input);
        let artifact = event.artifact().unwrap();
        assert_eq!(artifact.kind_name(), "image", "the image kind is kept");
        if !event.is_error || artifact.status().as_str() != "error" {
            broken.push(format!("{key}: is_error {}, status {}", event.is_error, artifact.status()));
        }
    }
    assert!(broken.is_empty(), "error metadata ignored by ToolResultEvent::adapt: {broken:?}");
}

#[test]
fn event_toolcard_is_promoted_and_ids_unchanged() {
    let input = json!({"id": "call-3", "name": "plot", "display": {"toolcard": {"title": "Card", "kind": "text", "payload": {"text": "t"}}},
        "value": "portable", "is_error": false});
    let event = adapt_event(&input);
    assert_eq!(event.id, "call-3");
    assert_eq!(event.name, "plot");
    assert_eq!(event.value, "portable");
    assert_eq!(event.display, Some(json!({"title": "Card"})));
    assert_eq!(event.artifact, Some(v1("text", "success", json!("Card"), json!({"text": "t"}))));
}

#[test]
fn event_right_output_is_promoted() {
    let mut input = event_json(text_v1());
    input["display"] = json!({"right_output": "legacy text"});
    let event = adapt_event(&input);
    assert_eq!(event.display, Some(json!({"text": "legacy text"})));
    assert_eq!(event.artifact, Some(text_v1()));
}

#[test]
fn event_malformed_display_falls_back_to_artifact_options() {
    let mut input = event_json(text_v1());
    input["display"] = json!({"title": ["not", "a", "string"]});
    let event = adapt_event(&input);
    assert_eq!(event.display, Some(json!({"title": "Greeting"})));
}

/// Non-object input: the event adapter follows "the same rules as
/// ToolResult::adapt", which keeps a bare string (or a scalar's JSON text) as
/// the portable value rather than dropping it.
#[test]
fn event_non_object_inputs_keep_their_text_like_results_do() {
    for (raw, value) in [(json!("text"), "text"), (json!(3), "3"), (Value::Null, ""), (json!([1]), "[1]")] {
        let event = adapt_event(&raw);
        assert_eq!(event.id, "");
        assert!(!event.is_error);
        assert_eq!(ToolResult::adapt(&raw).value(), value, "{raw}");
        assert_eq!(event.value, value, "{raw}");
    }
}

#[test]
fn event_value_non_string_becomes_json_text() {
    let mut input = event_json(text_v1());
    input["value"] = json!({"n": 1});
    assert_eq!(adapt_event(&input).value, r#"{"n":1}"#);
    input["value"] = json!(false);
    assert_eq!(adapt_event(&input).value, "false");
}

// ---------------------------------------------------------------------------
// Channels on raw serde_json::Value, three shapes
// ---------------------------------------------------------------------------

fn result_shape(artifact: Value) -> Value {
    json!({"value": "3 rows", "is_error": false, "extra": {"codeagent": {"artifact": artifact}, "display": {"title": "D"}}})
}

fn event_shape(artifact: Value) -> Value {
    json!({"id": "c", "name": "n", "display": {"title": "D"}, "value": "3 rows", "is_error": false, "artifact": artifact})
}

fn mcp_shape(artifact: Value) -> Value {
    json!({"content": [{"type": "text", "text": "3 rows"}], "structuredContent": {"rows": 3}, "isError": false,
        "_meta": {ARTIFACT_META_KEY: artifact, "other/key": 1}})
}

type Shape = fn(Value) -> Value;

const SHAPES: [(&str, Shape); 3] = [("result", result_shape), ("event", event_shape), ("mcp", mcp_shape)];

#[test]
fn channels_read_a_valid_v1_artifact_in_every_shape() {
    for (shape, make) in SHAPES {
        let raw = make(image_v1());
        let artifact = raw.artifact().unwrap_or_else(|| panic!("{shape}"));
        assert_eq!(artifact.kind_name(), "image", "{shape}");
        assert_eq!(artifact.title(), Some("Plot"), "{shape}");
        assert_eq!(artifact.payload()["images"][0]["mime"], "image/png", "{shape}");
        assert_eq!(raw.artifact_in(&Versions::Any).unwrap().version(), 1, "{shape}");
        assert!(!raw.reports_error(), "{shape}");
    }
}

#[test]
fn channels_value_and_display_in_result_and_event_shapes() {
    for (shape, make) in &SHAPES[..2] {
        let raw = make(text_v1());
        assert_eq!(raw.value_text(), Some("3 rows"), "{shape}");
        assert_eq!(raw.raw_display(), Some(&json!({"title": "D"})), "{shape}");
    }
}

/// An MCP `CallToolResult` has no `value`: its portable text is the text
/// content block. The `Channels` docs promise the three channels "wherever
/// they come from", MCP included, and the seed's consumer pattern falls back
/// to `tool_result_value()` whenever the artifact is unusable, so an MCP host
/// with a future-version artifact is left with nothing to show.
#[test]
fn channels_value_text_of_an_mcp_result_is_its_text_block() {
    let raw = mcp_shape(with(image_v1(), "version", json!(2)));
    assert!(raw.artifact().is_none());
    assert_eq!(raw.value_text(), Some("3 rows"));
}

#[test]
fn channels_future_version_in_every_shape() {
    for (shape, make) in SHAPES {
        let raw = make(with(image_v1(), "version", json!(2)));
        assert!(raw.artifact().is_none(), "{shape}: a v1 consumer falls back");
        assert_eq!(raw.artifact_in(&Versions::Any).unwrap().version(), 2, "{shape}");
        assert_eq!(raw.artifact_in(&Versions::from([1, 2])).unwrap().version(), 2, "{shape}");
        assert!(raw.artifact_in(&Versions::from([3])).is_none(), "{shape}");
        let float = make(with(image_v1(), "version", json!(2.0)));
        assert_eq!(float.artifact_in(&Versions::Any).unwrap().version(), 2, "{shape}");
    }
}

#[test]
fn channels_malformed_artifacts_read_as_none_in_every_shape() {
    let malformed = [
        with(text_v1(), "version", json!(0)),
        with(text_v1(), "version", json!(-1)),
        with(text_v1(), "version", json!(1.5)),
        with(text_v1(), "version", json!("1")),
        without(text_v1(), "schema"),
        with(text_v1(), "schema", json!("x")),
        with(text_v1(), "payload", json!([])),
        with(text_v1(), "kind", json!(1)),
        with(text_v1(), "kind", json!("")),
        without(text_v1(), "status"),
        with(text_v1(), "icon", json!(1)),
        with(text_v1(), "title", json!(false)),
        json!({"kind": "text", "payload": {}}),
        json!("artifact"),
        json!([text_v1()]),
    ];
    for (shape, make) in SHAPES {
        for artifact in &malformed {
            let raw = make(artifact.clone());
            assert!(raw.artifact().is_none(), "{shape}: {artifact}");
            assert!(raw.artifact_in(&Versions::Any).is_none(), "{shape}: {artifact}");
        }
    }
}

#[test]
fn channels_error_flags_in_every_shape() {
    let mut result = result_shape(text_v1());
    result["is_error"] = json!(true);
    assert!(result.reports_error());
    let mut event = event_shape(text_v1());
    event["is_error"] = json!(true);
    assert!(event.reports_error());
    let mut mcp = mcp_shape(text_v1());
    mcp["isError"] = json!(true);
    assert!(mcp.reports_error());
    let mut stringly = result_shape(text_v1());
    stringly["is_error"] = json!("true");
    assert!(!stringly.reports_error(), "only a JSON true is an error flag");
}

/// The adaptation rules treat a non-null top-level `error` as a tool or
/// provider error; reading the same raw JSON through `Channels` should agree,
/// or the card of a raw result says success where the adapted one says error.
#[test]
fn channels_top_level_error_metadata_reports_an_error() {
    let raw = json!({"value": "v", "error": {"message": "rate limited"}});
    assert!(ToolResult::adapt(&raw).is_error());
    assert_eq!(raw.reports_error(), ToolResult::adapt(&raw).is_error());
}

#[test]
fn channels_on_values_that_are_not_objects() {
    for raw in [json!("text"), json!(1), json!(null), json!([{"value": "x"}]), json!(true)] {
        assert_eq!(raw.value_text(), None, "{raw}");
        assert!(raw.artifact().is_none(), "{raw}");
        assert!(raw.artifact_in(&Versions::Any).is_none(), "{raw}");
        assert!(raw.raw_display().is_none(), "{raw}");
        assert!(!raw.reports_error(), "{raw}");
    }
}

#[test]
fn channels_skip_a_null_channel_to_the_next_place() {
    let raw = json!({"value": "v", "artifact": null, "extra": {"codeagent": {"artifact": text_v1()}}, "display": null});
    assert_eq!(raw.artifact().unwrap().kind_name(), "text");
    let raw = json!({"value": "v", "_meta": {ARTIFACT_META_KEY: null}});
    assert!(raw.artifact().is_none());
}

#[test]
fn channels_agree_between_a_result_its_json_and_its_event() {
    let inputs = [
        carrying(image_v1()),
        carrying(with(image_v1(), "version", json!(2))),
        carrying(with(image_v1(), "version", json!("2"))),
        json!({"value": "v", "is_error": true, "extra": {"codeagent": {"artifact": diff_v1()}, "display": {"title": "T"}}}),
    ];
    for input in inputs {
        let result = ToolResult::adapt(&input);
        let wire = serde_json::to_value(&result).unwrap();
        let event = result.clone().into_event("c", "n");
        let event_wire = serde_json::to_value(&event).unwrap();
        let owned = |artifact: Option<ArtifactRef<'_>>| artifact.map(|a| Value::Object(a.as_object().clone()));
        for versions in [Versions::V1, Versions::Any] {
            let expected = owned(result.artifact_in(&versions));
            assert_eq!(owned(wire.artifact_in(&versions)), expected, "{input}");
            assert_eq!(owned(event.artifact_in(&versions)), expected, "{input}");
            assert_eq!(owned(event_wire.artifact_in(&versions)), expected, "{input}");
        }
        assert_eq!(wire.value_text(), Some(result.value()));
        assert_eq!(event_wire.value_text(), Some(result.value()));
        assert_eq!(wire.reports_error(), result.is_error());
        assert_eq!(event_wire.reports_error(), result.is_error());
        assert_eq!(wire.raw_display(), Channels::raw_display(&result));
        assert_eq!(event_wire.raw_display(), Channels::raw_display(&result));
    }
}

#[test]
fn adapted_results_read_from_json_are_untrusted_objects() {
    // A map as input for the typed accessor, to check it is fully owned.
    let mut extra = Map::new();
    extra.insert("display".into(), json!({"html": "<b>x</b>"}));
    let result = ToolResult::adapt(&json!({"value": "v", "extra": extra}));
    assert!(result.display().unwrap().trusted_html().is_none());
    assert!(!Channels::display_is_trusted(&result));
}
