//! The typed listings and results the client returns (`ResourceDefinition`,
//! `ResourceTemplateDefinition`, `ReadResourceResult`, `PromptDefinition`,
//! `GetPromptResult`, `Implementation`, `ServerCapabilities`), checked against
//! the official schema of every version: a value with every field the type
//! has, cut to what that version defines, reads into the type and writes back
//! unchanged (later fields kept in `extra`), and is valid for the version.

use super::*;
use codeagent_core::mcp::{
    GetPromptResult, Implementation, PromptDefinition, ReadResourceResult, ResourceDefinition,
    ResourceTemplateDefinition, ServerCapabilities,
};
use serde::de::DeserializeOwned;

/// `value` without the keys the reports of `undefined_keys` name
/// (`$.a[0].b: not defined by …`).
fn without(mut value: Value, reports: &[String]) -> Value {
    for report in reports {
        let path = report.split(':').next().unwrap_or_default();
        let steps: Vec<&str> = path.trim_start_matches("$.").split('.').collect();
        remove_at(&mut value, &steps);
    }
    value
}

fn remove_at(value: &mut Value, steps: &[&str]) {
    let Some((first, rest)) = steps.split_first() else { return };
    let (key, index) = match first.split_once('[') {
        Some((key, index)) => (key, index.trim_end_matches(']').parse::<usize>().ok()),
        None => (*first, None),
    };
    let Some(object) = value.as_object_mut() else { return };
    if rest.is_empty() && index.is_none() {
        object.remove(key);
        return;
    }
    let Some(child) = object.get_mut(key) else { return };
    let child = match index {
        Some(index) => match child.get_mut(index) {
            Some(item) => item,
            None => return,
        },
        None => child,
    };
    remove_at(child, rest);
}

/// `full` cut to what `version` defines for `definition`, read as `T`,
/// written back, compared and validated.
fn round_trips<T: DeserializeOwned + Serialize>(version: ProtocolVersion, definition: &str, full: &Value) {
    let compiled = schema(version.as_str());
    let cut = without(full.clone(), &undefined_keys(compiled, definition, full));
    let typed: T = serde_json::from_value(cut.clone())
        .unwrap_or_else(|error| panic!("{version} {definition}: {cut} does not read: {error}"));
    let written = serde_json::to_value(&typed).unwrap();
    assert_eq!(written, cut, "{version} {definition}: written back differently");
    if let Err(report) = support::check(version.as_str(), definition, &written) {
        panic!("{version} {definition}: not valid:\n{report}");
    }
}

fn icons() -> Value {
    json!([{ "src": "https://example.com/icon.png", "mimeType": "image/png", "sizes": ["48x48"], "theme": "dark" }])
}

/// 2026-07-28's fields of every result.
fn result_fields() -> Value {
    json!({ "resultType": "complete", "ttlMs": 0, "cacheScope": "public" })
}

fn merged(mut value: Value, more: Value) -> Value {
    if let (Some(object), Value::Object(more)) = (value.as_object_mut(), more) {
        object.extend(more);
    }
    value
}

#[test]
fn the_typed_listings_and_results_fit_every_version() {
    let annotations = json!({ "audience": ["user"], "priority": 0.5, "lastModified": "2025-01-12T15:00:58Z" });
    let resource = json!({
        "uri": "file:///notes.md", "name": "notes", "title": "Notes", "description": "My notes",
        "mimeType": "text/markdown", "size": 120, "annotations": annotations, "icons": icons(),
        "_meta": { "example.com/x": 1 }
    });
    let template = json!({
        "uriTemplate": "sales://{region}", "name": "sales", "title": "Sales", "description": "By region",
        "mimeType": "application/json", "annotations": annotations, "icons": icons(), "_meta": { "example.com/x": 1 }
    });
    let read = merged(
        json!({
            "contents": [
                { "uri": "file:///notes.md", "mimeType": "text/markdown", "text": "# Notes", "_meta": { "k": 1 } },
                { "uri": "file:///logo.png", "mimeType": "image/png", "blob": PNG_B64 }
            ],
            "_meta": { "example.com/x": 1 }
        }),
        result_fields(),
    );
    let prompt = json!({
        "name": "review", "title": "Review", "description": "Review code", "icons": icons(),
        "arguments": [{ "name": "code", "title": "Code", "description": "The code", "required": true }],
        "_meta": { "example.com/x": 1 }
    });
    let got = merged(
        json!({
            "description": "A review",
            "messages": [
                { "role": "user", "content": { "type": "text", "text": "Review this" } },
                { "role": "assistant", "content": { "type": "image", "data": PNG_B64, "mimeType": "image/png" } }
            ],
            "_meta": { "example.com/x": 1 }
        }),
        json!({ "resultType": "complete" }),
    );
    let implementation = json!({
        "name": "orders", "version": "1.2.0", "title": "Orders", "description": "Orders of a shop",
        "websiteUrl": "https://example.com", "icons": icons()
    });
    let capabilities = json!({
        "tools": { "listChanged": true }, "resources": { "subscribe": true, "listChanged": true },
        "prompts": { "listChanged": false }, "logging": {}, "completions": {}, "experimental": { "x": {} },
        "extensions": { "io.modelcontextprotocol/tasks": {} }
    });
    for &version in ProtocolVersion::ALL {
        round_trips::<ResourceDefinition>(version, "Resource", &resource);
        round_trips::<ResourceTemplateDefinition>(version, "ResourceTemplate", &template);
        round_trips::<ReadResourceResult>(version, "ReadResourceResult", &read);
        round_trips::<PromptDefinition>(version, "Prompt", &prompt);
        round_trips::<GetPromptResult>(version, "GetPromptResult", &got);
        round_trips::<Implementation>(version, "Implementation", &implementation);
        round_trips::<ServerCapabilities>(version, "ServerCapabilities", &capabilities);
    }
}

#[test]
fn a_field_of_a_later_revision_survives_and_a_malformed_one_is_named() {
    let later = json!({ "uri": "a://b", "name": "b", "freshness": { "ttl": 5 } });
    let resource: ResourceDefinition = serde_json::from_value(later.clone()).unwrap();
    assert_eq!(resource.extra["freshness"], json!({ "ttl": 5 }));
    assert_eq!(serde_json::to_value(&resource).unwrap(), later);

    let error =
        serde_path_to_error::deserialize::<_, ResourceDefinition>(json!({ "uri": 5, "name": "b" })).unwrap_err();
    assert_eq!(error.path().to_string(), "uri");
    let error = serde_path_to_error::deserialize::<_, PromptDefinition>(json!({
        "name": "p", "arguments": [{ "name": "a", "required": "yes" }]
    }))
    .unwrap_err();
    assert_eq!(error.path().to_string(), "arguments[0].required");
}
