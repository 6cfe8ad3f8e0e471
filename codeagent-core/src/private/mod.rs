//! What the `#[tool]`, `#[toolbox]`, `#[resource]` and `#[prompt]`
//! expansions refer to, and nothing else does. Not a public API: it changes
//! without notice.

pub mod check;
pub mod prompt;
pub mod resource;

pub use crate::toolbox::decode::decode_arguments;
pub use crate::toolbox::fields::Fields;
pub use crate::toolbox::param::{Injected, ToolParam};

use std::sync::{Arc, OnceLock};

use schemars::{JsonSchema, Schema, SchemaGenerator};

use crate::mcp::ToolAnnotations;
use crate::result::ToolResult;
use crate::toolbox::run::{run_blocking, run_inline};
use crate::toolbox::schema::input_schema_with;
use crate::toolbox::{ToolCall, ToolFuture, ToolSpec};

/// [`ToolSpec::new`] of the argument struct whose `JsonSchema::json_schema`
/// is `json_schema`: not generic, so a tool's expansion compiles no schema
/// generation of its own (only its struct's derived `json_schema`).
pub fn tool_spec(name: &str, json_schema: fn(&mut SchemaGenerator) -> Schema) -> ToolSpec {
    ToolSpec::with_input_schema(name.to_owned(), input_schema_with(json_schema))
}

/// A parameter of a tool whose input schema [`tool_spec_of`] writes: what
/// `#[derive(JsonSchema)]` on its argument struct would have said of it.
#[derive(Clone, Copy)]
pub struct Property {
    /// The name on the wire.
    name: &'static str,
    /// The doc comment, lines joined by `\n` (one leading space of each
    /// taken off), as schemars reads it; empty when there is none.
    doc: &'static str,
    /// The schema of the argument struct's field type.
    schema: fn(&mut SchemaGenerator) -> Schema,
    /// Whether the field type is an `Option` (left out of `required`).
    is_option: fn() -> bool,
}

/// The [`Property`] named `name` on the wire, of argument type `T`, whose
/// doc comment is `doc` (lines joined by `\n`, one leading space of each
/// taken off, as schemars reads it; empty when there is none). One instance
/// per argument type, shared by every tool taking it.
pub fn property<T: JsonSchema>(name: &'static str, doc: &'static str) -> Property {
    Property { name, doc, schema: SchemaGenerator::subschema_for::<T>, is_option: T::_schemars_private_is_option }
}

impl std::fmt::Debug for Property {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Property").field("name", &self.name).field("doc", &self.doc).finish_non_exhaustive()
    }
}

/// [`tool_spec`] of a tool whose parameters are `properties` (each with no
/// attribute but its doc comment): the schema `#[derive(JsonSchema)]` would
/// give its argument struct, written without one, so that a tool's
/// expansion compiles no schema code (and runs no derive) of its own. With
/// `deny_unknown`, `additionalProperties` is `false`.
pub fn tool_spec_of(name: &str, properties: &[Property], deny_unknown: bool) -> ToolSpec {
    let schema = input_schema_with(|generator| object_schema(generator, properties, deny_unknown));
    ToolSpec::with_input_schema(name.to_owned(), schema)
}

/// What the derive's `json_schema` of a struct with named fields does: the
/// object, then each field's schema with its doc comment's title and
/// description, inserted in turn.
fn object_schema(generator: &mut SchemaGenerator, properties: &[Property], deny_unknown: bool) -> Schema {
    let mut schema = if deny_unknown {
        schemars::json_schema!({ "type": "object", "additionalProperties": false })
    } else {
        schemars::json_schema!({ "type": "object" })
    };
    for property in properties {
        let mut field = (property.schema)(generator);
        if !property.doc.is_empty() {
            let (title, description) = schemars::_private::get_title_and_description(property.doc);
            schemars::_private::insert_metadata_property_if_nonempty(&mut field, "title", title);
            schemars::_private::insert_metadata_property_if_nonempty(&mut field, "description", description);
        }
        let optional = generator.contract().is_deserialize() && (property.is_option)();
        schemars::_private::insert_object_property(&mut schema, property.name, optional, field);
    }
    schema
}

/// The spec in `cell`, built by `build` on first use. One instance per spec
/// type for the whole program (`build` is a function pointer, not a closure
/// type of each item), so an item's expansion compiles no `OnceLock` code.
pub fn spec_once<T: Send + Sync>(cell: &'static OnceLock<T>, build: fn() -> T) -> &'static T {
    cell.get_or_init(build)
}

/// The behaviour hints of `#[tool(read_only, destructive, idempotent, open_world)]`.
pub fn annotations(
    read_only: Option<bool>,
    destructive: Option<bool>,
    idempotent: Option<bool>,
    open_world: Option<bool>,
) -> ToolAnnotations {
    let mut annotations = ToolAnnotations::new();
    annotations.read_only_hint = read_only;
    annotations.destructive_hint = destructive;
    annotations.idempotent_hint = idempotent;
    annotations.open_world_hint = open_world;
    annotations
}

/// A sync tool's call: `body` run with `call` on tokio's blocking pool (see
/// `run_blocking`). `body` is a function pointer, not a closure type of
/// each tool, so a tool's expansion compiles no boxed closure of its own (no
/// `Box::new`, vtable or drop glue per tool): only `body`.
pub fn call_blocking(call: ToolCall, body: fn(ToolCall) -> ToolResult) -> ToolFuture {
    run_blocking(Box::new(move || body(call)))
}

/// [`call_blocking`] for `#[tool(inline)]`: `body` run on the async worker
/// (see `run_inline`).
pub fn call_inline(call: ToolCall, body: fn(ToolCall) -> ToolResult) -> ToolFuture {
    run_inline(Box::new(move || body(call)))
}

/// A sync `#[toolbox]` method's call: `body` run with the receiver `this` and
/// `call` on tokio's blocking pool. One instance per receiver type, shared by
/// the struct's tools.
pub fn method_blocking<T: Send + Sync + 'static>(
    this: Arc<T>,
    call: ToolCall,
    body: fn(Arc<T>, ToolCall) -> ToolResult,
) -> ToolFuture {
    run_blocking(Box::new(move || body(this, call)))
}

/// [`method_blocking`] for `#[tool(inline)]`: `body` run on the async worker.
pub fn method_inline<T: Send + Sync + 'static>(
    this: Arc<T>,
    call: ToolCall,
    body: fn(Arc<T>, ToolCall) -> ToolResult,
) -> ToolFuture {
    run_inline(Box::new(move || body(this, call)))
}
