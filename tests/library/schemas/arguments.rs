//! Input schemas: descriptions, enums, nested structs, optional, default and
//! renamed arguments, injected parameters and their order.

use super::*;

#[test]
fn doc_comments_describe_the_tool_and_each_argument() {
    let definition = toolbox().tools().definition("add").unwrap();
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
                    "$ref": "#/$defs/Group",
                    "description": "What to group the rows by."
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
                    "$ref": "#/$defs/Shape",
                    "description": "The shape to measure."
                },
                "command": {
                    "anyOf": [
                        {
                            "$ref": "#/$defs/Command"
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
                    "$ref": "#/$defs/Segment",
                    "description": "The segment to measure."
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
                    },
                    "description": "The tags to keep."
                },
                "limit": {
                    "type": [
                        "integer",
                        "null"
                    ],
                    "format": "uint32",
                    "minimum": 0,
                    "description": "At most this many, if given."
                },
                "pattern": {
                    "type": [
                        "string",
                        "null"
                    ],
                    "description": "A pattern the tags must match, if given."
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
                    "description": "The page, from 0.",
                    "default": 0
                },
                "size": {
                    "type": "integer",
                    "format": "uint32",
                    "minimum": 0,
                    "description": "How many rows a page has.",
                    "default": 50
                },
                "reverse": {
                    "type": "boolean",
                    "description": "Newest first.",
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
                    "$ref": "#/$defs/SearchOptions",
                    "description": "How to search."
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
                    "maximum": 255,
                    "description": "The first number."
                },
                "second": {
                    "type": "integer",
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 255,
                    "description": "The second number."
                },
                "third": {
                    "type": "integer",
                    "format": "uint8",
                    "minimum": 0,
                    "maximum": 255,
                    "description": "The third number."
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

/// Doc comments of every form, on arguments the runtime describes (no
/// attribute but doc comments).
#[tool(undocumented)]
fn described(
    /// # A title
    ///
    /// Then a description,
    ///   indented, over two lines.
    first: i64,
    ///No space before the text.
    second: Option<String>,
    #[doc = "A doc attribute."] third: Vec<Segment>,
    /// Yes or no.
    empty: bool,
    unwritten: u8,
    ctx: &Context,
) -> String {
    format!("{first} {second:?} {} {empty} {unwritten} {}", third.len(), ctx.request_id().is_some())
}

/// [`described`], each argument as the derive of an argument struct
/// describes it (a rename to its own name sends it there).
#[tool(undocumented)]
fn derived(
    /// # A title
    ///
    /// Then a description,
    ///   indented, over two lines.
    #[serde(rename = "first")]
    first: i64,
    ///No space before the text.
    second: Option<String>,
    #[doc = "A doc attribute."] third: Vec<Segment>,
    /// Yes or no.
    empty: bool,
    unwritten: u8,
    ctx: &Context,
) -> String {
    format!("{first} {second:?} {} {empty} {unwritten} {}", third.len(), ctx.request_id().is_some())
}

#[test]
fn arguments_described_without_the_derive_have_the_derives_schema() {
    let toolbox = Toolbox::new().tool(described).tool(derived).with_schemars_formats(true);
    let written = toolbox.tools().definition("described").unwrap().input_schema;
    let by_the_derive = toolbox.tools().definition("derived").unwrap().input_schema;
    assert_json(&written, &by_the_derive);
    // Not vacuous: the title, the description and the definition are there.
    assert_eq!(written["properties"]["first"]["title"], "A title");
    assert_eq!(written["properties"]["first"]["description"], "Then a description,\n  indented, over two lines.");
    assert!(written["$defs"]["Segment"].is_object(), "{written}");
}
