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
//! - invalid content is refused, naming the field;
//! - the typed listings and results the client returns fit every version.

mod checker;
mod errors;
mod examples;
mod listings;
mod lowering;
mod matrix;
mod sent_once;

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

pub(crate) const V2024: ProtocolVersion = ProtocolVersion::V2024_11_05;
pub(crate) const V2025_03: ProtocolVersion = ProtocolVersion::V2025_03_26;
pub(crate) const V2025_06: ProtocolVersion = ProtocolVersion::V2025_06_18;
pub(crate) const V2025_11: ProtocolVersion = ProtocolVersion::V2025_11_25;
pub(crate) const V2026: ProtocolVersion = ProtocolVersion::V2026_07_28;

/// A 1×1 PNG (from the official examples).
pub(crate) const PNG_B64: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/// An empty WAV (from the official examples).
pub(crate) const WAV_B64: &str = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";
/// A 1×1 GIF.
pub(crate) const GIF: &[u8] = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;";

pub(crate) fn png() -> Vec<u8> {
    STANDARD.decode(PNG_B64).unwrap()
}

pub(crate) fn wav() -> Vec<u8> {
    STANDARD.decode(WAV_B64).unwrap()
}

// Each section's helpers are visible to the others.
#[allow(unused_imports)]
use self::{checker::*, errors::*, examples::*, lowering::*, matrix::*};
