//! Ranges and lengths, toolbox methods, and output schemas.

use super::*;

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
                    "maximum": 10,
                    "description": "The level, 1 to 10."
                },
                "name": {
                    "type": "string",
                    "description": "A short name, 1 to 3 characters.",
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
    let definition = toolbox().tools().definition("hit").unwrap();
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
fn a_table_has_no_output_schema() {
    // Its rows travel in the artifact; `structuredContent` only when a table asks for it.
    assert_output("points", None);
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
        toolbox().with_client_compatible_schemas(true).tools().list(None).unwrap().to_wire(ProtocolVersion::LATEST);
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
                    "description": "The segment to measure."
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
                    "description": "The shape to measure."
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
                    ],
                    "description": "What to do with the result, if anything."
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
    let plain = toolbox().tools().list(None).unwrap().to_wire(ProtocolVersion::LATEST);
    let segment = plain["tools"].as_array().unwrap().iter().find(|tool| tool["name"] == "length").unwrap();
    assert_eq!(
        segment["inputSchema"]["properties"]["segment"],
        json!({"$ref": "#/$defs/Segment", "description": "The segment to measure."})
    );
    assert_eq!(segment["inputSchema"]["$schema"], "https://json-schema.org/draft/2020-12/schema");
}

#[test]
fn the_schema_is_generated_once() {
    // A free tool: the spec is built on first use and kept.
    let first: *const codeagent::tools::ToolSpec = Tool::spec(&add);
    let second: *const codeagent::tools::ToolSpec = Tool::spec(&add);
    assert_eq!(first, second);
    // The same through two toolboxes.
    let one = toolbox().tools().find("add").unwrap();
    let two = toolbox().tools().find("add").unwrap();
    assert!(std::ptr::eq(one.spec(), two.spec()));
    assert!(std::ptr::eq(one.spec(), Tool::spec(&add)));
    // A toolbox method: every toolbox built from the impl shares it.
    let hit_one = toolbox().tools().find("hit").unwrap();
    let hit_two = toolbox().tools().find("hit").unwrap();
    assert!(std::ptr::eq(hit_one.spec(), hit_two.spec()));
}

#[test]
fn listings_carry_only_standard_formats_unless_schemars_formats_are_asked_for() {
    let level_schema = published().tools().definition("constrained").unwrap().input_schema;
    // `u8` with a range of its own: the tighter bounds stay, the format goes.
    assert_json(
        &level_schema["properties"]["level"],
        &json!({"type": "integer", "minimum": 1, "maximum": 10, "description": "The level, 1 to 10."}),
    );
    let add_schema = published().tools().definition("add").unwrap().input_schema;
    assert_json(&add_schema["properties"]["a"], &json!({"type": "integer", "description": "The first number."}));
    let summary_schema = published().tools().definition("summary").unwrap().output_schema.unwrap();
    assert_eq!(
        summary_schema["properties"]["count"],
        json!({"type": "integer", "minimum": 0, "maximum": 4294967295u32})
    );
    assert_eq!(summary_schema["properties"]["mean"]["type"], json!(["number", "null"]));
    assert!(summary_schema["properties"]["mean"].get("format").is_none());
    // The wire listing of every version agrees, and schemars' form is there when asked for.
    for version in codeagent::ProtocolVersion::ALL {
        let listed = published().tools().list(None).unwrap().to_wire(*version);
        assert!(!listed.to_string().contains("\"format\":\"int"), "{version}: {listed}");
        let listed = toolbox().tools().list(None).unwrap().to_wire(*version);
        assert!(listed.to_string().contains("\"format\":\"int64\""), "{version}");
    }
    assert_eq!(
        toolbox().tools().definition("constrained").unwrap().input_schema["properties"]["level"]["format"],
        "uint8"
    );
}
