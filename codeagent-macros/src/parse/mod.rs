//! Stage one, parse: the attribute's arguments and the item it goes on,
//! read into a typed definition that keeps the original tokens for spans.
//!
//! Parsing judges only syntax: a key that is not an argument, a value of
//! the wrong form. What the definition means (may a tool be generic? does
//! the URI template name every parameter?) is `validate`'s. Every problem
//! goes to the shared [`Errors`](crate::errors::Errors), and parsing goes
//! on, so the next stages still see the rest of the definition.

/// Doc comments as descriptions.
mod docs;
/// The form types a tool's body elicits.
mod forms;
/// `#[resource(...)]` and `#[prompt(...)]` arguments.
pub(crate) mod item_args;
/// What all attribute arguments share.
pub(crate) mod keys;
/// `#[prompt]`'s definition.
pub(crate) mod prompt;
/// `#[serde(rename)]` on a parameter.
mod rename;
/// `#[resource]`'s definition.
pub(crate) mod resource;
/// The function front end all macros share.
pub(crate) mod signature;
/// `#[tool]`'s definition.
pub(crate) mod tool;
/// `#[tool(...)]` arguments.
pub(crate) mod tool_args;
/// `#[toolbox]`'s definition.
pub(crate) mod toolbox;
/// `#[toolbox(...)]` arguments.
mod toolbox_args;

pub(crate) use docs::doc_text;
