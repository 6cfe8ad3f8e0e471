//! Any JSON as an artifact, on its own and where results carry one (a
//! result's `extra.codeagent.artifact`, an event's `artifact`, an MCP
//! result's `_meta`): parsing and the accessors of `ArtifactRef` and
//! `Artifact`, and the adaptation of `ToolResult::adapt` and
//! `ToolResultEvent::adapt`, with the properties they document:
//!
//! - an owned artifact survives `into_value`, serde and parsing again unchanged;
//! - an adapted result always has a valid artifact, a v1 one unless the input
//!   carried a valid future version, which travels unchanged;
//! - adapting twice equals adapting once; the accessors on a result's JSON
//!   agree with the result.
//!
//! The first byte picks where the artifact goes; the rest is the JSON text.
#![no_main]

use codeagent::artifact::{Artifact, ArtifactRef, Versions};
use codeagent::mcp::ARTIFACT_META_KEY;
use codeagent::{Channels, ToolResult, ToolResultEvent};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fn owned(artifact: Option<ArtifactRef<'_>>) -> Option<Value> {
    artifact.map(|artifact| Value::Object(artifact.as_object().clone()))
}

fn check_artifact(value: &Value) {
    for versions in [Versions::V1, Versions::Any, Versions::from([1, 2]), Versions::from(3)] {
        let Some(view) = ArtifactRef::parse(value, &versions) else { continue };
        assert!(versions.accepts(view.version()));
        let _ = (view.kind(), view.kind_name(), view.status(), view.is_error(), view.icon(), view.title());
        let _ = view.payload_str("text");
        assert_eq!(view.kind().as_str(), view.kind_name());
        let artifact = view.to_artifact();
        assert_eq!(Artifact::from_value(value, &versions).as_ref(), Some(&artifact));
        let wire = artifact.clone().into_value();
        assert_eq!(serde_json::to_value(&artifact).ok().as_ref(), Some(&wire), "serde and into_value differ");
        let again = Artifact::from_value(&wire, &Versions::Any);
        assert_eq!(again.as_ref(), Some(&artifact), "an artifact changed on its way through JSON: {wire}");
        let back: Artifact = serde_json::from_value(wire).unwrap_or_else(|error| panic!("{error}"));
        assert_eq!(back, artifact);
    }
    if ArtifactRef::parse(value, &Versions::Any).is_none() {
        assert!(serde_json::from_value::<Artifact>(value.clone()).is_err());
    }
}

fuzz_target!(|input: &[u8]| {
    let Some((&pick, text)) = input.split_first() else { return };
    let Ok(artifact) = serde_json::from_slice::<Value>(text) else { return };
    check_artifact(&artifact);
    let is_error = pick & 0x10 != 0;
    let raw = match pick % 4 {
        0 => json!({"value": "v", "is_error": is_error, "extra": {"codeagent": {"artifact": artifact}}}),
        1 => json!({"id": "1", "name": "t", "value": "v", "is_error": is_error, "artifact": artifact}),
        2 => {
            json!({"content": [{"type": "text", "text": "v"}], "isError": is_error, "_meta": {ARTIFACT_META_KEY: artifact}})
        }
        _ => artifact.clone(),
    };
    let _ = (raw.value_text(), raw.raw_artifact(), raw.raw_display(), raw.reports_error());
    let _ = (raw.artifact(), raw.artifact_in(&Versions::Any));

    let result = ToolResult::adapt(&raw);
    assert!(result.artifact_in(&Versions::Any).is_some(), "no valid artifact after adapting {raw}");
    // Where the adapters read the artifact: a result's `extra`, an event's `artifact`.
    let original = (pick % 4 < 2).then_some(&artifact).filter(|artifact| !artifact.is_null());
    if original
        .and_then(|artifact| ArtifactRef::parse(artifact, &Versions::Any))
        .is_some_and(|view| view.version() != 1)
    {
        assert!(result.artifact().is_none());
        assert_eq!(result.raw_artifact(), original, "a future version did not travel unchanged");
    } else if pick % 4 < 2 {
        assert!(result.artifact().is_some(), "no v1 artifact after adapting {raw}");
    }
    if result.is_error()
        && let Some(artifact) = result.artifact()
    {
        assert!(artifact.is_error(), "an error result with a {} artifact", artifact.status().as_str());
    }

    let wire = serde_json::to_value(&result).unwrap_or_else(|error| panic!("{error}"));
    let twice = ToolResult::adapt(&wire);
    assert_eq!(serde_json::to_value(&twice).ok().as_ref(), Some(&wire), "adapting twice changed {raw}");
    assert_eq!(wire.value_text(), Some(result.value()));
    assert_eq!(wire.reports_error(), result.is_error());
    assert_eq!(owned(wire.artifact_in(&Versions::Any)), owned(result.artifact_in(&Versions::Any)));
    assert_eq!(wire.raw_display(), Channels::raw_display(&result));

    let event = ToolResultEvent::adapt(&raw);
    assert!(event.artifact_in(&Versions::Any).is_some(), "no valid artifact in the event of {raw}");
    let event_wire = serde_json::to_value(&event).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(ToolResultEvent::adapt(&event_wire), event, "adapting an event twice changed it");
    let from_result = result.clone().into_event("c", "n");
    assert_eq!(owned(from_result.artifact_in(&Versions::Any)), owned(result.artifact_in(&Versions::Any)));
    let _ = result.display();
    let _ = result.into_call_result();
});
