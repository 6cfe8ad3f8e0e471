//! What the `#[tool]`, `#[toolbox]`, `#[resource]` and `#[prompt]`
//! expansions refer to, and nothing else does. Not a public API: it changes
//! without notice.

pub mod check;
pub mod prompt;
pub mod resource;

pub use crate::toolbox::decode::decode_arguments;
pub use crate::toolbox::param::{Injected, ToolParam};
pub use crate::toolbox::run::{run_blocking, run_inline};

use crate::mcp::ToolAnnotations;

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
