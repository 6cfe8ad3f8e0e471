//! The MCP wire format, checked against the official schemas of every version.
//!
//! - the official `schema.json` of each version is compiled once and values are
//!   validated against a definition inside it (`codeagent_test_support::schema`,
//!   with the schemas vendored in `test-support/mcp/`);
//! - the schemas allow unknown keys, so a second checker requires every key
//!   to be defined by that version (`codeagent_test_support::keys`);
//! - a table of cases (content blocks, typed outputs, explicit results, tool
//!   definitions, tools/list) is serialised for every `ProtocolVersion::ALL`
//!   and each (case, version) pair is validated;
//! - the official 2026-07-28 examples parse into our types and serialise back
//!   to the same JSON;
//! - `ToolResult` -> MCP -> `ToolResult` round trips, and foreign MCP results;
//! - invalid content is refused, naming the field.

use std::collections::BTreeMap;
use std::path::PathBuf;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use codeagent_core::mcp::{
    ARTIFACT_META_KEY, Annotations, CallToolResult, ContentBlock, Icon, LOWERED_AUDIO_URI, ProtocolVersion,
    ResourceContents, Role, Theme, ToolAnnotations, ToolDefinition, output_schema_for,
};
use codeagent_core::{Code, Diff, Image, IntoToolResult, Json, Output, Table, Text, ToolError, ToolResult};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

use codeagent_test_support as support;
use codeagent_test_support::keys::undefined_keys;
use codeagent_test_support::schema::schema;

const V2024: ProtocolVersion = ProtocolVersion::V2024_11_05;
const V2025_03: ProtocolVersion = ProtocolVersion::V2025_03_26;
const V2025_06: ProtocolVersion = ProtocolVersion::V2025_06_18;
const V2025_11: ProtocolVersion = ProtocolVersion::V2025_11_25;
const V2026: ProtocolVersion = ProtocolVersion::V2026_07_28;

/// A 1×1 PNG (from the official examples).
const PNG_B64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/// An empty WAV (from the official examples).
const WAV_B64: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";
/// A 1×1 GIF.
const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;";

fn png() -> Vec<u8> {
    STANDARD.decode(PNG_B64).unwrap()
}

fn wav() -> Vec<u8> {
    STANDARD.decode(WAV_B64).unwrap()
}

// ---------------------------------------------------------------------------
// 1. The validator cache
// ---------------------------------------------------------------------------

#[test]
fn every_version_schema_compiles_once_with_its_draft() {
    for version in ProtocolVersion::ALL {
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
fn validator_checks_the_named_definition_and_formats() {
    let text = json!({"type": "text", "text": "hi"});
    for version in ProtocolVersion::ALL {
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
fn key_checker_rejects_keys_a_version_does_not_define() {
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

// ---------------------------------------------------------------------------
// 3. The matrix
// ---------------------------------------------------------------------------

/// What a case puts on the wire.
enum Wire {
    /// A `tools/call` result, for a tool with this output schema.
    Call { result: CallToolResult, output_schema: Option<Value> },
    /// One `tools/list` entry.
    Tool(ToolDefinition),
    /// A whole `tools/list` result.
    List { tools: Vec<ToolDefinition>, cursor: Option<&'static str> },
}

struct Case {
    group: &'static str,
    name: String,
    wire: Wire,
}

impl Case {
    fn call(group: &'static str, name: impl Into<String>, result: CallToolResult) -> Case {
        Case { group, name: name.into(), wire: Wire::Call { result, output_schema: None } }
    }

    /// The definition to validate against and the value `version` sends.
    fn render(&self, version: ProtocolVersion) -> (&'static str, Value) {
        match &self.wire {
            Wire::Call { result, output_schema } => ("CallToolResult", result.to_wire(version, output_schema.as_ref())),
            Wire::Tool(tool) => ("Tool", tool.to_wire(version)),
            Wire::List { tools, cursor } => ("ListToolsResult", list_tools(tools, *cursor, version)),
        }
    }

    /// Checks beyond the schema: the structured content conforms to the output
    /// schema as that version lists it, and every block validates on its own.
    fn extra_checks(&self, version: ProtocolVersion, wire: &Value) -> Vec<String> {
        let mut problems = Vec::new();
        if let Wire::Call { output_schema, .. } = &self.wire {
            for (index, block) in wire["content"].as_array().into_iter().flatten().enumerate() {
                if let Err(report) = support::check(version.as_str(), "ContentBlock", block) {
                    problems.push(format!("content[{index}]: {report}"));
                }
            }
            let is_error = wire.get("isError") == Some(&Value::Bool(true));
            if let (Some(schema), Some(listed)) =
                (output_schema, output_schema.as_ref().and_then(|schema| output_schema_for(schema, version)))
            {
                match wire.get("structuredContent") {
                    Some(structured) => {
                        let validator = support::jsonschema::validator_for(&listed)
                            .unwrap_or_else(|error| panic!("output schema does not compile: {error}\n{listed}"));
                        let errors: Vec<String> = validator.iter_errors(structured).map(|error| error.to_string()).collect();
                        if !errors.is_empty() {
                            problems.push(format!(
                                "structuredContent does not conform to the outputSchema {version} lists: {errors:?}\n\
                                 structuredContent: {structured}\noutputSchema: {listed}\n(declared: {schema})"
                            ));
                        }
                    }
                    None if !is_error => problems.push(format!(
                        "the tool lists an outputSchema for {version} but the successful result has no structuredContent"
                    )),
                    None => {}
                }
            }
        }
        problems
    }
}

/// A `tools/list` result as `version` sends it.
fn list_tools(tools: &[ToolDefinition], cursor: Option<&str>, version: ProtocolVersion) -> Value {
    let mut map = Map::new();
    if version.has_result_type() {
        map.insert("resultType".into(), json!("complete"));
    }
    map.insert("tools".into(), tools.iter().map(|tool| tool.to_wire(version)).collect());
    if let Some(cursor) = cursor {
        map.insert("nextCursor".into(), json!(cursor));
    }
    if version.has_result_type() {
        map.insert("ttlMs".into(), json!(60_000));
        map.insert("cacheScope".into(), json!("public"));
    }
    Value::Object(map)
}

fn full_annotations() -> Annotations {
    Annotations::new()
        .audience([Role::User, Role::Assistant])
        .priority(0.5)
        .unwrap()
        .last_modified("2025-01-12T15:00:58Z")
        .unwrap()
}

fn icon() -> Icon {
    Icon::new("https://example.com/rust.png").mime_type("image/png").sizes(["48x48", "96x96"]).theme(Theme::Dark)
}

/// Every block type built with the `ContentBlock` constructors.
fn base_blocks() -> Vec<(&'static str, ContentBlock)> {
    vec![
        ("text", ContentBlock::text("Done.")),
        ("image", ContentBlock::image(PNG_B64, "image/png").unwrap()),
        ("image_bytes", ContentBlock::image_bytes(GIF, "image/gif")),
        ("audio", ContentBlock::audio(WAV_B64, "audio/wav").unwrap()),
        ("audio_bytes", ContentBlock::audio_bytes(&wav(), "audio/wav")),
        (
            "resource_link_full",
            ContentBlock::resource_link("file:///project/src/main.rs", "main.rs")
                .unwrap()
                .title("Main")
                .description("Primary application entry point")
                .mime_type("text/x-rust")
                .size(1234)
                .icons([icon(), Icon::new("data:image/png;base64,iVBORw0KGgo=")])
                .into(),
        ),
        (
            "resource_link_minimal",
            ContentBlock::resource_link("https://example.com/report.csv", "report.csv").unwrap().into(),
        ),
        (
            "embedded_text",
            ContentBlock::embedded_text("file:///notes.txt", "hello\nworld", Some("text/plain".into())).unwrap(),
        ),
        ("embedded_text_no_mime", ContentBlock::embedded_text("memo://today", "hi", None).unwrap()),
        ("embedded_blob", ContentBlock::embedded_blob("file:///pixel.png", PNG_B64, Some("image/png".into())).unwrap()),
    ]
}

fn block_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (name, block) in base_blocks() {
        let annotated = block.clone().with_annotations(full_annotations());
        let meta = block.clone().with_meta("example.com/trace", json!({"id": "abc", "n": [1, 2]}));
        let both = annotated.clone().with_meta("example.com/trace", json!("abc"));
        cases.push(Case::call("blocks", name, CallToolResult::from_content(block).unwrap()));
        cases.push(Case::call(
            "blocks",
            format!("{name}+annotations"),
            CallToolResult::from_content(annotated).unwrap(),
        ));
        cases.push(Case::call("blocks", format!("{name}+meta"), CallToolResult::from_content(meta).unwrap()));
        cases.push(Case::call(
            "blocks",
            format!("{name}+annotations+meta"),
            CallToolResult::from_content(both).unwrap(),
        ));
    }
    let only_last_modified = Annotations::new().last_modified("2024-02-29T00:00:00.123+05:30").unwrap();
    cases.push(Case::call(
        "blocks",
        "text+lastModified only",
        CallToolResult::from_content(ContentBlock::text("x").with_annotations(only_last_modified)).unwrap(),
    ));
    let audience_only = Annotations::new().audience([Role::Assistant]);
    cases.push(Case::call(
        "blocks",
        "audio+audience only",
        CallToolResult::from_content(
            ContentBlock::audio(WAV_B64, "audio/wav").unwrap().with_annotations(audience_only),
        )
        .unwrap(),
    ));
    let every_block: Vec<ContentBlock> = base_blocks().into_iter().map(|(_, block)| block).collect();
    cases.push(Case::call("blocks", "every block in one result", CallToolResult::from_content(every_block).unwrap()));
    cases
}

#[derive(Serialize, JsonSchema)]
struct Sale {
    region: &'static str,
    total: u32,
    share: f64,
    note: Option<&'static str>,
}

fn sales() -> Vec<Sale> {
    vec![
        Sale { region: "north", total: 10, share: 0.25, note: None },
        Sale { region: "south|west", total: 7, share: 0.75, note: Some("a\nb") },
    ]
}

/// A structured output with nested types (`$defs` in its schema).
#[derive(Serialize, JsonSchema)]
struct Weather {
    /// Temperature in celsius.
    temperature: f64,
    conditions: String,
    humidity: u8,
    wind: Wind,
}

#[derive(Serialize, JsonSchema)]
struct Wind {
    speed: f32,
    direction: Direction,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Direction {
    North,
    South,
}

fn weather() -> Weather {
    Weather {
        temperature: 22.5,
        conditions: "Partly cloudy".into(),
        humidity: 65,
        wind: Wind { speed: 3.5, direction: Direction::North },
    }
}

/// A structured output with a free-form field, whose schema is `true`.
#[derive(Serialize, JsonSchema)]
struct Tagged {
    id: u32,
    tags: serde_json::Value,
}

/// A recursive type: its root schema refers to itself with `"$ref": "#"`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Tree {
    Leaf(i32),
    Node(Vec<Tree>),
}

#[derive(Serialize, JsonSchema)]
struct Scored {
    name: &'static str,
    score: f64,
}

/// A typed output, lowered into a `ToolResult`, with its type's output schema.
struct Typed {
    name: String,
    result: ToolResult,
    output_schema: Option<Value>,
}

fn typed<T: IntoToolResult>(name: &str, output: T) -> Typed {
    Typed {
        name: name.to_owned(),
        result: output.into_tool_result(),
        output_schema: <T as IntoToolResult>::output_schema(),
    }
}

fn typed_outputs() -> Vec<Typed> {
    let table = || Table::from_rows(&sales()).unwrap();
    let image = || Image::from_bytes(png(), "image/png").unwrap().output("one pixel");
    let code = || Code::new("fn main() {}\n").lang("rust").filename("main.rs").output("ok");
    let diff = || Diff::new("a\nb\n", "a\nc\n").path("notes.txt");
    let error = || ToolError::new("region not found").detail("known: north, south");
    let empty: Vec<Sale> = Vec::new();
    vec![
        typed("Text", Text::new("All good.").title("Status").icon("check")),
        typed("Text empty", Text::new("")),
        typed("Table from rows", table().title("Sales")),
        typed("Table empty", Table::from_rows(&empty).unwrap()),
        typed(
            "Table with json and null columns",
            Table::new()
                .with_column("id", [1, 2])
                .unwrap()
                .with_column("meta", [json!({"a": 1}), Value::Null])
                .unwrap()
                .with_column("none", [Value::Null, Value::Null])
                .unwrap(),
        ),
        typed("Image", image()),
        typed("Image two", image().and(Image::from_bytes(GIF, "image/gif").unwrap())),
        typed("Code", code()),
        typed("Diff", diff()),
        typed("Diff no change", Diff::new("same\n", "same\n")),
        typed("ToolError", error()),
        typed("Json struct", Json(weather())),
        typed(
            "Json Vec (array)",
            Json(vec![weather(), Weather { wind: Wind { speed: 0.0, direction: Direction::South }, ..weather() }]),
        ),
        typed("Json scalar", Json(42_i64)),
        typed("Json string", Json("{\"looks\": \"like json\"}".to_owned())),
        typed("Json Value object", Json(json!({"ok": true}))),
        typed("Json Value array", Json(json!([1, 2]))),
        typed("Json struct with a free-form field", Json(Tagged { id: 1, tags: json!(["a"]) })),
        typed("Json Option Some", Json(Some(weather()))),
        typed("Json Option None", Json(None::<Weather>)),
        typed("Json map", Json(BTreeMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)]))),
        typed("Json string enum", Json(Direction::South)),
        typed("Json unit", Json(())),
        typed("Json recursive enum", Json(Tree::Node(vec![Tree::Leaf(1), Tree::Node(vec![Tree::Leaf(2)])]))),
        typed("Json NaN (error)", Json(vec![Scored { name: "a", score: 1.0 }, Scored { name: "b", score: f64::NAN }])),
        typed("Output::Text", Output::from(Text::new("hi"))),
        typed("Output::Table", Output::from(table())),
        typed("Output::Image", Output::from(image())),
        typed("Output::Code", Output::from(code())),
        typed("Output::Diff", Output::from(diff())),
        typed("Output::Error", Output::from(error())),
        typed("String", "plain string".to_owned()),
        typed("&str", "borrowed"),
        typed("i64", -42_i64),
        typed("f64", 0.1_f64 + 0.2),
        typed("bool", true),
        typed("unit", ()),
        typed("Value object", json!({"a": [1, 2], "b": null})),
        typed("Value string", json!("just text")),
        typed("Result Ok(Table)", Ok::<Table, ToolError>(table())),
        typed("Result Err(ToolError) for Table", Err::<Table, ToolError>(error())),
        typed("Result Ok(Json)", Ok::<Json<Weather>, ToolError>(Json(weather()))),
        typed(
            "Result Err(io::Error) for Json",
            Err::<Json<Weather>, std::io::Error>(std::io::Error::other("disk full")),
        ),
        typed("Result Ok(String)", Ok::<String, ToolError>("fine".into())),
        typed(
            "CallToolResult as IntoToolResult",
            CallToolResult::from_content(ContentBlock::text("native"))
                .unwrap()
                .with_structured(&json!({"n": 1}))
                .unwrap(),
        ),
    ]
}

fn typed_cases() -> Vec<Case> {
    typed_outputs()
        .into_iter()
        .map(|typed| Case {
            group: "typed",
            name: typed.name,
            wire: Wire::Call { result: typed.result.into_call_result(), output_schema: typed.output_schema },
        })
        .collect()
}

#[derive(Serialize)]
struct Nested {
    title: &'static str,
    rows: Vec<BTreeMap<&'static str, i32>>,
}

fn explicit_cases() -> Vec<Case> {
    let text = || ContentBlock::text("Done.");
    let empty_map: Map<String, Value> = Map::new();
    let nested = Nested { title: "t", rows: vec![BTreeMap::from([("a", 1)]), BTreeMap::new()] };
    vec![
        Case::call("explicit", "content only", CallToolResult::from_content(text()).unwrap()),
        Case::call(
            "explicit",
            "content array",
            CallToolResult::from_content([text(), ContentBlock::text("More.")]).unwrap(),
        ),
        Case::call(
            "explicit",
            "structured object",
            CallToolResult::from_structured(&json!({"ok": true, "count": 2})).unwrap(),
        ),
        Case::call("explicit", "structured array", CallToolResult::from_structured(&json!([1, "two", null])).unwrap()),
        Case::call("explicit", "structured scalar", CallToolResult::from_structured(&42).unwrap()),
        Case::call("explicit", "structured null", CallToolResult::from_structured(&Value::Null).unwrap()),
        Case::call("explicit", "structured unit", CallToolResult::from_structured(&()).unwrap()),
        Case::call("explicit", "structured empty map", CallToolResult::from_structured(&empty_map).unwrap()),
        Case::call(
            "explicit",
            "structured JSON-looking string",
            CallToolResult::from_structured("{\"a\": 1}").unwrap(),
        ),
        Case::call("explicit", "structured struct", CallToolResult::from_structured(&nested).unwrap()),
        Case::call(
            "explicit",
            "content + structured",
            CallToolResult::from_content(text()).unwrap().with_structured(&json!({"temperature": 22.5})).unwrap(),
        ),
        Case::call(
            "explicit",
            "content + structured array",
            CallToolResult::from_content(text()).unwrap().with_structured(&[1, 2, 3]).unwrap(),
        ),
        Case::call(
            "explicit",
            "is_error",
            CallToolResult::from_content(ContentBlock::text("boom")).unwrap().with_error(true),
        ),
        Case::call("explicit", "is_error false", CallToolResult::from_content(text()).unwrap().with_error(false)),
        Case::call(
            "explicit",
            "meta",
            CallToolResult::from_content(text()).unwrap().with_meta("example.com/trace", json!({"id": "abc"})),
        ),
        Case::call(
            "explicit",
            "everything",
            CallToolResult::from_content([text(), ContentBlock::image(PNG_B64, "image/png").unwrap()])
                .unwrap()
                .with_structured(&json!({"n": 1}))
                .unwrap()
                .with_error(true)
                .with_meta("example.com/a", json!(1))
                .with_meta("example.com/b", json!([true])),
        ),
        Case {
            group: "explicit",
            name: "structured array with array output schema".into(),
            wire: Wire::Call {
                result: CallToolResult::from_structured(&json!([{"id": "1"}])).unwrap(),
                output_schema: Some(json!({"type": "array", "items": {"type": "object"}})),
            },
        },
    ]
}

fn input_schema() -> Value {
    json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]})
}

fn tool(name: &str) -> ToolDefinition {
    ToolDefinition::new(name, input_schema())
}

fn tool_definitions() -> Vec<(String, ToolDefinition)> {
    let hints = ToolAnnotations {
        title: None,
        read_only_hint: Some(true),
        destructive_hint: Some(false),
        idempotent_hint: Some(true),
        open_world_hint: Some(false),
    };
    let mut everything = tool("everything").with_title("Everything").with_description("All the fields.");
    everything.annotations = Some(ToolAnnotations { title: Some("Hinted title".into()), ..hints.clone() });
    everything.icons = Some(vec![icon(), Icon::new("https://example.com/light.svg").theme(Theme::Light)]);
    everything.meta = Some(Map::from_iter([("example.com/owner".to_owned(), json!("team"))]));
    everything.output_schema =
        Some(json!({"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}));

    let with = |name: &str, edit: &dyn Fn(&mut ToolDefinition)| {
        let mut definition = tool(name);
        edit(&mut definition);
        (name.to_owned(), definition)
    };
    let mut tools = vec![
        with("minimal", &|_| {}),
        with("title", &|tool| tool.title = Some("Adder".into())),
        with("description", &|tool| tool.description = Some("Add two numbers.".into())),
        with("annotations", &|tool| tool.annotations = Some(hints.clone())),
        with("title+annotations", &|tool| {
            tool.title = Some("Adder".into());
            tool.annotations = Some(hints.clone());
        }),
        with("title+annotations.title", &|tool| {
            tool.title = Some("Adder".into());
            tool.annotations = Some(ToolAnnotations { title: Some("Hinted".into()), ..ToolAnnotations::default() });
        }),
        with("empty annotations", &|tool| tool.annotations = Some(ToolAnnotations::default())),
        with("icons", &|tool| tool.icons = Some(vec![icon()])),
        with("empty icons", &|tool| tool.icons = Some(Vec::new())),
        with("meta", &|tool| tool.meta = Some(Map::from_iter([("example.com/x".to_owned(), json!({"y": 1}))]))),
        with("output schema object", &|tool| {
            tool.output_schema = Some(json!({"type": "object", "properties": {"sum": {"type": "number"}}}));
        }),
        with("output schema array", &|tool| {
            tool.output_schema = Some(json!({"type": "array", "items": {"type": "string"}}));
        }),
        with("output schema boolean true", &|tool| tool.output_schema = Some(json!(true))),
        with("output schema boolean false", &|tool| tool.output_schema = Some(json!(false))),
        with("output schema with $defs", &|tool| {
            tool.output_schema = Some(json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "array", "items": {"$ref": "#/$defs/Row"},
                "$defs": {"Row": {"type": "object", "properties": {"id": {"type": "string"}}}}
            }));
        }),
        with("boolean property schemas", &|tool| {
            tool.input_schema =
                json!({"type": "object", "properties": {"anything": true, "nothing": false, "n": {"type": "integer"}}});
        }),
        with("input schema 2020-12 with $defs", &|tool| {
            tool.input_schema = json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "properties": {"group": {"$ref": "#/$defs/Group"}, "top": {"type": ["integer", "null"], "minimum": 0}},
                "required": ["group"],
                "$defs": {"Group": {"type": "string", "enum": ["region", "product"]}}
            });
        }),
        with("no parameters", &|tool| tool.input_schema = json!({"type": "object", "additionalProperties": false})),
        ("everything".to_owned(), everything),
    ];
    // Tools listed with the output schemas our typed outputs declare.
    for typed in typed_outputs() {
        if let Some(schema) = typed.output_schema {
            let mut definition = tool("typed");
            definition.output_schema = Some(schema);
            tools.push((format!("output schema of {}", typed.name), definition));
        }
    }
    tools
}

fn tool_cases() -> Vec<Case> {
    let definitions = tool_definitions();
    let mut cases: Vec<Case> = definitions
        .iter()
        .map(|(name, definition)| Case { group: "tools", name: name.clone(), wire: Wire::Tool(definition.clone()) })
        .collect();
    cases.push(Case {
        group: "tools",
        name: "tools/list of every tool, with a cursor".into(),
        wire: Wire::List {
            tools: definitions.into_iter().map(|(_, definition)| definition).collect(),
            cursor: Some("page-2"),
        },
    });
    cases.push(Case {
        group: "tools",
        name: "tools/list empty".into(),
        wire: Wire::List { tools: Vec::new(), cursor: None },
    });
    cases
}

fn all_cases() -> Vec<Case> {
    let mut cases = block_cases();
    cases.extend(typed_cases());
    cases.extend(explicit_cases());
    cases.extend(tool_cases());
    cases
}

/// Runs the cases for every version; returns (validated pairs, failures).
fn run_matrix(cases: &[Case]) -> (usize, Vec<String>) {
    let mut validated = 0;
    let mut failures = Vec::new();
    for case in cases {
        for version in ProtocolVersion::ALL {
            let (definition, wire) = case.render(version);
            let mut problems: Vec<String> =
                support::check(version.as_str(), definition, &wire).err().into_iter().collect();
            problems.extend(case.extra_checks(version, &wire));
            if problems.is_empty() {
                validated += 1;
            } else {
                failures.push(format!("[{} / {} / {version}]\n{}", case.group, case.name, problems.join("\n")));
            }
        }
    }
    (validated, failures)
}

#[track_caller]
fn assert_matrix(cases: Vec<Case>) {
    let (validated, failures) = run_matrix(&cases);
    println!("{} cases, {validated} validated (case, version) pairs", cases.len());
    assert!(failures.is_empty(), "{} of {} pairs fail:\n\n{}", failures.len(), cases.len() * 5, failures.join("\n\n"));
}

#[test]
fn matrix_content_blocks() {
    assert_matrix(block_cases());
}

#[test]
fn matrix_typed_outputs() {
    assert_matrix(typed_cases());
}

#[test]
fn matrix_explicit_results() {
    assert_matrix(explicit_cases());
}

#[test]
fn matrix_tool_definitions_and_listings() {
    assert_matrix(tool_cases());
}

#[test]
fn matrix_size() {
    let cases = all_cases();
    let (validated, failures) = run_matrix(&cases);
    println!(
        "MCP wire matrix: {} cases x {} versions = {} pairs, {validated} validated, {} failing",
        cases.len(),
        ProtocolVersion::ALL.len(),
        cases.len() * ProtocolVersion::ALL.len(),
        failures.len()
    );
    assert!(cases.len() >= 60, "{} cases", cases.len());
    assert!(validated >= 300, "only {validated} validated pairs");
}

// ---------------------------------------------------------------------------
// 3b. Per-version lowering facts
// ---------------------------------------------------------------------------

fn wire_of(block: ContentBlock, version: ProtocolVersion) -> Value {
    CallToolResult::from_content(block).unwrap().to_wire(version, None)
}

#[test]
fn audio_becomes_an_embedded_blob_in_2024_11_05() {
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
fn resource_link_becomes_text_naming_the_uri_before_2025_06_18() {
    let link: ContentBlock = ContentBlock::resource_link("file:///project/src/main.rs", "main.rs")
        .unwrap()
        .description("Entry point")
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
fn structured_content_per_version() {
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
fn output_schema_per_version() {
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
fn boolean_output_schemas_are_listed_as_object_schemas() {
    // `true`/`false` are valid JSON Schemas, but every version's Tool.outputSchema must be an object.
    let mut failures = Vec::new();
    for root in [json!(true), json!(false)] {
        let mut definition = tool("t");
        definition.output_schema = Some(root.clone());
        for version in ProtocolVersion::ALL {
            if let Err(report) = support::check(version.as_str(), "Tool", &definition.to_wire(version)) {
                failures.push(format!("output schema {root}: {report}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn output_schema_property_schemas_are_objects_for_legacy_versions() {
    // A `serde_json::Value` field has the schema `true`; 2025-06-18 and
    // 2025-11-25 require every root property schema of outputSchema to be an
    // object, as they do for inputSchema (where `true` already becomes `{}`).
    let mut definition = tool("t");
    definition.output_schema = <Json<Tagged> as IntoToolResult>::output_schema();
    assert_eq!(definition.output_schema.as_ref().unwrap()["properties"]["tags"], json!(true));
    let mut failures = Vec::new();
    for version in ProtocolVersion::ALL {
        if let Err(report) = support::check(version.as_str(), "Tool", &definition.to_wire(version)) {
            failures.push(report);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn wrapped_output_schemas_keep_self_references() {
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
fn result_type_only_in_2026_07_28() {
    let result = CallToolResult::from_content(ContentBlock::text("x")).unwrap();
    for version in ProtocolVersion::ALL {
        let wire = result.to_wire(version, None);
        assert_eq!(wire.get("resultType").is_some(), version == V2026, "{version}");
    }
    assert_eq!(result.to_wire(V2026, None)["resultType"], "complete");
}

#[test]
fn icons_only_from_2025_11_25() {
    let link: ContentBlock = ContentBlock::resource_link("file:///a", "a").unwrap().icons([icon()]).into();
    let mut definition = tool("t");
    definition.icons = Some(vec![icon()]);
    for version in ProtocolVersion::ALL {
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
fn block_meta_and_last_modified_only_from_2025_06_18() {
    for (name, block) in base_blocks() {
        let block = block.with_meta("example.com/k", json!(1)).with_annotations(full_annotations());
        for version in ProtocolVersion::ALL {
            let wire = &wire_of(block.clone(), version)["content"][0];
            let modern = version >= V2025_06;
            assert_eq!(wire.get("_meta").is_some(), modern, "{name} {version}: {wire}");
            assert_eq!(wire["annotations"].get("lastModified").is_some(), modern, "{name} {version}: {wire}");
            assert_eq!(wire["annotations"]["priority"], 0.5, "{name} {version}");
        }
    }
}

#[test]
fn tool_title_per_version() {
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
    both.annotations = Some(ToolAnnotations { title: Some("Hinted".into()), ..ToolAnnotations::default() });
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
fn typed_outputs_lower_per_design() {
    // Table -> structuredContent (its df) + readable text.
    let wire = Table::from_rows(&sales()).unwrap().into_tool_result().into_call_result().to_wire(V2026, None);
    assert_eq!(wire["structuredContent"]["columns"][0], json!({"name": "region", "type": "string"}));
    assert!(wire["content"][0]["text"].as_str().unwrap().contains("| north | 10 | 0.25 |"));
    assert_eq!(wire["_meta"][ARTIFACT_META_KEY]["kind"], "table");
    // Image -> image blocks + text; the artifact refers to the block by index.
    let wire =
        Image::from_bytes(png(), "image/png").unwrap().into_tool_result().into_call_result().to_wire(V2026, None);
    assert_eq!(wire["content"][0], json!({"type": "image", "data": PNG_B64, "mimeType": "image/png"}));
    assert_eq!(wire["content"][1]["type"], "text");
    assert_eq!(wire["_meta"][ARTIFACT_META_KEY]["payload"]["images"][0], json!({"mime": "image/png", "content": 0}));
    // Diff -> unified diff text.
    let wire = Diff::new("a\nb\n", "a\nc\n").path("n.txt").into_tool_result().into_call_result().to_wire(V2026, None);
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

// ---------------------------------------------------------------------------
// 4. Official examples
// ---------------------------------------------------------------------------

fn examples_dir() -> PathBuf {
    codeagent_test_support::examples_dir("2026-07-28")
}

fn example_files(dir: &str) -> Vec<(String, Value)> {
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
fn content_block_types() -> Vec<String> {
    let union = schema(V2026.as_str()).definition("ContentBlock").unwrap();
    union["anyOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|branch| branch["$ref"].as_str().unwrap().rsplit('/').next().unwrap().to_owned())
        .collect()
}

fn roundtrip_example(dir: &str, file: &str, original: &Value) -> Result<(), String> {
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
fn official_examples_parse_and_reserialise_identically() {
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
fn official_examples_lower_validly_to_every_version() {
    // Parsed examples, sent to every older version, are valid for it.
    let mut pairs = 0;
    let mut failures = Vec::new();
    for dir in ["TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource"] {
        for (file, original) in example_files(dir) {
            let block: ContentBlock = serde_json::from_value(original).unwrap();
            for version in ProtocolVersion::ALL {
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
        for version in ProtocolVersion::ALL {
            if let Err(report) = support::check(version.as_str(), "CallToolResult", &result.to_wire(version, None)) {
                failures.push(format!("{file}: {report}"));
            }
            pairs += 1;
        }
    }
    for (file, original) in example_files("Tool") {
        let tool: ToolDefinition = serde_json::from_value(original).unwrap();
        for version in ProtocolVersion::ALL {
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
fn sampling_only_content_is_not_a_tool_result_block() {
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

fn raw_artifact(result: &ToolResult) -> Option<&Value> {
    result.extra().get("codeagent")?.get("artifact")
}

#[test]
fn typed_outputs_round_trip_through_mcp() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for typed in typed_outputs() {
        let original = typed.result;
        assert!(original.artifact().is_some(), "{}: has a valid artifact", typed.name);
        for version in ProtocolVersion::ALL {
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
fn image_bytes_are_restored_from_content_references() {
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
fn foreign_mcp_results_get_a_synthesised_artifact() {
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
fn foreign_results_lower_back_to_their_own_content() {
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
fn first_difference(left: &Value, right: &Value, path: &str) -> Option<String> {
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
fn listed_schema(declared: Option<&Value>, version: ProtocolVersion) -> Option<Value> {
    declared.and_then(|schema| output_schema_for(schema, version))
}

#[test]
fn relaying_a_result_reproduces_the_same_wire() {
    // A host that reads a result with `from_mcp` and serves it again (a proxy,
    // a gateway, a recorded session) sends what it received.
    let mut failures = Vec::new();
    for typed in typed_outputs() {
        for version in ProtocolVersion::ALL {
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
fn explicit_results_round_trip_as_native_content() {
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

// ---------------------------------------------------------------------------
// 6. Errors that name the field
// ---------------------------------------------------------------------------

#[test]
fn empty_explicit_content_is_refused() {
    let error = CallToolResult::from_content(Vec::<ContentBlock>::new()).unwrap_err();
    assert_eq!(error.field(), "content");
    assert!(error.to_string().starts_with("invalid `content`: "), "{error}");
    let error = CallToolResult::from_content([] as [ContentBlock; 0]).unwrap_err();
    assert_eq!(error.field(), "content");
}

#[test]
fn priority_outside_zero_to_one_is_refused() {
    for priority in [1.5, -0.1, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let error = Annotations::new().priority(priority).unwrap_err();
        assert_eq!(error.field(), "annotations.priority", "{priority}");
        assert!(error.problem().contains("between 0 and 1"), "{priority}: {error}");
    }
    for priority in [0.0, 1.0, 0.5] {
        assert_eq!(Annotations::new().priority(priority).unwrap().priority_value(), Some(priority));
    }
}

#[test]
fn last_modified_must_be_rfc3339() {
    for bad in ["yesterday", "2025-01-12", "2025-01-12T15:00:58", ""] {
        let error = Annotations::new().last_modified(bad).unwrap_err();
        assert_eq!(error.field(), "annotations.lastModified", "{bad}");
        assert!(error.problem().contains(bad), "{error}");
    }
}

#[test]
fn bad_base64_and_mime_types_are_refused() {
    let error = ContentBlock::image("%%%", "image/png").unwrap_err();
    assert_eq!(error.field(), "data");
    assert!(error.problem().contains("base64"), "{error}");
    assert_eq!(ContentBlock::audio("%%%", "audio/wav").unwrap_err().field(), "data");
    assert_eq!(ContentBlock::image(PNG_B64, "text/plain").unwrap_err().field(), "mimeType");
    assert_eq!(ContentBlock::image(PNG_B64, "image/").unwrap_err().field(), "mimeType");
    assert_eq!(ContentBlock::audio(WAV_B64, "image/png").unwrap_err().field(), "mimeType");
    let error = ContentBlock::embedded_blob("file:///a.bin", "not base64!", None).unwrap_err();
    assert_eq!(error.field(), "resource.blob");
}

#[test]
fn uris_without_a_scheme_are_refused() {
    assert_eq!(ContentBlock::resource_link("notes.txt", "notes").unwrap_err().field(), "uri");
    assert_eq!(ContentBlock::resource_link("", "empty").unwrap_err().field(), "uri");
    assert_eq!(ContentBlock::resource_link("://x", "x").unwrap_err().field(), "uri");
    assert_eq!(ContentBlock::embedded_text("/etc/hosts", "x", None).unwrap_err().field(), "resource.uri");
    assert_eq!(ContentBlock::embedded_blob("1abc:x", "AA==", None).unwrap_err().field(), "resource.uri");
    let error = ContentBlock::resource_link("not a uri", "x").unwrap_err();
    assert!(error.to_string().contains("not a uri"), "{error}");
}

#[test]
fn uris_the_schema_rejects_are_refused_by_the_constructors() {
    // The schemas declare `format: uri` (RFC 3986) for resource URIs; whatever
    // the constructors accept must pass it, or be refused naming the field.
    let mut accepted_but_invalid = Vec::new();
    for uri in ["file:///my notes.txt", "https://example.com/a b", "C:\\Users\\me\\notes.txt", "file:///100%"] {
        let blocks = [
            ContentBlock::resource_link(uri, "x").map(ContentBlock::from),
            ContentBlock::embedded_text(uri, "x", None),
            ContentBlock::embedded_blob(uri, "AA==", None),
        ];
        for (constructor, block) in ["resource_link", "embedded_text", "embedded_blob"].into_iter().zip(blocks) {
            match block {
                Err(error) => assert!(error.field().ends_with("uri"), "{error}"),
                Ok(block) => {
                    if let Err(errors) = schema(V2026.as_str()).validate("CallToolResult", &wire_of(block, V2026)) {
                        accepted_but_invalid
                            .push(format!("ContentBlock::{constructor}({uri:?}): {}", errors.join("; ")));
                    }
                }
            }
        }
    }
    assert!(
        accepted_but_invalid.is_empty(),
        "constructors accept URIs the schema rejects (format: uri):\n{}",
        accepted_but_invalid.join("\n")
    );
}

#[test]
fn structured_content_is_protocol_valid_whatever_the_declared_schema() {
    // A result whose structured content is not an object, for a tool that
    // declares an object schema (a mismatch the author owns), must still be a
    // valid CallToolResult for 2025-06-18 and 2025-11-25, which require an object.
    let declared = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let result = CallToolResult::from_structured(&json!([1, 2])).unwrap();
    let mut failures = Vec::new();
    for version in ProtocolVersion::ALL {
        if let Err(report) =
            support::check(version.as_str(), "CallToolResult", &result.to_wire(version, Some(&declared)))
        {
            failures.push(report);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[derive(Serialize, JsonSchema)]
struct Report {
    title: &'static str,
    rows: Vec<Scored>,
}

#[test]
fn non_finite_structured_content_names_its_path() {
    let report =
        Report { title: "scores", rows: vec![Scored { name: "a", score: 1.0 }, Scored { name: "b", score: f64::NAN }] };
    let error = CallToolResult::from_structured(&report).unwrap_err();
    assert_eq!(error.field(), "structuredContent.rows[1].score");
    assert!(error.problem().contains("NaN"), "{error}");

    let with = CallToolResult::from_content(ContentBlock::text("x")).unwrap().with_structured(&report).unwrap_err();
    assert_eq!(with.field(), "structuredContent.rows[1].score");

    #[derive(Serialize)]
    struct Reading {
        value: f32,
    }
    let error = CallToolResult::from_structured(&Reading { value: f32::INFINITY }).unwrap_err();
    assert_eq!(error.field(), "structuredContent.value");
    assert!(error.problem().contains("inf"), "{error}");
    assert_eq!(CallToolResult::from_structured(&f32::NEG_INFINITY).unwrap_err().field(), "structuredContent");
    assert_eq!(CallToolResult::from_structured(&[1.0, f64::NAN]).unwrap_err().field(), "structuredContent[1]");
    let map = BTreeMap::from([("ok", 1.0), ("bad", f64::INFINITY)]);
    assert_eq!(CallToolResult::from_structured(&map).unwrap_err().field(), "structuredContent.bad");
    // Options are the way to say "missing".
    assert!(CallToolResult::from_structured(&[Some(1.0), None]).is_ok());

    // Typed outputs turn the same problem into an error result naming the path.
    let result = Json(report).into_tool_result();
    assert!(result.is_error());
    assert!(result.value().contains("rows[1].score"), "{}", result.value());
    let table = Table::from_rows(&[Scored { name: "a", score: f64::NEG_INFINITY }]).unwrap_err();
    assert!(table.message().contains("table row 0"), "{}", table.message());
}
