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
