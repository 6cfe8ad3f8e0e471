//! `ToolResult::adapt`, the table.

use super::*;

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
