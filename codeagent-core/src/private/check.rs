//! Compile-time checks that the `#[tool]` expansion runs on each parameter
//! type and on the return type.
//!
//! Each check is a `const` whose initializer calls one of the `const fn`s
//! below, spanned on the user's type, so a failed check is reported once, on
//! that type, with the trait's `#[diagnostic::on_unimplemented]` hint. The
//! rest of the expansion names the type only through [`Checked<T, OK>`], with
//! that `const` as `OK`: when the check fails, `OK` is an error, every type
//! and bound built on it is an error too, and the compiler reports nothing
//! more about it. That is what keeps a bad parameter type from cascading into
//! errors inside the derived argument struct, the call and the listing.
//!
//! Not a public API: only the expansion uses it.

use std::convert::Infallible;
use std::marker::PhantomData;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::output::{IntoToolResult, ToolError};
use crate::result::ToolResult;
use crate::toolbox::param::ToolParam;
use crate::toolbox::{Context, State, ToolCall};

/// A type whose check gave `OK`. Never constructed; only its trait impls are used.
pub struct Checked<T, const OK: bool>(PhantomData<T>, Infallible);

/// The first half of a parameter's check: the client can send it or the
/// server injects it. The second half, [`Param`], adds the schema; checking
/// them in turn reports a type that has neither `Deserialize` nor
/// `JsonSchema` once instead of twice.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "not an argument (`Deserialize + JsonSchema`) and not injected (`&Context`, `State<T>`)",
    note = "derive `serde::Deserialize` and `schemars::JsonSchema` for argument types, \
            or take `&Context` / `State<T>` for what the server provides"
)]
pub trait Decodable {}

impl<T: DeserializeOwned> Decodable for T {}
impl Decodable for Context {}
impl Decodable for &Context {}
impl<S: Send + Sync + 'static> Decodable for State<S> {}

/// The first half of a check of a parameter written as a reference: only
/// injected values are passed by reference.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "arguments are owned values; only `&Context` is passed by reference",
    note = "take an owned type such as `String` or `Vec<T>`: arguments are decoded from JSON for each call"
)]
pub trait Borrowed {}

impl Borrowed for &Context {}

/// A complete tool parameter, checked once [`Decodable`] passed (`DECODES`).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "not an argument (`Deserialize + JsonSchema`) and not injected (`&Context`, `State<T>`)",
    note = "derive `serde::Deserialize` and `schemars::JsonSchema` for argument types, \
            or take `&Context` / `State<T>` for what the server provides"
)]
pub trait Param<const DECODES: bool> {}

impl<T: ToolParam<'static>, const DECODES: bool> Param<DECODES> for T {}

/// The first half of a parameter type's check.
#[must_use]
pub const fn decodable<T: Decodable>() -> bool {
    true
}

/// The first half of a check of a parameter written as a reference.
#[must_use]
pub const fn borrowed<T: Borrowed>() -> bool {
    true
}

/// The second half of a parameter type's check, given the first.
#[must_use]
pub const fn param<T: Param<DECODES>, const DECODES: bool>() -> bool {
    true
}

/// The check of a return type.
#[must_use]
pub const fn output<R: IntoToolResult>() -> bool {
    true
}

/// A checked parameter type: what the argument struct holds for it, and how
/// the call turns that into the value.
pub trait CheckedParam<'a> {
    /// The parameter's type.
    type Param;
    /// The argument struct's field type.
    type Arg;

    /// See [`ToolParam::resolve`].
    fn resolve(arg: Self::Arg, call: &'a ToolCall) -> Result<Self::Param, ToolError>;
}

impl<'a, T: ToolParam<'a>, const OK: bool> CheckedParam<'a> for Checked<T, OK> {
    type Param = T;
    type Arg = T::Arg;

    fn resolve(arg: T::Arg, call: &'a ToolCall) -> Result<T, ToolError> {
        T::resolve(arg, call)
    }
}

/// A checked return type: how a value of it lowers.
pub trait CheckedOutput {
    /// The return type.
    type Value;

    /// Lowers the tool's return value.
    fn lower(value: Self::Value) -> ToolResult;
}

impl<R: IntoToolResult, const OK: bool> CheckedOutput for Checked<R, OK> {
    type Value = R;

    fn lower(value: R) -> ToolResult {
        value.into_tool_result()
    }
}

impl<R: IntoToolResult, const OK: bool> IntoToolResult for Checked<R, OK> {
    fn into_tool_result(self) -> ToolResult {
        match self.1 {}
    }

    fn output_schema() -> Option<Value> {
        R::output_schema()
    }

    fn is_rich() -> bool {
        R::is_rich()
    }
}
