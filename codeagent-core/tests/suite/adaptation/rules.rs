//! `ToolResult::adapt`, rules checked beyond the table.

use super::*;

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
