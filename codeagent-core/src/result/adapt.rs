//! The adaptation rules behind [`ToolResult::adapt`](super::ToolResult::adapt),
//! as functions over the parts of a result.

use serde_json::{Map, Value};

use crate::artifact::{ARTIFACT_SCHEMA, ArtifactRef, Status, Versions};
use crate::display::Display;

const LEGACY_CARDS: [&str; 2] = ["toolcard", "right_output"];

/// The parts of an adapted result.
pub(super) struct Adapted {
    pub(super) value: String,
    pub(super) is_error: bool,
    pub(super) extra: Map<String, Value>,
    pub(super) metadata: Map<String, Value>,
}

/// Adapts any JSON, a result or a streaming event in shape, into the parts of
/// a well-formed result.
pub(super) fn adapt(raw: &Value) -> Adapted {
    let Some(object) = raw.as_object() else {
        let value = portable_text(Some(raw));
        let mut extra = Map::new();
        adapt_extra(&mut extra, &value, false, Map::new());
        return Adapted { value, is_error: false, extra, metadata: Map::new() };
    };
    let value = portable_text(object.get("value"));
    let is_error = truthy(object.get("is_error"))
        || truthy(object.get("isError"))
        || !matches!(object.get("error"), None | Some(Value::Null | Value::Bool(false)));
    // A streaming event carries the channels at the top level.
    let event_shaped = !object.contains_key("extra");
    let channel_keys: &[&str] =
        if event_shaped { &["value", "is_error", "artifact", "display"] } else { &["value", "is_error", "extra"] };
    let metadata = object
        .iter()
        .filter(|(key, _)| !channel_keys.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let mut rejected = Map::new();
    let mut extra = match object.get("extra") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(extra)) => extra.clone(),
        Some(other) => {
            rejected.insert("extra".into(), other.clone());
            Map::new()
        }
    };
    if event_shaped {
        if let Some(artifact) = object.get("artifact") {
            extra.insert("codeagent".into(), serde_json::json!({ "artifact": artifact }));
        }
        if let Some(display) = object.get("display") {
            extra.insert("display".into(), display.clone());
        }
    }
    adapt_extra(&mut extra, &value, is_error, rejected);
    Adapted { value, is_error, extra, metadata }
}

fn truthy(value: Option<&Value>) -> bool {
    matches!(value, Some(Value::Bool(true)))
}

fn portable_text(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    }
}

/// Rewrites `extra` in place: `codeagent` (with a valid artifact) first, then
/// `display` when there is one, then every other key.
fn adapt_extra(extra: &mut Map<String, Value>, value: &str, is_error: bool, mut rejected: Map<String, Value>) {
    let mut codeagent = match extra.remove("codeagent") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(codeagent)) => codeagent,
        Some(other) => {
            rejected.insert("codeagent".into(), other);
            Map::new()
        }
    };
    let display = extra.remove("display").filter(|display| !display.is_null());
    let card = display.as_ref().and_then(legacy_card);

    let artifact = match codeagent.remove("artifact").filter(|artifact| !artifact.is_null()) {
        Some(candidate) => match adapt_artifact(&candidate, is_error) {
            Some(artifact) => artifact,
            None => {
                rejected.insert("artifact".into(), candidate);
                value_backed(value, is_error)
            }
        },
        None => card
            .as_ref()
            .and_then(|card| legacy_upgrade(card, is_error))
            .unwrap_or_else(|| value_backed(value, is_error)),
    };

    let display = display.map(|display| match (card, Display::from_value(&display)) {
        (Some(card), _) => promote_card(&display, &card),
        (None, Some(_)) => display,
        (None, None) => {
            rejected.insert("display".into(), display);
            from_artifact(&artifact)
        }
    });

    if let Some(Value::Object(earlier)) = codeagent.remove("rejected") {
        rejected = merge_rejected(earlier, rejected);
    }
    let mut namespace = Map::with_capacity(codeagent.len() + 2);
    namespace.insert("artifact".into(), artifact);
    namespace.extend(codeagent);
    if !rejected.is_empty() {
        namespace.insert("rejected".into(), Value::Object(rejected));
    }
    let others = std::mem::take(extra);
    extra.insert("codeagent".into(), Value::Object(namespace));
    if let Some(display) = display {
        extra.insert("display".into(), display);
    }
    extra.extend(others);
}

/// Earlier rejected data, then this adaptation's; a key rejected again gets a
/// numbered suffix (`artifact#2`) so that nothing is overwritten.
fn merge_rejected(mut earlier: Map<String, Value>, newer: Map<String, Value>) -> Map<String, Value> {
    for (key, value) in newer {
        let mut slot = key.clone();
        let mut number = 2;
        while earlier.contains_key(&slot) {
            slot = format!("{key}#{number}");
            number += 1;
        }
        earlier.insert(slot, value);
    }
    earlier
}

/// A valid artifact of any version, a normalised v1, or an upgraded legacy one.
fn adapt_artifact(candidate: &Value, is_error: bool) -> Option<Value> {
    if let Some(view) = ArtifactRef::parse(candidate, &Versions::Any) {
        if view.version() != 1 {
            return Some(candidate.clone());
        }
        let mut artifact = view.to_artifact();
        if is_error || view.kind_name() == "error" {
            artifact = artifact.with_status(Status::Error);
        }
        return Some(artifact.into_value());
    }
    legacy_upgrade(candidate, is_error)
}

/// Upgrades an unversioned legacy artifact: an object with no `version`, no
/// schema or the right one, a non-empty string `kind` and an object `payload`
/// (or none).
fn legacy_upgrade(candidate: &Value, is_error: bool) -> Option<Value> {
    let object = candidate.as_object()?;
    if object.contains_key("version") {
        return None;
    }
    if let Some(schema) = object.get("schema")
        && schema.as_str() != Some(ARTIFACT_SCHEMA)
    {
        return None;
    }
    let kind = object.get("kind")?.as_str().filter(|kind| !kind.is_empty())?;
    let payload = match object.get("payload") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(payload @ Value::Object(_)) => payload.clone(),
        Some(_) => return None,
    };
    let text_or_null = |key: &str| match object.get(key) {
        None | Some(Value::Null) => Some(Value::Null),
        Some(text @ Value::String(_)) => Some(text.clone()),
        Some(_) => None,
    };
    let status = match object.get("status") {
        _ if kind == "error" || is_error => "error",
        None | Some(Value::Null) => "success",
        Some(Value::String(status)) if !status.is_empty() => status,
        Some(_) => return None,
    };
    let mut upgraded = Map::new();
    upgraded.insert("schema".into(), Value::from(ARTIFACT_SCHEMA));
    upgraded.insert("version".into(), Value::from(1));
    upgraded.insert("kind".into(), Value::from(kind));
    upgraded.insert("status".into(), Value::from(status));
    upgraded.insert("icon".into(), text_or_null("icon")?);
    upgraded.insert("title".into(), text_or_null("title")?);
    upgraded.insert("payload".into(), payload);
    for (key, value) in object {
        upgraded.entry(key.clone()).or_insert_with(|| value.clone());
    }
    Some(Value::Object(upgraded))
}

/// The v1 artifact that carries just the portable value.
fn value_backed(value: &str, is_error: bool) -> Value {
    let (kind, status, payload) = if is_error {
        ("error", "error", serde_json::json!({ "message": value, "detail": null }))
    } else {
        ("text", "success", serde_json::json!({ "text": value }))
    };
    serde_json::json!({
        "schema": ARTIFACT_SCHEMA, "version": 1, "kind": kind, "status": status,
        "icon": null, "title": null, "payload": payload,
    })
}

/// The legacy card of a display, as an object: `toolcard`, or `right_output`
/// (a string becomes `{"text": ...}`).
fn legacy_card(display: &Value) -> Option<Value> {
    let object = display.as_object()?;
    LEGACY_CARDS.iter().find_map(|key| match object.get(*key)? {
        card @ Value::Object(_) => Some(card.clone()),
        Value::String(text) => Some(serde_json::json!({ "text": text })),
        _ => None,
    })
}

/// Presentation options promoted from a legacy card, on a copy of the display.
fn promote_card(display: &Value, card: &Value) -> Value {
    let mut promoted: Map<String, Value> = display
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(key, _)| !LEGACY_CARDS.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    for key in ["title", "icon", "html", "markdown", "text"] {
        if let Some(Value::String(text)) = card.get(key) {
            promoted.entry(key).or_insert_with(|| Value::from(text.as_str()));
        }
    }
    let promoted = Value::Object(promoted);
    match Display::from_value(&promoted) {
        Some(_) => promoted,
        None => Display::new().to_value(),
    }
}

/// Presentation options that defer to the artifact's own card.
fn from_artifact(artifact: &Value) -> Value {
    let mut display = Display::new();
    if let Some(view) = ArtifactRef::parse(artifact, &Versions::Any) {
        if let Some(title) = view.title() {
            display = display.with_title(title);
        }
        if let Some(icon) = view.icon() {
            display = display.with_icon(icon);
        }
    }
    display.to_value()
}
