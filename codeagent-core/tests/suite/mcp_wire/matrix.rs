//! The matrix: every case serialised for every version and validated.

use super::*;

// ---------------------------------------------------------------------------
// 3. The matrix
// ---------------------------------------------------------------------------

/// What a case puts on the wire.
pub(crate) enum Wire {
    /// A `tools/call` result, for a tool with this output schema.
    Call { result: CallToolResult, output_schema: Option<Value> },
    /// One `tools/list` entry.
    Tool(ToolDefinition),
    /// A whole `tools/list` result.
    List { tools: Vec<ToolDefinition>, cursor: Option<&'static str> },
}

pub(crate) struct Case {
    pub(crate) group: &'static str,
    pub(crate) name: String,
    pub(crate) wire: Wire,
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
pub(crate) fn list_tools(tools: &[ToolDefinition], cursor: Option<&str>, version: ProtocolVersion) -> Value {
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

pub(crate) fn full_annotations() -> Annotations {
    Annotations::new()
        .with_audience([Role::User, Role::Assistant])
        .with_priority(0.5)
        .unwrap()
        .with_last_modified("2025-01-12T15:00:58Z")
        .unwrap()
}

pub(crate) fn icon() -> Icon {
    Icon::new("https://example.com/rust.png")
        .with_mime_type("image/png")
        .with_sizes(["48x48", "96x96"])
        .with_theme(Theme::Dark)
}

/// Every block type built with the `ContentBlock` constructors.
pub(crate) fn base_blocks() -> Vec<(&'static str, ContentBlock)> {
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
                .with_title("Main")
                .with_description("Primary application entry point")
                .with_mime_type("text/x-rust")
                .with_size(1234)
                .with_icons([icon(), Icon::new("data:image/png;base64,iVBORw0KGgo=")])
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

pub(crate) fn block_cases() -> Vec<Case> {
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
    let only_last_modified = Annotations::new().with_last_modified("2024-02-29T00:00:00.123+05:30").unwrap();
    cases.push(Case::call(
        "blocks",
        "text+lastModified only",
        CallToolResult::from_content(ContentBlock::text("x").with_annotations(only_last_modified)).unwrap(),
    ));
    let audience_only = Annotations::new().with_audience([Role::Assistant]);
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
pub(crate) struct Sale {
    pub(crate) region: &'static str,
    pub(crate) total: u32,
    pub(crate) share: f64,
    pub(crate) note: Option<&'static str>,
}

pub(crate) fn sales() -> Vec<Sale> {
    vec![
        Sale { region: "north", total: 10, share: 0.25, note: None },
        Sale { region: "south|west", total: 7, share: 0.75, note: Some("a\nb") },
    ]
}

/// A structured output with nested types (`$defs` in its schema).
#[derive(Serialize, JsonSchema)]
pub(crate) struct Weather {
    /// Temperature in celsius.
    pub(crate) temperature: f64,
    pub(crate) conditions: String,
    pub(crate) humidity: u8,
    pub(crate) wind: Wind,
}

#[derive(Serialize, JsonSchema)]
pub(crate) struct Wind {
    pub(crate) speed: f32,
    pub(crate) direction: Direction,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Direction {
    North,
    South,
}

pub(crate) fn weather() -> Weather {
    Weather {
        temperature: 22.5,
        conditions: "Partly cloudy".into(),
        humidity: 65,
        wind: Wind { speed: 3.5, direction: Direction::North },
    }
}

/// A structured output with a free-form field, whose schema is `true`.
#[derive(Serialize, JsonSchema)]
pub(crate) struct Tagged {
    pub(crate) id: u32,
    pub(crate) tags: serde_json::Value,
}

/// A recursive type: its root schema refers to itself with `"$ref": "#"`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Tree {
    Leaf(i32),
    Node(Vec<Tree>),
}

#[derive(Serialize, JsonSchema)]
pub(crate) struct Scored {
    pub(crate) name: &'static str,
    pub(crate) score: f64,
}

/// A typed output, lowered into a `ToolResult`, with its type's output schema.
pub(crate) struct Typed {
    pub(crate) name: String,
    pub(crate) result: ToolResult,
    pub(crate) output_schema: Option<Value>,
}

pub(crate) fn typed<T: IntoToolResult>(name: &str, output: T) -> Typed {
    Typed {
        name: name.to_owned(),
        result: output.into_tool_result(),
        output_schema: <T as IntoToolResult>::output_schema(),
    }
}

pub(crate) fn typed_outputs() -> Vec<Typed> {
    let table = || Table::from_rows(&sales()).unwrap();
    let image = || Image::from_bytes(png(), "image/png").unwrap().with_output("one pixel");
    let code = || Code::new("fn main() {}\n").with_lang("rust").with_filename("main.rs").with_output("ok");
    let diff = || Diff::new("a\nb\n", "a\nc\n").with_path("notes.txt");
    let error = || ToolError::new("region not found").with_detail("known: north, south");
    let empty: Vec<Sale> = Vec::new();
    vec![
        typed("Text", Text::new("All good.").with_title("Status").with_icon("check")),
        typed("Text empty", Text::new("")),
        typed("Table from rows", table().with_title("Sales")),
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

pub(crate) fn typed_cases() -> Vec<Case> {
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
pub(crate) struct Nested {
    pub(crate) title: &'static str,
    pub(crate) rows: Vec<BTreeMap<&'static str, i32>>,
}

pub(crate) fn explicit_cases() -> Vec<Case> {
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

pub(crate) fn input_schema() -> Value {
    json!({"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]})
}

pub(crate) fn tool(name: &str) -> ToolDefinition {
    ToolDefinition::new(name, input_schema())
}

pub(crate) fn tool_definitions() -> Vec<(String, ToolDefinition)> {
    let hints = ToolAnnotations::new()
        .with_read_only_hint(true)
        .with_destructive_hint(false)
        .with_idempotent_hint(true)
        .with_open_world_hint(false);
    let mut everything = tool("everything").with_title("Everything").with_description("All the fields.");
    everything.annotations = Some(hints.clone().with_title("Hinted title"));
    everything.icons = Some(vec![icon(), Icon::new("https://example.com/light.svg").with_theme(Theme::Light)]);
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
            tool.annotations = Some(ToolAnnotations::new().with_title("Hinted"));
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

pub(crate) fn tool_cases() -> Vec<Case> {
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

pub(crate) fn all_cases() -> Vec<Case> {
    let mut cases = block_cases();
    cases.extend(typed_cases());
    cases.extend(explicit_cases());
    cases.extend(tool_cases());
    cases
}

/// Runs the cases for every version; returns (validated pairs, failures).
pub(crate) fn run_matrix(cases: &[Case]) -> (usize, Vec<String>) {
    let mut validated = 0;
    let mut failures = Vec::new();
    for case in cases {
        for &version in ProtocolVersion::ALL {
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
pub(crate) fn assert_matrix(cases: Vec<Case>) {
    let (validated, failures) = run_matrix(&cases);
    println!("{} cases, {validated} validated (case, version) pairs", cases.len());
    assert!(failures.is_empty(), "{} of {} pairs fail:\n\n{}", failures.len(), cases.len() * 5, failures.join("\n\n"));
}

#[test]
pub(crate) fn matrix_content_blocks() {
    assert_matrix(block_cases());
}

#[test]
pub(crate) fn matrix_typed_outputs() {
    assert_matrix(typed_cases());
}

#[test]
pub(crate) fn matrix_explicit_results() {
    assert_matrix(explicit_cases());
}

#[test]
pub(crate) fn matrix_tool_definitions_and_listings() {
    assert_matrix(tool_cases());
}

#[test]
pub(crate) fn matrix_size() {
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
