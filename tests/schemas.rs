//! Golden input and output schemas of `#[tool]` signatures, compared as
//! exact JSON: `Value` equality, and the serialised text too, so key order
//! (which `serde_json`'s `preserve_order` keeps) is part of the contract.
//!
//! When a schema changes on purpose, print the new one with
//! `serde_json::to_string_pretty` and read it before pasting it here.

use std::sync::atomic::{AtomicU64, Ordering};

use codeagent::prelude::*;
use codeagent::{ProtocolVersion, Tool};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Add two numbers.
///
/// The second paragraph stays in the description,
/// line breaks included.
#[tool]
fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> i64 {
    a + b
}

/// How to group.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Group {
    Region,
    Product,
}

/// Group rows.
#[tool]
fn group_by(group: Group) -> String {
    match group {
        Group::Region => "region".to_owned(),
        Group::Product => "product".to_owned(),
    }
}

/// A shape.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    /// A circle.
    Circle { radius: f64 },
    /// A rectangle.
    Rectangle { width: f64, height: f64 },
}

/// An externally tagged command.
#[allow(dead_code, reason = "only its schema matters")]
#[derive(Deserialize, JsonSchema)]
enum Command {
    Stop,
    Move(i32),
    Jump { height: u8 },
}

/// Measure a shape.
#[tool]
fn area(shape: Shape, command: Option<Command>) -> f64 {
    let _ = command;
    match shape {
        Shape::Circle { radius } => std::f64::consts::PI * radius * radius,
        Shape::Rectangle { width, height } => width * height,
    }
}

/// A point.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Point {
    /// Horizontal.
    x: f64,
    /// Vertical.
    y: f64,
}

/// A segment between two points.
#[derive(Deserialize, JsonSchema)]
struct Segment {
    from: Point,
    to: Point,
}

/// Length of a segment.
#[tool]
fn length(segment: Segment) -> f64 {
    (segment.to.x - segment.from.x).hypot(segment.to.y - segment.from.y)
}

/// Optional and list arguments.
#[tool]
fn filter(tags: Vec<String>, limit: Option<u32>, pattern: Option<String>) -> usize {
    let _ = pattern;
    tags.len().min(limit.map_or(usize::MAX, |limit| limit as usize))
}

fn default_page_size() -> u32 {
    50
}

/// Defaults.
#[tool]
fn page(
    #[serde(default)] page: u32,
    #[serde(default = "default_page_size")] size: u32,
    #[serde(default)] reverse: bool,
) -> String {
    format!("{page} {size} {reverse}")
}

/// Search options, in camelCase on the wire.
#[allow(dead_code, reason = "only its schema matters")]
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SearchOptions {
    case_sensitive: bool,
    max_results: Option<u32>,
}

/// Renames.
#[tool]
fn search(
    /// The query.
    #[serde(rename = "q")]
    query: String,
    options: SearchOptions,
) -> String {
    let _ = options;
    query
}

/// Nothing to send.
#[tool]
fn now() -> u64 {
    0
}

struct Settings {
    prefix: String,
}

/// Context and state are injected, not arguments.
#[tool]
async fn log(
    /// What to log.
    message: String,
    ctx: &Context,
    settings: State<Settings>,
    owned: Context,
) -> String {
    ctx.info(message.clone());
    let _ = owned;
    format!("{}{message}", settings.prefix)
}

/// Injected parameters first: the arguments keep their order.
#[tool]
fn ordered(ctx: &Context, first: u8, second: u8, third: u8) -> u16 {
    ctx.debug("ordered");
    u16::from(first) + u16::from(second) + u16::from(third)
}

/// Constraints.
#[tool]
fn constrained(
    #[schemars(range(min = 1, max = 10))] level: u8,
    #[schemars(length(min = 1, max = 3))] name: String,
) -> String {
    format!("{level}{name}")
}

/// A summary.
#[derive(Serialize, JsonSchema)]
struct Summary {
    count: u32,
    mean: Option<f64>,
}

/// Json output.
#[tool]
fn summary(values: Vec<f64>) -> Json<Summary> {
    let _ = values;
    Json(Summary { count: 0, mean: None })
}

/// Table output.
#[tool]
fn points() -> Table {
    Table::from_rows(&[Point { x: 1.0, y: 2.0 }]).unwrap()
}

/// Result of Json output.
#[tool]
async fn maybe_point(ok: bool) -> Result<Json<Point>, ToolError> {
    if ok { Ok(Json(Point { x: 0.0, y: 0.0 })) } else { Err(ToolError::new("no point")) }
}

struct Counter {
    hits: AtomicU64,
}

#[toolbox]
impl Counter {
    /// Count hits.
    #[tool]
    fn hit(
        &self,
        /// How many.
        by: Option<u64>,
    ) -> u64 {
        self.hits.fetch_add(by.unwrap_or(1), Ordering::SeqCst)
    }

    /// Read the count.
    #[tool]
    async fn read(&self, ctx: &Context) -> u64 {
        let _ = ctx;
        self.hits.load(Ordering::SeqCst)
    }
}

fn toolbox() -> Toolbox {
    Toolbox::new()
        .tool(add)
        .tool(group_by)
        .tool(area)
        .tool(length)
        .tool(filter)
        .tool(page)
        .tool(search)
        .tool(now)
        .tool(log)
        .tool(ordered)
        .tool(constrained)
        .tool(summary)
        .tool(points)
        .tool(maybe_point)
        .tools(Counter { hits: AtomicU64::new(0) })
        .with_state(Settings { prefix: String::new() })
}

/// Asserts `actual == expected`, key order included.
#[track_caller]
fn assert_json(actual: &Value, expected: &Value) {
    assert_eq!(actual, expected);
    assert_eq!(
        serde_json::to_string_pretty(actual).unwrap(),
        serde_json::to_string_pretty(expected).unwrap(),
        "same JSON, different key order"
    );
}

#[track_caller]
fn assert_input(name: &str, expected: &Value) {
    let definition = toolbox().definition(name).unwrap();
    assert_json(&definition.input_schema, expected);
}

#[track_caller]
fn assert_output(name: &str, expected: Option<&Value>) {
    let definition = toolbox().definition(name).unwrap();
    match (definition.output_schema.as_ref(), expected) {
        (Some(actual), Some(expected)) => assert_json(actual, expected),
        (actual, expected) => assert_eq!(actual, expected, "{name}"),
    }
}

#[test]
fn doc_comments_describe_the_tool_and_each_argument() {
    let definition = toolbox().definition("add").unwrap();
    assert_eq!(
        definition.description.as_deref(),
        Some("Add two numbers.\n\nThe second paragraph stays in the description,\nline breaks included.")
    );
    assert_input(
        "add",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "a": {
                    "type": "integer",
                    "format": "int64",
                    "description": "The first number."
                },
                "b": {
                    "type": "integer",
                    "format": "int64",
                    "description": "The second number."
                }
            },
            "required": [
                "a",
                "b"
            ]
        }),
    );
}

#[test]
fn unit_enum() {
    assert_input(
        "group_by",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "group": {
                    "$ref": "#/$defs/Group"
                }
            },
            "required": [
                "group"
            ],
            "$defs": {
                "Group": {
                    "type": "string",
                    "enum": [
                        "region",
                        "product"
                    ],
                    "description": "How to group."
                }
            }
        }),
    );
}

#[test]
fn data_carrying_enums_internally_and_externally_tagged() {
    assert_input(
        "area",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "shape": {
                    "$ref": "#/$defs/Shape"
                },
                "command": {
                    "anyOf": [
                        {
                            "$ref": "#/$defs/Command"
                        },
                        {
                            "type": "null"
                        }
                    ]
                }
            },
            "required": [
                "shape"
            ],
            "$defs": {
                "Shape": {
                    "oneOf": [
                        {
                            "type": "object",
                            "properties": {
                                "kind": {
                                    "type": "string",
                                    "const": "circle"
                                },
                                "radius": {
                                    "type": "number",
                                    "format": "double"
                                }
                            },
                            "required": [
                                "kind",
                                "radius"
                            ],
                            "description": "A circle."
                        },
                        {
                            "type": "object",
                            "properties": {
                                "kind": {
                                    "type": "string",
                                    "const": "rectangle"
                                },
                                "width": {
                                    "type": "number",
                                    "format": "double"
                                },
                                "height": {
                                    "type": "number",
                                    "format": "double"
                                }
                            },
                            "required": [
                                "kind",
                                "width",
                                "height"
                            ],
                            "description": "A rectangle."
                        }
                    ],
                    "description": "A shape."
                },
                "Command": {
                    "oneOf": [
                        {
                            "type": "string",
                            "enum": [
                                "Stop"
                            ]
                        },
                        {
                            "type": "object",
                            "properties": {
                                "Move": {
                                    "type": "integer",
                                    "format": "int32"
                                }
                            },
                            "required": [
                                "Move"
                            ],
                            "additionalProperties": false
                        },
                        {
                            "type": "object",
                            "properties": {
                                "Jump": {
                                    "type": "object",
                                    "properties": {
                                        "height": {
                                            "type": "integer",
                                            "format": "uint8",
                                            "minimum": 0,
                                            "maximum": 255
                                        }
                                    },
                                    "required": [
                                        "height"
                                    ]
                                }
                            },
                            "required": [
                                "Jump"
                            ],
                            "additionalProperties": false
                        }
                    ],
                    "description": "An externally tagged command."
                }
            }
        }),
    );
}

#[test]
fn nested_structs_are_definitions() {
    assert_input(
        "length",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "segment": {
                    "$ref": "#/$defs/Segment"
                }
            },
            "required": [
                "segment"
            ],
            "$defs": {
                "Segment": {
                    "type": "object",
                    "properties": {
                        "from": {
                            "$ref": "#/$defs/Point"
                        },
                        "to": {
                            "$ref": "#/$defs/Point"
                        }
                    },
                    "required": [
                        "from",
                        "to"
                    ],
                    "description": "A segment between two points."
                },
                "Point": {
                    "type": "object",
                    "properties": {
                        "x": {
                            "type": "number",
                            "format": "double",
                            "description": "Horizontal."
                        },
                        "y": {
                            "type": "number",
                            "format": "double",
                            "description": "Vertical."
                        }
                    },
                    "required": [
                        "x",
                        "y"
                    ],
                    "description": "A point."
                }
            }
        }),
    );
}

#[test]
fn option_is_not_required_and_vec_is_an_array() {
    assert_input(
        "filter",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "tags": {
                    "type": "array",
                    "items": {
                        "type": "string"
                    }
                },
                "limit": {
                    "type": [
                        "integer",
                        "null"
                    ],
                    "format": "uint32",
                    "minimum": 0
                },
                "pattern": {
                    "type": [
                        "string",
                        "null"
                    ]
                }
            },
            "required": [
                "tags"
            ]
        }),
    );
}

#[test]
fn serde_defaults_are_not_required_and_carry_their_value() {
    assert_input(
        "page",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "page": {
                    "type": "integer",
                    "format": "uint32",
                    "minimum": 0,
                    "default": 0
                },
                "size": {
                    "type": "integer",
                    "format": "uint32",
                    "minimum": 0,
                    "default": 50
                },
                "reverse": {
                    "type": "boolean",
                    "default": false
                }
            }
        }),
    );
}

#[test]
fn serde_renames_on_a_parameter_and_rename_all_on_a_struct() {
    assert_input(
        "search",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "q": {
                    "type": "string",
                    "description": "The query."
                },
                "options": {
                    "$ref": "#/$defs/SearchOptions"
                }
            },
            "required": [
                "q",
                "options"
            ],
            "$defs": {
                "SearchOptions": {
                    "type": "object",
                    "properties": {
                        "caseSensitive": {
                            "type": "boolean"
                        },
                        "maxResults": {
                            "type": [
                                "integer",
                                "null"
                            ],
                            "format": "uint32",
                            "minimum": 0
                        }
                    },
                    "required": [
                        "caseSensitive"
                    ],
                    "description": "Search options, in camelCase on the wire."
                }
            }
        }),
    );
}

#[test]
fn no_parameters_is_an_empty_object() {
    assert_input(
        "now",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {}
        }),
    );
}

#[test]
fn context_and_state_are_not_in_the_schema() {
    assert_input(
        "log",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "message": {
                    "type": "string",
                    "description": "What to log."
                }
            },
            "required": [
                "message"
            ]
        }),
    );
}

#[test]
fn arguments_keep_their_order_after_an_injected_parameter() {
    assert_input(
        "ordered",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "first": {
                    "type": "integer",
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 255
                },
                "second": {
                    "type": "integer",
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 255
                },
                "third": {
                    "type": "integer",
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 255
                }
            },
            "required": [
                "first",
                "second",
                "third"
            ]
        }),
    );
}

#[test]
fn schemars_ranges_and_lengths() {
    assert_input(
        "constrained",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "level": {
                    "type": "integer",
                    "format": "uint8",
                    "minimum": 1,
                    "maximum": 10
                },
                "name": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 3
                }
            },
            "required": [
                "level",
                "name"
            ]
        }),
    );
}

#[test]
fn toolbox_methods() {
    assert_input(
        "hit",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "by": {
                    "type": [
                        "integer",
                        "null"
                    ],
                    "format": "uint64",
                    "minimum": 0,
                    "description": "How many."
                }
            }
        }),
    );
    assert_input(
        "read",
        &json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "additionalProperties": false,
            "properties": {}
        }),
    );
    let definition = toolbox().definition("hit").unwrap();
    assert_eq!(definition.description.as_deref(), Some("Count hits."));
}

#[test]
fn json_output_schema() {
    assert_output(
        "summary",
        Some(&json!({
            "type": "object",
            "properties": {
                "count": {
                    "type": "integer",
                    "format": "uint32",
                    "minimum": 0
                },
                "mean": {
                    "type": [
                        "number",
                        "null"
                    ],
                    "format": "double"
                }
            },
            "required": [
                "count",
                "mean"
            ],
            "description": "A summary.",
            "title": "Summary",
            "$schema": "https://json-schema.org/draft/2020-12/schema"
        })),
    );
}

#[test]
fn table_output_schema() {
    assert_output(
        "points",
        Some(&json!({
            "type": "object",
            "properties": {
                "columns": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "name": {
                                "type": "string"
                            },
                            "type": {
                                "enum": [
                                    "integer",
                                    "number",
                                    "string",
                                    "boolean",
                                    "json",
                                    "null"
                                ]
                            }
                        },
                        "required": [
                            "name",
                            "type"
                        ]
                    }
                },
                "rows": {
                    "type": "array",
                    "items": {
                        "type": "array"
                    }
                }
            },
            "required": [
                "columns",
                "rows"
            ]
        })),
    );
}

#[test]
fn result_of_json_output_schema() {
    assert_output(
        "maybe_point",
        Some(&json!({
            "type": "object",
            "properties": {
                "x": {
                    "type": "number",
                    "format": "double",
                    "description": "Horizontal."
                },
                "y": {
                    "type": "number",
                    "format": "double",
                    "description": "Vertical."
                }
            },
            "required": [
                "x",
                "y"
            ],
            "description": "A point.",
            "title": "Point",
            "$schema": "https://json-schema.org/draft/2020-12/schema"
        })),
    );
}

#[test]
fn plain_outputs_have_no_output_schema() {
    for name in ["add", "group_by", "now", "log", "hit", "read"] {
        assert_output(name, None);
    }
}

/// Every value in `value`, recursively, with the keys that lead to it.
fn keys(value: &Value, found: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, item) in map {
                found.push(key.clone());
                keys(item, found);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| keys(item, found)),
        _ => {}
    }
}

#[test]
fn client_compatible_schemas_inline_refs_and_drop_the_dialect() {
    let listing =
        toolbox().with_client_compatible_schemas(true).list_tools(None).unwrap().to_wire(ProtocolVersion::LATEST);
    let tools = listing["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 16);
    let mut found = Vec::new();
    keys(&listing, &mut found);
    for key in ["$ref", "$defs", "$schema"] {
        assert!(!found.iter().any(|found| found == key), "{key} in the client-compatible listing");
    }
    let tool = |name: &str| tools.iter().find(|tool| tool["name"] == name).unwrap().clone();
    assert_json(
        &tool("length")["inputSchema"],
        &json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "segment": {
                    "type": "object",
                    "properties": {
                        "from": {
                            "type": "object",
                            "properties": {
                                "x": {
                                    "type": "number",
                                    "format": "double",
                                    "description": "Horizontal."
                                },
                                "y": {
                                    "type": "number",
                                    "format": "double",
                                    "description": "Vertical."
                                }
                            },
                            "required": [
                                "x",
                                "y"
                            ],
                            "description": "A point."
                        },
                        "to": {
                            "type": "object",
                            "properties": {
                                "x": {
                                    "type": "number",
                                    "format": "double",
                                    "description": "Horizontal."
                                },
                                "y": {
                                    "type": "number",
                                    "format": "double",
                                    "description": "Vertical."
                                }
                            },
                            "required": [
                                "x",
                                "y"
                            ],
                            "description": "A point."
                        }
                    },
                    "required": [
                        "from",
                        "to"
                    ],
                    "description": "A segment between two points."
                }
            },
            "required": [
                "segment"
            ]
        }),
    );
    assert_json(
        &tool("area")["inputSchema"],
        &json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "shape": {
                    "oneOf": [
                        {
                            "type": "object",
                            "properties": {
                                "kind": {
                                    "type": "string",
                                    "const": "circle"
                                },
                                "radius": {
                                    "type": "number",
                                    "format": "double"
                                }
                            },
                            "required": [
                                "kind",
                                "radius"
                            ],
                            "description": "A circle."
                        },
                        {
                            "type": "object",
                            "properties": {
                                "kind": {
                                    "type": "string",
                                    "const": "rectangle"
                                },
                                "width": {
                                    "type": "number",
                                    "format": "double"
                                },
                                "height": {
                                    "type": "number",
                                    "format": "double"
                                }
                            },
                            "required": [
                                "kind",
                                "width",
                                "height"
                            ],
                            "description": "A rectangle."
                        }
                    ],
                    "description": "A shape."
                },
                "command": {
                    "anyOf": [
                        {
                            "oneOf": [
                                {
                                    "type": "string",
                                    "enum": [
                                        "Stop"
                                    ]
                                },
                                {
                                    "type": "object",
                                    "properties": {
                                        "Move": {
                                            "type": "integer",
                                            "format": "int32"
                                        }
                                    },
                                    "required": [
                                        "Move"
                                    ],
                                    "additionalProperties": false
                                },
                                {
                                    "type": "object",
                                    "properties": {
                                        "Jump": {
                                            "type": "object",
                                            "properties": {
                                                "height": {
                                                    "type": "integer",
                                                    "format": "uint8",
                                                    "minimum": 0,
                                                    "maximum": 255
                                                }
                                            },
                                            "required": [
                                                "height"
                                            ]
                                        }
                                    },
                                    "required": [
                                        "Jump"
                                    ],
                                    "additionalProperties": false
                                }
                            ],
                            "description": "An externally tagged command."
                        },
                        {
                            "type": "null"
                        }
                    ]
                }
            },
            "required": [
                "shape"
            ]
        }),
    );
    assert_json(
        &tool("maybe_point")["outputSchema"],
        &json!({
            "type": "object",
            "properties": {
                "x": {
                    "type": "number",
                    "format": "double",
                    "description": "Horizontal."
                },
                "y": {
                    "type": "number",
                    "format": "double",
                    "description": "Vertical."
                }
            },
            "required": [
                "x",
                "y"
            ],
            "description": "A point.",
            "title": "Point"
        }),
    );

    // Without the option, the listing keeps `$schema`, `$defs` and `$ref`.
    let plain = toolbox().list_tools(None).unwrap().to_wire(ProtocolVersion::LATEST);
    let segment = plain["tools"].as_array().unwrap().iter().find(|tool| tool["name"] == "length").unwrap();
    assert_eq!(segment["inputSchema"]["properties"]["segment"], json!({"$ref": "#/$defs/Segment"}));
    assert_eq!(segment["inputSchema"]["$schema"], "https://json-schema.org/draft/2020-12/schema");
}

#[test]
fn the_schema_is_generated_once() {
    // A free tool: the spec is built on first use and kept.
    let first: *const codeagent::toolbox::ToolSpec = Tool::spec(&add);
    let second: *const codeagent::toolbox::ToolSpec = Tool::spec(&add);
    assert_eq!(first, second);
    // The same through two toolboxes.
    let one = toolbox().get("add").unwrap();
    let two = toolbox().get("add").unwrap();
    assert!(std::ptr::eq(one.spec(), two.spec()));
    assert!(std::ptr::eq(one.spec(), Tool::spec(&add)));
    // A toolbox method: every toolbox built from the impl shares it.
    let hit_one = toolbox().get("hit").unwrap();
    let hit_two = toolbox().get("hit").unwrap();
    assert!(std::ptr::eq(hit_one.spec(), hit_two.spec()));
}
