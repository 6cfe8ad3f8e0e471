//! The suite's `json_schema_2020_12_tool` (scenario `json-schema-2020-12`,
//! SEP-1613 and SEP-2106): an input schema written by hand with the JSON
//! Schema 2020-12 keywords a derived schema never has (`$anchor` in `$defs`,
//! `allOf`/`anyOf`, `if`/`then`/`else`), listed as written and enforced when
//! the tool is called.

use std::borrow::Cow;
use std::sync::OnceLock;

use codeagent::prelude::*;
use codeagent::tools::{Tool, ToolCall, ToolFuture, ToolSpec, decode_arguments};
use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};

/// How to reach someone: a phone number or an email address, the one the
/// contact method names.
#[derive(Debug, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
struct Contact {
    name: Option<String>,
    address: Option<Address>,
    contact_method: Option<String>,
    phone: Option<String>,
    email: Option<String>,
}

/// A postal address.
#[derive(Debug, Deserialize, Serialize)]
struct Address {
    street: Option<String>,
    city: Option<String>,
}

impl JsonSchema for Contact {
    fn schema_name() -> Cow<'static, str> {
        "Contact".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "$anchor": "addressDef",
                    "type": "object",
                    "properties": { "street": { "type": "string" }, "city": { "type": "string" } }
                }
            },
            "properties": {
                "name": { "type": "string" },
                "address": { "$ref": "#/$defs/address" },
                "contactMethod": { "type": "string", "enum": ["phone", "email"] },
                "phone": { "type": "string" },
                "email": { "type": "string" }
            },
            "allOf": [{ "anyOf": [{ "required": ["phone"] }, { "required": ["email"] }] }],
            "if": { "properties": { "contactMethod": { "const": "phone" } }, "required": ["contactMethod"] },
            "then": { "required": ["phone"] },
            "else": { "required": ["email"] },
            "additionalProperties": false
        })
    }
}

/// The tool: echoes the contact it is given.
pub(crate) struct JsonSchemaTool;

impl Tool for JsonSchemaTool {
    fn spec(&self) -> &ToolSpec {
        static SPEC: OnceLock<ToolSpec> = OnceLock::new();
        SPEC.get_or_init(|| {
            ToolSpec::new::<Contact>("json_schema_2020_12_tool")
                .with_description("Tool with JSON Schema 2020-12 features")
                .with_output::<Json<serde_json::Value>>()
        })
    }

    fn call(&self, mut call: ToolCall) -> ToolFuture {
        let contact = decode_arguments::<Contact>(self.spec(), &mut call);
        Box::pin(async move {
            match contact {
                Ok(contact) => Json(serde_json::to_value(contact).unwrap_or_default()).into_tool_result(),
                Err(error) => error.into_tool_result(),
            }
        })
    }
}
