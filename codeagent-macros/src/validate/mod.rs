//! Stage two, validate: every rule a parsed definition must keep, each
//! recorded in the shared [`Errors`](crate::errors::Errors) and spanned on
//! the token at fault, so a bad definition is reported once per problem.
//!
//! The signature rules all four macros share are in [`signature`]; each
//! macro's file adds its own rules. Type rules (a parameter that is not an
//! argument, a return type that does not lower) are left to the compiler,
//! through checks the expansion spans on the offending type.

/// A prompt's rules.
pub(crate) mod prompt;
/// A resource's rules.
pub(crate) mod resource;
/// The signature rules all four macros share.
pub(crate) mod signature;
/// A tool's rules.
pub(crate) mod tool;
/// MCP's tool-name rule.
mod tool_name;
/// A toolbox's rules.
pub(crate) mod toolbox;
