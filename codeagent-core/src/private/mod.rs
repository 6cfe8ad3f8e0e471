//! What the `#[tool]`, `#[toolbox]`, `#[resource]` and `#[prompt]`
//! expansions refer to, and nothing else does. Not a public API: it changes
//! without notice.

pub mod check;
pub mod prompt;
pub mod resource;

pub use crate::toolbox::decode::decode_arguments;
pub use crate::toolbox::fields::Fields;
pub use crate::toolbox::param::{Injected, ToolParam};
pub use crate::toolbox::run::{run_blocking, run_inline};

use std::sync::OnceLock;

use schemars::{Schema, SchemaGenerator};

use crate::mcp::ToolAnnotations;
use crate::toolbox::ToolSpec;
use crate::toolbox::schema::input_schema_with;

/// [`ToolSpec::new`] of the argument struct whose `JsonSchema::json_schema`
/// is `json_schema`: not generic, so a tool's expansion compiles no schema
/// generation of its own (only its struct's derived `json_schema`).
pub fn tool_spec(name: &str, json_schema: fn(&mut SchemaGenerator) -> Schema) -> ToolSpec {
    ToolSpec::with_input_schema(name.to_owned(), input_schema_with(json_schema))
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
