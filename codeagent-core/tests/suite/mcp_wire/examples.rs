//! The official 2026-07-28 examples, and round trips.

use super::*;

// ---------------------------------------------------------------------------
// 4. Official examples
// ---------------------------------------------------------------------------

pub(crate) fn examples_dir() -> PathBuf {
    codeagent_test_support::examples_dir("2026-07-28")
}

pub(crate) fn example_files(dir: &str) -> Vec<(String, Value)> {
    let path = examples_dir().join(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (format!("{dir}/{}", path.file_name().unwrap().to_string_lossy()), serde_json::from_str(&text).unwrap())
        })
        .collect()
}

/// The block types the 2026-07-28 `ContentBlock` union references.
pub(crate) fn content_block_types() -> Vec<String> {
    let union = schema(V2026.as_str()).definition("ContentBlock").unwrap();
    union["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|branch| branch["$ref"].as_str().unwrap().rsplit('/').next().unwrap().to_owned())
        .collect()
}

pub(crate) fn roundtrip_example(dir: &str, file: &str, original: &Value) -> Result<(), String> {
    let reserialised = match dir {
        "TextContent" | "ImageContent" | "AudioContent" | "ResourceLink" | "EmbeddedResource" => {
            let block: ContentBlock = serde_json::from_value(original.clone()).map_err(|error| error.to_string())?;
            let data = serde_json::to_value(&block).unwrap();
            if data != *original {
                return Err(format!("serde_json::to_value gives {data}"));
            }
            block.into_wire(V2026)
        }
        "TextResourceContents" | "BlobResourceContents" => {
            let contents: ResourceContents =
                serde_json::from_value(original.clone()).map_err(|error| error.to_string())?;
            let kind_ok = matches!(
                (&contents, dir),
                (ResourceContents::Text { .. }, "TextResourceContents")
                    | (ResourceContents::Blob { .. }, "BlobResourceContents")
            );
            if !kind_ok {
                return Err(format!("parsed as the wrong variant: {contents:?}"));
            }
            serde_json::to_value(&contents).unwrap()
        }
        "CallToolResult" => {
            let result: CallToolResult = serde_json::from_value(original.clone()).map_err(|error| error.to_string())?;
            result.to_wire(V2026, None)
        }
        "Tool" => {
            let tool: ToolDefinition = serde_json::from_value(original.clone()).map_err(|error| error.to_string())?;
            tool.to_wire(V2026)
        }
        "ListToolsResult" => {
            let tools: Vec<ToolDefinition> =
                serde_json::from_value(original["tools"].clone()).map_err(|error| error.to_string())?;
            let mut rebuilt = original.as_object().unwrap().clone();
            rebuilt.insert("tools".into(), tools.iter().map(|tool| tool.to_wire(V2026)).collect());
            Value::Object(rebuilt)
        }
        other => panic!("no handler for {other}/{file}"),
    };
    if reserialised == *original {
        Ok(())
    } else {
        Err(format!("re-serialised differently:\n  file: {original}\n  ours: {reserialised}"))
    }
}

#[test]
pub(crate) fn official_examples_parse_and_reserialise_identically() {
    let required = [
        "TextContent",
        "ImageContent",
        "AudioContent",
        "ResourceLink",
        "EmbeddedResource",
        "TextResourceContents",
        "BlobResourceContents",
        "CallToolResult",
        "Tool",
        "ListToolsResult",
    ];
    let mut dirs: Vec<String> = required.iter().map(|dir| (*dir).to_owned()).collect();
    // Any other folder of a ContentBlock member is included too.
    for block_type in content_block_types() {
        if !dirs.contains(&block_type) && examples_dir().join(&block_type).is_dir() {
            dirs.push(block_type);
        }
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for dir in &dirs {
        let files = example_files(dir);
        assert!(!files.is_empty(), "no examples in {dir}");
        for (file, original) in files {
            // The example is valid for its own definition (a check of the checkers too).
            if let Err(report) = support::check(V2026.as_str(), dir, &original) {
                failures.push(format!("{file}: official example fails our validator: {report}"));
            }
            match roundtrip_example(dir, &file, &original) {
                Ok(()) => checked += 1,
                Err(problem) => failures.push(format!("{file}: {problem}")),
            }
        }
    }
    // The JSON-RPC envelopes carry the same results.
    for (dir, inner) in [("CallToolResultResponse", "CallToolResult"), ("ListToolsResultResponse", "ListToolsResult")] {
        for (file, envelope) in example_files(dir) {
            match roundtrip_example(inner, &file, &envelope["result"]) {
                Ok(()) => checked += 1,
                Err(problem) => failures.push(format!("{file}: {problem}")),
            }
        }
    }
    println!("{checked} official examples round-tripped");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(checked >= 20, "{checked}");
}

#[test]
pub(crate) fn official_examples_lower_validly_to_every_version() {
    // Parsed examples, sent to every older version, are valid for it.
    let mut pairs = 0;
    let mut failures = Vec::new();
    for dir in ["TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource"] {
        for (file, original) in example_files(dir) {
            let block: ContentBlock = serde_json::from_value(original).unwrap();
            for &version in ProtocolVersion::ALL {
                if let Err(report) =
                    support::check(version.as_str(), "CallToolResult", &wire_of(block.clone(), version))
                {
                    failures.push(format!("{file}: {report}"));
                }
                pairs += 1;
            }
        }
    }
    for (file, original) in example_files("CallToolResult") {
        let result: CallToolResult = serde_json::from_value(original).unwrap();
        for &version in ProtocolVersion::ALL {
            if let Err(report) = support::check(version.as_str(), "CallToolResult", &result.to_wire(version, None)) {
                failures.push(format!("{file}: {report}"));
            }
            pairs += 1;
        }
    }
    for (file, original) in example_files("Tool") {
        let tool: ToolDefinition = serde_json::from_value(original).unwrap();
        for &version in ProtocolVersion::ALL {
            if let Err(report) = support::check(version.as_str(), "Tool", &tool.to_wire(version)) {
                failures.push(format!("{file}: {report}"));
            }
            pairs += 1;
        }
    }
    println!("{pairs} (example, version) pairs");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
pub(crate) fn sampling_only_content_is_not_a_tool_result_block() {
    // ToolUseContent and ToolResultContent are sampling content, not ContentBlock members.
    let members = content_block_types();
    for dir in ["ToolUseContent", "ToolResultContent"] {
        assert!(!members.contains(&dir.to_owned()));
        for (file, original) in example_files(dir) {
            assert!(schema(V2026.as_str()).validate("ContentBlock", &original).is_err(), "{file}");
            assert!(serde_json::from_value::<ContentBlock>(original).is_err(), "{file}");
        }
    }
}

// ---------------------------------------------------------------------------
// 5. Round trips
// ---------------------------------------------------------------------------

pub(crate) fn raw_artifact(result: &ToolResult) -> Option<&Value> {
    result.extra().get("codeagent")?.get("artifact")
}

#[test]
pub(crate) fn typed_outputs_round_trip_through_mcp() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for typed in typed_outputs() {
        let original = typed.result;
        assert!(original.artifact().is_some(), "{}: has a valid artifact", typed.name);
        for &version in ProtocolVersion::ALL {
            let wire = original.clone().into_call_result().to_wire(version, typed.output_schema.as_ref());
            let back = ToolResult::from_mcp(&wire);
            let label = format!("{} / {version}", typed.name);
            if back.value() != original.value() {
                failures.push(format!("{label}: value {:?} != {:?}", back.value(), original.value()));
            }
            if back.is_error() != original.is_error() {
                failures.push(format!("{label}: is_error {} != {}", back.is_error(), original.is_error()));
            }
            let (before, after) = (raw_artifact(&original), raw_artifact(&back));
            if before != after {
                failures.push(format!(
                    "{label}: artifact\n  before {}\n  after  {}",
                    before.map_or_else(String::new, Value::to_string),
                    after.map_or_else(String::new, Value::to_string)
                ));
            } else if serde_json::to_string(&before).unwrap() != serde_json::to_string(&after).unwrap() {
                failures.push(format!("{label}: artifact keys reordered: {}", after.unwrap()));
            }
            checked += 1;
        }
    }
    println!("{checked} (typed output, version) round trips");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
pub(crate) fn image_bytes_are_restored_from_content_references() {
    let result = Image::from_bytes(png(), "image/png")
        .unwrap()
        .and(Image::from_bytes(GIF, "image/gif").unwrap())
        .into_tool_result();
    let wire = result.clone().into_call_result().to_wire(V2026, None);
    let images = &wire["_meta"][ARTIFACT_META_KEY]["payload"]["images"];
    assert_eq!(*images, json!([{"mime": "image/png", "content": 0}, {"mime": "image/gif", "content": 1}]));
    assert!(!wire["_meta"].to_string().contains(PNG_B64), "bytes are not repeated in _meta");
    let back = ToolResult::from_mcp(&wire);
    let payload = back.artifact().unwrap().payload().clone();
    assert_eq!(payload["images"][0], json!({"mime": "image/png", "b64": PNG_B64}));
    assert_eq!(payload["images"][1], json!({"mime": "image/gif", "b64": STANDARD.encode(GIF)}));
}

#[test]
pub(crate) fn foreign_mcp_results_get_a_synthesised_artifact() {
    // Text.
    let text = ToolResult::from_mcp(&json!({"content": [{"type": "text", "text": "72°F"}], "isError": false}));
    assert_eq!(text.value(), "72°F");
    assert!(!text.is_error());
    let artifact = text.artifact().expect("a valid v1 artifact");
    assert_eq!((artifact.kind_name(), artifact.status().as_str()), ("text", "success"));
    assert_eq!(artifact.payload()["text"], "72°F");

    // Image, with and without text.
    let image =
        ToolResult::from_mcp(&json!({"content": [{"type": "image", "data": PNG_B64, "mimeType": "image/png"}]}));
    let artifact = image.artifact().expect("a valid v1 artifact");
    assert_eq!(artifact.kind_name(), "image");
    assert_eq!(artifact.payload()["images"], json!([{"mime": "image/png", "b64": PNG_B64}]));
    assert_eq!(artifact.payload()["output"], Value::Null);
    assert_eq!(image.value(), "[image: image/png]");
    let captioned = ToolResult::from_mcp(&json!({"content": [
        {"type": "image", "data": PNG_B64, "mimeType": "image/png"}, {"type": "text", "text": "a pixel"}]}));
    assert_eq!(captioned.artifact().unwrap().payload()["output"], "a pixel");
    assert_eq!(captioned.value(), "a pixel");

    // Error.
    let error = ToolResult::from_mcp(
        &json!({"resultType": "complete", "content": [{"type": "text", "text": "boom"}], "isError": true}),
    );
    assert!(error.is_error());
    let artifact = error.artifact().expect("a valid v1 artifact");
    assert_eq!((artifact.kind_name(), artifact.status().as_str()), ("error", "error"));
    assert_eq!(artifact.payload()["message"], "boom");

    // An image from a failing tool keeps its kind but reports an error status.
    let failed_image = ToolResult::from_mcp(
        &json!({"content": [{"type": "image", "data": PNG_B64, "mimeType": "image/png"}], "isError": true}),
    );
    assert!(failed_image.is_error());
    assert_eq!(failed_image.artifact().unwrap().status().as_str(), "error");

    // Structured content and foreign `_meta` are kept; no artifact key in `_meta`.
    let structured = ToolResult::from_mcp(&json!({"content": [{"type": "text", "text": "{}"}],
        "structuredContent": {"a": 1}, "_meta": {"example.com/x": 1}}));
    assert_eq!(structured.extra()["mcp"]["structuredContent"], json!({"a": 1}));
    assert_eq!(structured.extra()["mcp"]["_meta"], json!({"example.com/x": 1}));

    // Blocks without text are described.
    let link =
        ToolResult::from_mcp(&json!({"content": [{"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt"}]}));
    assert_eq!(link.value(), "[resource link: a.txt <file:///a.txt>]");
    assert_eq!(link.artifact().unwrap().kind_name(), "text");
}

#[test]
pub(crate) fn foreign_results_lower_back_to_their_own_content() {
    let foreign = json!({"content": [
        {"type": "resource_link", "uri": "file:///a.txt", "name": "a.txt", "annotations": {"priority": 0.2}},
        {"type": "text", "text": "see the file"}],
        "structuredContent": {"n": 1}, "isError": false, "_meta": {"example.com/x": 1}});
    let back = ToolResult::from_mcp(&foreign).into_call_result().to_wire(V2026, None);
    assert_eq!(back["content"], foreign["content"]);
    assert_eq!(back["structuredContent"], foreign["structuredContent"]);
    assert_eq!(back["_meta"]["example.com/x"], 1);
    // The synthesised text artifact only repeats the text: it is not sent.
    assert!(back["_meta"].get(ARTIFACT_META_KEY).is_none());
    support::assert_valid(V2026.as_str(), "CallToolResult", &back);
}

/// The first place where two values differ, as `path: left != right` (values shortened).
pub(crate) fn first_difference(left: &Value, right: &Value, path: &str) -> Option<String> {
    let short = |value: &Value| {
        let text = value.to_string();
        if text.chars().count() > 120 { format!("{}...", text.chars().take(120).collect::<String>()) } else { text }
    };
    match (left, right) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, value) in a {
                let child = format!("{path}.{key}");
                match b.get(key) {
                    Some(other) => {
                        if let Some(found) = first_difference(value, other, &child) {
                            return Some(found);
                        }
                    }
                    None => return Some(format!("{child}: {} != (absent)", short(value))),
                }
            }
            b.keys()
                .find(|key| !a.contains_key(*key))
                .map(|key| format!("{path}.{key}: (absent) != {}", short(&b[key])))
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            a.iter().zip(b).enumerate().find_map(|(index, (x, y))| first_difference(x, y, &format!("{path}[{index}]")))
        }
        _ if left == right => None,
        _ => Some(format!("{path}: {} != {}", short(left), short(right))),
    }
}

/// The `outputSchema` a client of `version` saw for a tool, if any.
pub(crate) fn listed_schema(declared: Option<&Value>, version: ProtocolVersion) -> Option<Value> {
    declared.and_then(|schema| output_schema_for(schema, version))
}

#[test]
pub(crate) fn relaying_a_result_reproduces_the_same_wire() {
    // A host that reads a result with `from_mcp` and serves it again (a proxy,
    // a gateway, a recorded session) sends what it received.
    let mut failures = Vec::new();
    for typed in typed_outputs() {
        for &version in ProtocolVersion::ALL {
            let listed = listed_schema(typed.output_schema.as_ref(), version);
            let first = typed.result.clone().into_call_result().to_wire(version, typed.output_schema.as_ref());
            let relayed = ToolResult::from_mcp(&first).into_call_result().to_wire(version, listed.as_ref());
            if let Some(difference) = first_difference(&first, &relayed, "$") {
                failures.push(format!("{} / {version}: {difference}", typed.name));
            }
        }
    }
    assert!(failures.is_empty(), "{} relays differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
pub(crate) fn explicit_results_round_trip_as_native_content() {
    let result =
        CallToolResult::from_content([ContentBlock::text("a"), ContentBlock::audio(WAV_B64, "audio/wav").unwrap()])
            .unwrap()
            .with_structured(&json!([1, 2]))
            .unwrap()
            .with_meta("example.com/k", json!("v"));
    let back = result.clone().into_tool_result().into_call_result();
    assert_eq!(back.content(), result.content());
    assert_eq!(back.structured_content(), result.structured_content());
    assert_eq!(back.meta().unwrap()["example.com/k"], "v");
    // CallToolResult's own serde is the 2026 wire shape minus resultType, and parses back.
    let parsed: CallToolResult = serde_json::from_value(result.to_wire(V2026, None)).unwrap();
    assert_eq!(parsed, result);
}
