//! What the `#[prompt]` expansion calls: the arguments from the parameters'
//! types, their values for one get, and the lowering of the return value.

use std::any::type_name;

use super::check::Checked;
use crate::toolbox::{
    Completer, Context, IntoMessages, PromptArgument, PromptError, PromptGet, PromptMessage, PromptSpec, State,
};

/// A parameter of a prompt function: an argument (`String` required,
/// `Option<String>` optional) or injected (`&Context`, `State<T>`).
pub trait PromptParam<'a>: Sized {
    /// `Some(required)` for an argument, `None` for an injected value.
    const REQUIRED: Option<bool>;

    /// The value for `get`, whose arguments the toolbox has checked.
    ///
    /// # Errors
    ///
    /// When the toolbox has no value to inject (a `State<T>` it was not given).
    fn resolve(get: &'a PromptGet, name: &str) -> Result<Self, PromptError>;
}

impl PromptParam<'_> for String {
    const REQUIRED: Option<bool> = Some(true);

    fn resolve(get: &PromptGet, name: &str) -> Result<Self, PromptError> {
        Ok(get.argument(name).unwrap_or_default().to_owned())
    }
}

impl PromptParam<'_> for Option<String> {
    const REQUIRED: Option<bool> = Some(false);

    fn resolve(get: &PromptGet, name: &str) -> Result<Self, PromptError> {
        Ok(get.argument(name).map(str::to_owned))
    }
}

impl<'a> PromptParam<'a> for &'a Context {
    const REQUIRED: Option<bool> = None;

    fn resolve(get: &'a PromptGet, _: &str) -> Result<Self, PromptError> {
        Ok(get.context())
    }
}

impl PromptParam<'_> for Context {
    const REQUIRED: Option<bool> = None;

    fn resolve(get: &PromptGet, _: &str) -> Result<Self, PromptError> {
        Ok(get.context().clone())
    }
}

impl<S: Send + Sync + 'static> PromptParam<'_> for State<S> {
    const REQUIRED: Option<bool> = None;

    fn resolve(get: &PromptGet, _: &str) -> Result<Self, PromptError> {
        get.state::<S>().ok_or_else(|| {
            PromptError::failed(format!(
                "this prompt needs shared state of type `{}`, but the toolbox has none; add it with \
                 `Toolbox::with_state`",
                type_name::<S>()
            ))
        })
    }
}

/// The types a prompt parameter can have: [`PromptParam`] without its lifetime.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a prompt parameter",
    label = "a prompt argument is a `String` or an `Option<String>`; only `&Context` and `State<T>` are injected",
    note = "prompt arguments are strings on the wire: take `String` (required) or `Option<String>` (optional), \
            and parse in the body"
)]
pub trait PromptParamType {}

impl PromptParamType for String {}
impl PromptParamType for Option<String> {}
impl PromptParamType for &Context {}
impl PromptParamType for Context {}
impl<S: Send + Sync + 'static> PromptParamType for State<S> {}

/// The check of a prompt parameter's type.
#[must_use]
pub const fn prompt_param<T: PromptParamType>() -> bool {
    true
}

/// The check of a prompt's return type.
#[must_use]
pub const fn messages<R: IntoMessages>() -> bool {
    true
}

/// A checked prompt parameter.
pub trait CheckedPromptParam<'a> {
    /// The parameter's type.
    type Param;

    /// `spec` with the argument this parameter declares, when it is one.
    fn add_to(spec: PromptSpec, name: &str, description: &str, completer: Option<Completer>) -> PromptSpec;

    /// See [`PromptParam::resolve`].
    ///
    /// # Errors
    ///
    /// See [`PromptParam::resolve`].
    fn resolve(get: &'a PromptGet, name: &str) -> Result<Self::Param, PromptError>;
}

impl<'a, T: PromptParam<'a>, const OK: bool> CheckedPromptParam<'a> for Checked<T, OK> {
    type Param = T;

    fn add_to(spec: PromptSpec, name: &str, description: &str, completer: Option<Completer>) -> PromptSpec {
        let argument = match T::REQUIRED {
            None => return spec,
            Some(true) => PromptArgument::required(name),
            Some(false) => PromptArgument::optional(name),
        };
        let argument = argument.with_description(description);
        spec.with_argument(match completer {
            Some(completer) => argument.with_completer(completer),
            None => argument,
        })
    }

    fn resolve(get: &'a PromptGet, name: &str) -> Result<T, PromptError> {
        T::resolve(get, name)
    }
}

/// A checked return type of a prompt.
pub trait CheckedMessages {
    /// The return type.
    type Value;

    /// Lowers the function's return value into messages.
    ///
    /// # Errors
    ///
    /// When the value is an error, or cannot be lowered.
    fn lower(value: Self::Value) -> Result<Vec<PromptMessage>, PromptError>;
}

impl<R: IntoMessages, const OK: bool> CheckedMessages for Checked<R, OK> {
    type Value = R;

    fn lower(value: R) -> Result<Vec<PromptMessage>, PromptError> {
        value.into_messages()
    }
}
