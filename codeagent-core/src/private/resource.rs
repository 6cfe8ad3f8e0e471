//! What the `#[resource]` expansion calls: the spec from the checked URI, the
//! template variables parsed into the parameters' types, the injected
//! parameters, and the lowering of the return value.

use std::any::type_name;
use std::fmt::Display;
use std::marker::PhantomData;
use std::str::FromStr;

use super::check::Checked;
use crate::mcp::ResourceContents;
use crate::toolbox::{Context, IntoContents, ResourceError, ResourceRead, ResourceSpec, State};
use crate::uri_template::UriTemplate;

/// The spec of the resource at `uri`: a fixed URI when it has no expression,
/// else a template.
///
/// # Panics
///
/// When `uri` is refused; the macro checked it when the program was built.
#[must_use]
pub fn resource_spec(uri: &str, name: &str) -> ResourceSpec {
    let literal = UriTemplate::parse(uri).is_ok_and(|template| template.is_literal());
    let spec = if literal { ResourceSpec::fixed(uri, name) } else { ResourceSpec::template(uri, name) };
    spec.unwrap_or_else(|error| panic!("{error}"))
}

/// A type a template variable is parsed into: anything `FromStr` whose
/// error displays.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a template variable",
    label = "a template variable is parsed with `FromStr`",
    note = "take a `String`, a number or another `FromStr` type, or `Option<T>` for a variable the URI may leave out"
)]
pub trait TemplateVariable: Sized {
    /// Parses `text`, the variable's decoded value.
    fn from_variable(text: &str) -> Result<Self, String>;
}

impl<T: FromStr> TemplateVariable for T
where
    T::Err: Display,
{
    fn from_variable(text: &str) -> Result<Self, String> {
        text.parse().map_err(|error: T::Err| error.to_string())
    }
}

/// The parser of a template variable of type `T`: `Option<T>` may be absent
/// (an inherent method, chosen first), any other type must be given
/// ([`RequiredVariable`]).
pub struct Variable<T>(PhantomData<T>);

impl<T> Variable<T> {
    /// The parser.
    #[must_use]
    pub const fn new() -> Self {
        Variable(PhantomData)
    }
}

impl<T> Default for Variable<T> {
    fn default() -> Self {
        Variable::new()
    }
}

fn parsed<T: TemplateVariable>(name: &str, text: &str) -> Result<T, ResourceError> {
    T::from_variable(text).map_err(|error| {
        ResourceError::failed(format!("invalid value `{text}` for the template variable `{name}`: {error}"))
    })
}

impl<T> Variable<Option<T>> {
    /// Variable `name` of `read`, `None` when the URI leaves it out.
    ///
    /// # Errors
    ///
    /// When the value does not parse.
    pub fn parse(&self, read: &ResourceRead, name: &str) -> Result<Option<T>, ResourceError>
    where
        T: TemplateVariable,
    {
        read.variable(name).map(|text| parsed(name, text)).transpose()
    }
}

/// The parser of a variable the URI must give.
pub trait RequiredVariable<T> {
    /// Variable `name` of `read`.
    ///
    /// # Errors
    ///
    /// When the URI leaves it out or the value does not parse.
    fn parse(&self, read: &ResourceRead, name: &str) -> Result<T, ResourceError>
    where
        T: TemplateVariable;
}

impl<T> RequiredVariable<T> for Variable<T> {
    fn parse(&self, read: &ResourceRead, name: &str) -> Result<T, ResourceError>
    where
        T: TemplateVariable,
    {
        let text = read.variable(name).ok_or_else(|| {
            ResourceError::failed(format!(
                "the URI `{}` gives no value for the template variable `{name}`; take an `Option` for a variable \
                 that may be absent",
                read.uri()
            ))
        })?;
        parsed(name, text)
    }
}

/// A parameter of a resource function that is not a template variable: the
/// server provides it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a resource parameter",
    label = "not a template variable of the URI, and not injected (`&Context`, `State<T>`, `ResourceRead`)",
    note = "name the parameter like a variable of the `uri` template, or take `&Context`, `State<T>` or `ResourceRead`"
)]
pub trait Injectable {}

impl Injectable for &Context {}
impl Injectable for Context {}
impl Injectable for ResourceRead {}
impl<S: Send + Sync + 'static> Injectable for State<S> {}

/// An injected parameter: its value for one read.
pub trait ResourceParam<'a>: Sized {
    /// The value for `read`.
    ///
    /// # Errors
    ///
    /// When the toolbox has no value to inject (a `State<T>` it was not given).
    fn resolve(read: &'a ResourceRead) -> Result<Self, ResourceError>;
}

impl<'a> ResourceParam<'a> for &'a Context {
    fn resolve(read: &'a ResourceRead) -> Result<Self, ResourceError> {
        Ok(read.context())
    }
}

impl ResourceParam<'_> for Context {
    fn resolve(read: &ResourceRead) -> Result<Self, ResourceError> {
        Ok(read.context().clone())
    }
}

impl ResourceParam<'_> for ResourceRead {
    fn resolve(read: &ResourceRead) -> Result<Self, ResourceError> {
        Ok(read.duplicate())
    }
}

impl<S: Send + Sync + 'static> ResourceParam<'_> for State<S> {
    fn resolve(read: &ResourceRead) -> Result<Self, ResourceError> {
        read.state::<S>().ok_or_else(|| {
            ResourceError::failed(format!(
                "this resource needs shared state of type `{}`, but the toolbox has none; add it with \
                 `Toolbox::with_state`",
                type_name::<S>()
            ))
        })
    }
}

/// The check of an injected parameter's type.
#[must_use]
pub const fn injectable<T: Injectable>() -> bool {
    true
}

/// The check of a resource's return type.
#[must_use]
pub const fn contents<R: IntoContents>() -> bool {
    true
}

/// A checked injected parameter.
pub trait CheckedResourceParam<'a> {
    /// The parameter's type.
    type Param;

    /// See [`ResourceParam::resolve`].
    ///
    /// # Errors
    ///
    /// See [`ResourceParam::resolve`].
    fn resolve(read: &'a ResourceRead) -> Result<Self::Param, ResourceError>;
}

impl<'a, T: ResourceParam<'a>, const OK: bool> CheckedResourceParam<'a> for Checked<T, OK> {
    type Param = T;

    fn resolve(read: &'a ResourceRead) -> Result<T, ResourceError> {
        T::resolve(read)
    }
}

/// A checked return type of a resource.
pub trait CheckedContents {
    /// The return type.
    type Value;

    /// Lowers the function's return value into the contents of `uri`.
    ///
    /// # Errors
    ///
    /// When the value is an error, or cannot be lowered.
    fn lower(value: Self::Value, uri: &str, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError>;
}

impl<R: IntoContents, const OK: bool> CheckedContents for Checked<R, OK> {
    type Value = R;

    fn lower(value: R, uri: &str, mime_type: Option<&str>) -> Result<Vec<ResourceContents>, ResourceError> {
        value.into_contents(uri, mime_type)
    }
}
