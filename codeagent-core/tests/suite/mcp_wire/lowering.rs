//! Per-version lowering facts.

use super::*;

// ---------------------------------------------------------------------------
// 3b. Per-version lowering facts
// ---------------------------------------------------------------------------

pub(crate) fn wire_of(block: ContentBlock, version: ProtocolVersion) -> Value {
    CallToolResult::from_content(block).unwrap().to_wire(version, None)
}

#[test]
pub(crate) fn audio_becomes_an_embedded_blob_in_2024_11_05() {
    let block = ContentBlock::audio(WAV_B64, "audio/wav").unwrap().with_annotations(full_annotations());
    let wire = wire_of(block.clone(), V2024);
    assert_eq!(
        wire["content"][0],
        json!({"type": "resource", "resource": {"uri": LOWERED_AUDIO_URI, "mimeType": "audio/wav", "blob": WAV_B64},
               "annotations": {"audience": ["user", "assistant"], "priority": 0.5}})
    );
    for version in [V2025_03, V2025_06, V2025_11, V2026] {
        assert_eq!(wire_of(block.clone(), version)["content"][0]["type"], "audio", "{version}");
        assert_eq!(wire_of(block.clone(), version)["content"][0]["data"], WAV_B64, "{version}");
    }
}

#[test]
pub(crate) fn resource_link_becomes_text_naming_the_uri_before_2025_06_18() {
    let link: ContentBlock = ContentBlock::resource_link("file:///project/src/main.rs", "main.rs")
        .unwrap()
        .with_description("Entry point")
        .into();
    for version in [V2024, V2025_03] {
        let block = &wire_of(link.clone(), version)["content"][0];
        assert_eq!(block["type"], "text", "{version}");
        let text = block["text"].as_str().unwrap();
        assert!(text.contains("file:///project/src/main.rs") && text.contains("main.rs"), "{version}: {text}");
        assert!(text.contains("Entry point"), "{version}: {text}");
    }
    for version in [V2025_06, V2025_11, V2026] {
        let block = &wire_of(link.clone(), version)["content"][0];
        assert_eq!(
            *block,
            json!({"type": "resource_link", "uri": "file:///project/src/main.rs", "name": "main.rs", "description": "Entry point"}),
            "{version}"
        );
    }
}

#[test]
pub(crate) fn structured_content_per_version() {
    let object = CallToolResult::from_structured(&json!({"a": 1})).unwrap();
    let array = CallToolResult::from_structured(&json!([1, 2])).unwrap();
    let scalar = CallToolResult::from_structured(&"text").unwrap();
    let null = CallToolResult::from_structured(&Value::Null).unwrap();
    for version in [V2024, V2025_03] {
        for result in [&object, &array, &scalar, &null] {
            let wire = result.to_wire(version, None);
            assert!(wire.get("structuredContent").is_none(), "{version}: {wire}");
            // The text block still carries the meaning.
            assert_eq!(wire["content"][0]["text"], result.structured_content().unwrap().to_string(), "{version}");
        }
    }
    for version in [V2025_06, V2025_11] {
        assert_eq!(object.to_wire(version, None)["structuredContent"], json!({"a": 1}), "{version}");
        assert_eq!(array.to_wire(version, None)["structuredContent"], json!({"result": [1, 2]}), "{version}");
        assert_eq!(scalar.to_wire(version, None)["structuredContent"], json!({"result": "text"}), "{version}");
        assert_eq!(null.to_wire(version, None)["structuredContent"], json!({"result": null}), "{version}");
        // An object whose tool declares a non-object schema is wrapped like that schema.
        let declared = json!({"anyOf": [{"type": "object"}, {"type": "null"}]});
        assert_eq!(
            object.to_wire(version, Some(&declared))["structuredContent"],
            json!({"result": {"a": 1}}),
            "{version}"
        );
    }
    assert_eq!(object.to_wire(V2026, None)["structuredContent"], json!({"a": 1}));
    assert_eq!(array.to_wire(V2026, None)["structuredContent"], json!([1, 2]));
    assert_eq!(scalar.to_wire(V2026, None)["structuredContent"], json!("text"));
    assert_eq!(null.to_wire(V2026, None).get("structuredContent"), Some(&Value::Null), "explicit null is kept");
    // Absent is not `{}`; an empty map is `{}`.
    let content_only = CallToolResult::from_content(ContentBlock::text("x")).unwrap();
    assert!(content_only.to_wire(V2026, None).get("structuredContent").is_none());
    let empty = CallToolResult::from_structured(&Map::new()).unwrap();
    assert_eq!(empty.to_wire(V2025_06, None)["structuredContent"], json!({}));
    assert_eq!(empty.to_wire(V2026, None)["structuredContent"], json!({}));
    // JSON-looking strings stay strings.
    let looking = CallToolResult::from_structured("{\"a\": 1}").unwrap();
    assert_eq!(looking.to_wire(V2026, None)["structuredContent"], json!("{\"a\": 1}"));
    assert_eq!(looking.to_wire(V2026, None)["content"][0]["text"], json!("\"{\\\"a\\\": 1}\""));
}

#[test]
pub(crate) fn output_schema_per_version() {
    let array = json!({"type": "array", "items": {"type": "string"}});
    let object = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let mut definition = tool("t");
    definition.output_schema = Some(array.clone());
    for version in [V2024, V2025_03] {
        assert_eq!(output_schema_for(&array, version), None);
        assert!(definition.to_wire(version).get("outputSchema").is_none(), "{version}");
    }
    for version in [V2025_06, V2025_11] {
        let wrapped = json!({"type": "object", "properties": {"result": array}, "required": ["result"]});
        assert_eq!(output_schema_for(&array, version), Some(wrapped.clone()), "{version}");
        assert_eq!(definition.to_wire(version)["outputSchema"], wrapped, "{version}");
        assert_eq!(output_schema_for(&object, version), Some(object.clone()), "{version}");
    }
    assert_eq!(definition.to_wire(V2026)["outputSchema"], array);
    assert_eq!(output_schema_for(&object, V2026), Some(object));
    // `$defs` and `$schema` are hoisted so references still resolve.
    let with_defs = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "array",
        "items": {"$ref": "#/$defs/Row"}, "$defs": {"Row": {"type": "string"}}});
    let wrapped = output_schema_for(&with_defs, V2025_06).unwrap();
    assert_eq!(wrapped["$defs"], json!({"Row": {"type": "string"}}));
    assert_eq!(wrapped["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(wrapped["properties"]["result"], json!({"type": "array", "items": {"$ref": "#/$defs/Row"}}));
    let validator = support::jsonschema::validator_for(&wrapped).unwrap();
    assert!(validator.is_valid(&json!({"result": ["a"]})));
    assert!(!validator.is_valid(&json!({"result": [1]})));
}

#[test]
pub(crate) fn boolean_output_schemas_are_listed_as_object_schemas() {
    // `true`/`false` are valid JSON Schemas, but every version's Tool.outputSchema must be an object.
    let mut failures = Vec::new();
    for root in [json!(true), json!(false)] {
        let mut definition = tool("t");
        definition.output_schema = Some(root.clone());
        for &version in ProtocolVersion::ALL {
            if let Err(report) = support::check(version.as_str(), "Tool", &definition.to_wire(version)) {
                failures.push(format!("output schema {root}: {report}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
pub(crate) fn output_schema_property_schemas_are_objects_for_legacy_versions() {
    // A `serde_json::Value` field has the schema `true`; 2025-06-18 and
    // 2025-11-25 require every root property schema of outputSchema to be an
    // object, as they do for inputSchema (where `true` already becomes `{}`).
    let mut definition = tool("t");
    definition.output_schema = <Json<Tagged> as IntoToolResult>::output_schema();
    assert_eq!(definition.output_schema.as_ref().unwrap()["properties"]["tags"], json!(true));
    let mut failures = Vec::new();
    for &version in ProtocolVersion::ALL {
        if let Err(report) = support::check(version.as_str(), "Tool", &definition.to_wire(version)) {
            failures.push(report);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
pub(crate) fn wrapped_output_schemas_keep_self_references() {
    // A recursive type's root schema refers to itself with `"$ref": "#"`;
    // once wrapped as `properties.result`, "#" must still mean the type.
    let declared = <Json<Tree> as IntoToolResult>::output_schema().unwrap();
    assert!(declared.to_string().contains(r##""$ref":"#""##), "{declared}");
    let value = Tree::Node(vec![Tree::Leaf(1), Tree::Node(vec![Tree::Leaf(2)])]);
    let wire = Json(value).into_tool_result().into_call_result();
    for version in [V2025_06, V2025_11, V2026] {
        let listed = output_schema_for(&declared, version).unwrap();
        let structured = wire.to_wire(version, Some(&declared))["structuredContent"].clone();
        let validator = support::jsonschema::validator_for(&listed).unwrap();
        let errors: Vec<String> = validator.iter_errors(&structured).map(|error| error.to_string()).collect();
        assert!(errors.is_empty(), "{version}: {errors:?}\nstructuredContent {structured}\noutputSchema {listed}");
    }
}

#[test]
pub(crate) fn result_type_only_in_2026_07_28() {
    let result = CallToolResult::from_content(ContentBlock::text("x")).unwrap();
    for &version in ProtocolVersion::ALL {
        let wire = result.to_wire(version, None);
        assert_eq!(wire.get("resultType").is_some(), version == V2026, "{version}");
    }
    assert_eq!(result.to_wire(V2026, None)["resultType"], "complete");
}

#[test]
pub(crate) fn icons_only_from_2025_11_25() {
    let link: ContentBlock = ContentBlock::resource_link("file:///a", "a").unwrap().with_icons([icon()]).into();
    let mut definition = tool("t");
    definition.icons = Some(vec![icon()]);
    for &version in ProtocolVersion::ALL {
        let expected = version >= V2025_11;
        let block = &wire_of(link.clone(), version)["content"][0];
        assert_eq!(block.get("icons").is_some(), expected, "{version}: {block}");
        assert_eq!(definition.to_wire(version).get("icons").is_some(), expected, "{version}");
    }
    assert_eq!(
        definition.to_wire(V2026)["icons"],
        json!([{"src": "https://example.com/rust.png", "mimeType": "image/png", "sizes": ["48x48", "96x96"], "theme": "dark"}])
    );
}

#[test]
pub(crate) fn block_meta_and_last_modified_only_from_2025_06_18() {
    for (name, block) in base_blocks() {
        let block = block.with_meta("example.com/k", json!(1)).with_annotations(full_annotations());
        for &version in ProtocolVersion::ALL {
            let wire = &wire_of(block.clone(), version)["content"][0];
            let modern = version >= V2025_06;
            assert_eq!(wire.get("_meta").is_some(), modern, "{name} {version}: {wire}");
            assert_eq!(wire["annotations"].get("lastModified").is_some(), modern, "{name} {version}: {wire}");
            assert_eq!(wire["annotations"]["priority"], 0.5, "{name} {version}");
        }
    }
}

#[test]
pub(crate) fn tool_title_per_version() {
    let titled = tool("add").with_title("Adder");
    assert!(titled.to_wire(V2024).get("title").is_none());
    assert!(titled.to_wire(V2024).get("annotations").is_none());
    assert_eq!(titled.to_wire(V2025_03)["annotations"], json!({"title": "Adder"}));
    assert!(titled.to_wire(V2025_03).get("title").is_none());
    for version in [V2025_06, V2025_11, V2026] {
        assert_eq!(titled.to_wire(version)["title"], "Adder", "{version}");
        assert!(titled.to_wire(version).get("annotations").is_none(), "{version}");
    }
    // An explicit annotations title wins in 2025-03-26.
    let mut both = titled.clone();
    both.annotations = Some(ToolAnnotations::new().with_title("Hinted"));
    assert_eq!(both.to_wire(V2025_03)["annotations"]["title"], "Hinted");
    // Boolean property schemas become object schemas where the schema requires them.
    let mut boolean = tool("b");
    boolean.input_schema = json!({"type": "object", "properties": {"any": true, "none": false}});
    for version in [V2024, V2025_03, V2025_06, V2025_11] {
        assert_eq!(
            boolean.to_wire(version)["inputSchema"]["properties"],
            json!({"any": {}, "none": {"not": {}}}),
            "{version}"
        );
    }
    assert_eq!(boolean.to_wire(V2026)["inputSchema"], boolean.input_schema);
}

#[test]
pub(crate) fn typed_outputs_lower_per_design() {
    // Table -> readable text + its df in the artifact (structuredContent only when asked for).
    let wire = Table::from_rows(&sales()).unwrap().into_tool_result().into_call_result().to_wire(V2026, None);
    assert!(wire.get("structuredContent").is_none());
    assert_eq!(
        wire["_meta"][ARTIFACT_META_KEY]["payload"]["df"]["columns"][0],
        json!({"name": "region", "type": "string"})
    );
    assert!(wire["content"][0]["text"].as_str().unwrap().contains("| north | 10 | 0.25 |"));
    assert_eq!(wire["_meta"][ARTIFACT_META_KEY]["kind"], "table");
    // Image -> image blocks + text; the artifact refers to the block by index.
    let wire =
        Image::from_bytes(png(), "image/png").unwrap().into_tool_result().into_call_result().to_wire(V2026, None);
    assert_eq!(wire["content"][0], json!({"type": "image", "data": PNG_B64, "mimeType": "image/png"}));
    assert_eq!(wire["content"][1]["type"], "text");
    assert_eq!(wire["_meta"][ARTIFACT_META_KEY]["payload"]["images"][0], json!({"mime": "image/png", "content": 0}));
    // Diff -> unified diff text.
    let wire =
        Diff::new("a\nb\n", "a\nc\n").with_path("n.txt").into_tool_result().into_call_result().to_wire(V2026, None);
    assert_eq!(wire["content"][0]["text"], "--- a/n.txt\n+++ b/n.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
    // Error -> isError.
    let wire = ToolError::new("nope").into_tool_result().into_call_result().to_wire(V2026, None);
    assert_eq!(wire["isError"], true);
    assert_eq!(wire["content"], json!([{"type": "text", "text": "nope"}]));
    // Json<T> -> structuredContent + compact JSON text.
    let wire = Json(json!({"ok": true}))
        .into_tool_result()
        .into_call_result()
        .to_wire(V2025_06, Some(&json!({"type": "object"})));
    assert_eq!(wire["structuredContent"], json!({"ok": true}));
    assert_eq!(wire["content"], json!([{"type": "text", "text": "{\"ok\":true}"}]));
    // Plain values -> one text block, no structured content.
    for wire in [
        42_i64.into_tool_result().into_call_result().to_wire(V2026, None),
        json!({"a": 1}).into_tool_result().into_call_result().to_wire(V2026, None),
    ] {
        assert_eq!(wire["content"].as_array().unwrap().len(), 1);
        assert!(wire.get("structuredContent").is_none(), "{wire}");
    }
}

#[test]
pub(crate) fn a_text_holding_json_other_than_an_object_is_structured_content_where_that_must_be_an_object() {
    // Gemini CLI takes the first text as the structured content when there is
    // none and refuses anything but an object: `5` for `add` never reached its model.
    for (value, json) in [
        ("5", json!(5)),
        ("-0.25", json!(-0.25)),
        ("true", json!(true)),
        ("null", Value::Null),
        ("[1, 2]", json!([1, 2])),
        ("\"north\"", json!("north")),
    ] {
        let result = Text::new(value).into_tool_result().into_call_result();
        for version in [V2025_06, V2025_11] {
            let wire = result.to_wire(version, None);
            assert_eq!(wire["structuredContent"], json!({"result": json}), "{version} {value}");
            assert_eq!(wire["content"], json!([{"type": "text", "text": value}]), "{version}: the text is unchanged");
        }
        // Older versions have no structured content; 2026-07-28's may be any value, and is not needed.
        for version in [V2024, V2025_03, V2026] {
            assert!(result.to_wire(version, None).get("structuredContent").is_none(), "{version} {value}");
        }
    }
    // Text that is not JSON, or is an object, is left alone, and so is a tool with an output schema.
    for value in ["Hello, x!", "5 apples", "{\"a\": 1}", ""] {
        let wire = Text::new(value).into_tool_result().into_call_result().to_wire(V2025_11, None);
        assert!(wire.get("structuredContent").is_none(), "{value}");
    }
    let schema = json!({"type": "object"});
    let wire = Text::new("5").into_tool_result().into_call_result().to_wire(V2025_11, Some(&schema));
    assert!(wire.get("structuredContent").is_none());
    // A plain number returned by a tool is such a text.
    let wire = 5_i64.into_tool_result().into_call_result().to_wire(V2025_11, None);
    assert_eq!(wire["structuredContent"], json!({"result": 5}));
}
