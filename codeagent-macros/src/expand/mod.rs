//! Stage three, expand: the tokens of a valid definition. Everything the
//! expansion names goes through the runtime's hidden module
//! (`codeagent::__private`, or the `crate = "..."` override's), and the type
//! checks left to the compiler are `const` items spanned on the user's types.

/// A tool's arguments struct.
mod args_struct;
/// A tool's call body.
mod call;
/// A tool's type checks.
mod checks;
/// The `Deref` that keeps a name callable.
pub(crate) mod deref;
/// Decoding a tool's arguments field by field.
mod fields;
/// Generated tokens at the item's name.
mod home;
/// Naming elided lifetimes.
mod lifetime;
/// `#[prompt]`'s tokens.
pub(crate) mod prompt;
/// `#[resource]`'s tokens.
pub(crate) mod resource;
/// Paths into the runtime.
pub(crate) mod runtime;
/// `#[tool]`'s tokens.
pub(crate) mod tool;
/// A tool's spec.
mod tool_spec;
/// `#[toolbox]`'s tokens.
pub(crate) mod toolbox;
/// The unit struct of a resource or prompt.
mod unit_struct;
