//! What the `#[tool]` and `#[toolbox]` expansions refer to, and nothing else
//! does. Not a public API: it changes without notice.

pub mod check;

pub use crate::toolbox::decode::decode_arguments;
pub use crate::toolbox::param::{Injected, ToolParam};
pub use crate::toolbox::run::{run_blocking, run_inline};
