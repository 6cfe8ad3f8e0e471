//! The validator cache and the "every key is defined by that version" checker.

use super::*;

// ---------------------------------------------------------------------------
// 1. The validator cache
// ---------------------------------------------------------------------------

#[test]
pub(crate) fn every_version_schema_compiles_once_with_its_draft() {
    for &version in ProtocolVersion::ALL {
        let compiled = schema(version.as_str());
        assert!(std::ptr::eq(compiled, schema(version.as_str())), "{version}: compiled once and cached");
        let expected_container = if version <= V2025_06 { "definitions" } else { "$defs" };
        assert_eq!(compiled.container, expected_container, "{version}");
        for name in ["CallToolResult", "Tool", "ListToolsResult", "ContentBlock", "TextContent", "EmbeddedResource"] {
            assert!(compiled.has_location(&compiled.location(name)), "{version}: {name}");
        }
        assert_eq!(compiled.definition("ContentBlock").is_some(), version >= V2025_06, "{version}");
        assert_eq!(compiled.definition("AudioContent").is_some(), version >= V2025_03, "{version}");
        assert_eq!(compiled.definition("ResourceLink").is_some(), version >= V2025_06, "{version}");
    }
}

#[test]
pub(crate) fn validator_checks_the_named_definition_and_formats() {
    let text = json!({"type": "text", "text": "hi"});
    for &version in ProtocolVersion::ALL {
        assert!(schema(version.as_str()).validate("TextContent", &text).is_ok(), "{version}");
        assert!(schema(version.as_str()).validate("ContentBlock", &text).is_ok(), "{version}");
        // The definition, not the whole document, is what is checked.
        assert!(
            schema(version.as_str()).validate("TextContent", &json!({"type": "image", "text": "hi"})).is_err(),
            "{version}"
        );
        assert!(schema(version.as_str()).validate("CallToolResult", &json!({"content": "nope"})).is_err(), "{version}");
        // `format: byte` is checked as base64, `format: uri` as a URI.
        let bad_image = json!({"type": "image", "data": "%%%", "mimeType": "image/png"});
        assert!(schema(version.as_str()).validate("ImageContent", &bad_image).is_err(), "{version}");
        let bad_uri = json!({"type": "resource", "resource": {"uri": "not a uri", "text": "x"}});
        assert!(schema(version.as_str()).validate("EmbeddedResource", &bad_uri).is_err(), "{version}");
    }
    // ContentBlock before 2025-06-18 is the inline union of CallToolResult.content.
    let link = json!({"type": "resource_link", "uri": "file:///a", "name": "a"});
    assert!(schema(V2025_03.as_str()).validate("ContentBlock", &link).is_err());
    assert!(schema(V2025_06.as_str()).validate("ContentBlock", &link).is_ok());
    let audio = json!({"type": "audio", "data": WAV_B64, "mimeType": "audio/wav"});
    assert!(schema(V2024.as_str()).validate("ContentBlock", &audio).is_err());
    assert!(schema(V2025_03.as_str()).validate("ContentBlock", &audio).is_ok());
    // resultType is required in 2026-07-28 only.
    let plain = json!({"content": [text]});
    assert!(schema(V2025_11.as_str()).validate("CallToolResult", &plain).is_ok());
    assert!(schema(V2026.as_str()).validate("CallToolResult", &plain).is_err());
}

// ---------------------------------------------------------------------------
// 2. The "every key is defined by that version" checker
// ---------------------------------------------------------------------------

#[test]
pub(crate) fn key_checker_rejects_keys_a_version_does_not_define() {
    // `title` on a tool sent to 2024-11-05: the schema alone accepts it.
    let tool = json!({"name": "add", "title": "Add", "inputSchema": {"type": "object"}});
    assert!(schema(V2024.as_str()).validate("Tool", &tool).is_ok(), "the schema allows unknown keys");
    assert_eq!(undefined_keys(schema(V2024.as_str()), "Tool", &tool), ["$.title: not defined by 2024-11-05"]);
    assert!(undefined_keys(schema(V2025_06.as_str()), "Tool", &tool).is_empty());
    assert!(support::check(V2024.as_str(), "Tool", &tool).unwrap_err().contains("$.title"));

    // `icons` on a resource link sent to 2025-06-18.
    let result = json!({"content": [{"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt",
        "icons": [{"src": "https://example.com/a.png"}]}]});
    assert!(schema(V2025_06.as_str()).validate("CallToolResult", &result).is_ok(), "the schema allows unknown keys");
    assert_eq!(
        undefined_keys(schema(V2025_06.as_str()), "CallToolResult", &result),
        ["$.content[0].icons: not defined by 2025-06-18"]
    );
    assert!(undefined_keys(schema(V2025_11.as_str()), "CallToolResult", &result).is_empty());

    // `lastModified` in annotations (a `$ref` in 2025-03-26, inline in 2024-11-05) is walked.
    let annotated = json!({"content": [{"type": "text", "text": "x",
        "annotations": {"priority": 0.5, "lastModified": "2025-01-12T15:00:58Z"}}]});
    for version in [V2024, V2025_03] {
        assert!(schema(version.as_str()).validate("CallToolResult", &annotated).is_ok());
        assert_eq!(
            undefined_keys(schema(version.as_str()), "CallToolResult", &annotated),
            [format!("$.content[0].annotations.lastModified: not defined by {version}")]
        );
    }
    assert!(undefined_keys(schema(V2025_06.as_str()), "CallToolResult", &annotated).is_empty());

    // `_meta` on a block before 2025-06-18, and `structuredContent` before 2025-06-18.
    let meta_block =
        json!({"content": [{"type": "text", "text": "x", "_meta": {"a": 1}}], "structuredContent": {"a": 1}});
    assert_eq!(
        undefined_keys(schema(V2025_03.as_str()), "CallToolResult", &meta_block),
        ["$.content[0]._meta: not defined by 2025-03-26", "$.structuredContent: not defined by 2025-03-26"]
    );
    assert!(undefined_keys(schema(V2025_06.as_str()), "CallToolResult", &meta_block).is_empty());

    // A block type a version lacks matches no branch of its union.
    let problems = undefined_keys(schema(V2025_03.as_str()), "CallToolResult", &result);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("$.content[0]: matches no branch"), "{problems:?}");

    // Embedded resource contents are chosen by validation (no type tag) and walked.
    let embedded =
        json!({"content": [{"type": "resource", "resource": {"uri": "file:///a", "blob": "AA==", "size": 1}}]});
    assert_eq!(
        undefined_keys(schema(V2026.as_str()), "CallToolResult", &embedded),
        ["$.content[0].resource.size: not defined by 2026-07-28"]
    );

    // Free-form values are not entered: `_meta`, `structuredContent`, JSON Schema bodies.
    let free = json!({"resultType": "complete", "content": [], "_meta": {"x": {"y": 1}}, "structuredContent": {"any": {"thing": 1}}});
    assert!(undefined_keys(schema(V2026.as_str()), "CallToolResult", &free).is_empty());
    let schema_body = json!({"name": "t", "inputSchema": {"type": "object", "$defs": {}, "additionalProperties": false,
        "properties": {"a": {"type": "string", "anything": 1}}}});
    assert!(undefined_keys(schema(V2024.as_str()), "Tool", &schema_body).is_empty());

    // ListToolsResult: walked through `tools` into each Tool and its annotations.
    let list = json!({"tools": [{"name": "a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "bogus": 1}}]});
    assert_eq!(
        undefined_keys(schema(V2025_03.as_str()), "ListToolsResult", &list),
        ["$.tools[0].annotations.bogus: not defined by 2025-03-26"]
    );
    assert_eq!(
        undefined_keys(schema(V2024.as_str()), "ListToolsResult", &list),
        ["$.tools[0].annotations: not defined by 2024-11-05"]
    );
}
