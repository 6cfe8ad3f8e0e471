//! `ToolResultEvent::adapt`.

use super::*;

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
