//! `Channels` on raw `serde_json::Value`, three shapes.

use super::*;

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
