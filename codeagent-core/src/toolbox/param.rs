//! Tool parameters: arguments the client sends, or values the server injects.

use std::any::{Any, TypeId, type_name};
use std::collections::HashMap;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde_json::{Map, Value, json};

use super::Context;
use crate::output::ToolError;

/// A type a tool function can take as a parameter.
///
/// Every `T: DeserializeOwned + JsonSchema` is an *argument*: the client sends
/// it and it appears in the input schema. [`Context`], `&Context` and
/// [`State<S>`] are *injected*: the server supplies them and they stay out of
/// the schema. The distinction is made by this trait, never by a parameter's
/// name, so type aliases and renamed imports work.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool parameter",
    label = "not an argument (`Deserialize + JsonSchema`) and not injected (`&Context`, `State<T>`)",
    note = "derive `serde::Deserialize` and `schemars::JsonSchema` for argument types, \
            or take `&Context` / `State<T>` for what the server provides"
)]
pub trait ToolParam<'a>: Sized {
    /// What the generated argument struct holds for this parameter: the value
    /// itself for arguments, [`Injected`] otherwise.
    type Arg;

    /// Turns the decoded field into the parameter's value.
    fn resolve(arg: Self::Arg, call: &'a ToolCall) -> Result<Self, ToolError>;
}

impl<'a, T: DeserializeOwned + JsonSchema> ToolParam<'a> for T {
    type Arg = T;

    fn resolve(arg: T, _: &'a ToolCall) -> Result<T, ToolError> {
        Ok(arg)
    }
}

impl<'a> ToolParam<'a> for &'a Context {
    type Arg = Injected;

    fn resolve(_: Injected, call: &'a ToolCall) -> Result<Self, ToolError> {
        Ok(&call.context)
    }
}

impl<'a> ToolParam<'a> for Context {
    type Arg = Injected;

    fn resolve(_: Injected, call: &'a ToolCall) -> Result<Self, ToolError> {
        Ok(call.context.clone())
    }
}

impl<'a, S: Send + Sync + 'static> ToolParam<'a> for State<S> {
    type Arg = Injected;

    fn resolve(_: Injected, call: &'a ToolCall) -> Result<Self, ToolError> {
        call.state.get::<S>().map(State).ok_or_else(|| {
            ToolError::new(format!(
                "this tool needs shared state of type `{}`, but the toolbox has none; add it with `Toolbox::with_state`",
                type_name::<S>()
            ))
        })
    }
}

/// The placeholder an injected parameter has in the generated argument struct.
///
/// It is absent from the input schema, accepts a missing field, and refuses a
/// value a client tries to send in its place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Injected;

/// The marker an [`Injected`] field leaves in a generated schema, removed
/// before the schema is published.
pub(crate) const INJECTED_MARKER: &str = "x-codeagent-injected";

impl<'de> Deserialize<'de> for Injected {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Absent;

        impl<'de> Visitor<'de> for Absent {
            type Value = Injected;

            fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                formatter.write_str("no value: this parameter is supplied by the server, not the client")
            }

            fn visit_none<E: de::Error>(self) -> Result<Injected, E> {
                Ok(Injected)
            }

            fn visit_unit<E: de::Error>(self) -> Result<Injected, E> {
                Ok(Injected)
            }

            fn visit_some<D: Deserializer<'de>>(self, _: D) -> Result<Injected, D::Error> {
                Err(de::Error::custom("this parameter is supplied by the server, not the client: leave it out"))
            }
        }

        deserializer.deserialize_option(Absent)
    }
}

impl JsonSchema for Injected {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Injected".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        json!({ INJECTED_MARKER: true }).try_into().unwrap_or_default()
    }
}

/// Shared state injected into tools: declare `state: State<MyState>` and the
/// value given to [`Toolbox::with_state`](super::Toolbox::with_state) is passed in.
pub struct State<S>(pub Arc<S>);

impl<S> Deref for State<S> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.0
    }
}

impl<S> Clone for State<S> {
    fn clone(&self) -> Self {
        State(Arc::clone(&self.0))
    }
}

impl<S: fmt::Debug> fmt::Debug for State<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("State").field(&self.0).finish()
    }
}

/// Shared state by type.
#[derive(Clone, Default, Debug)]
pub(crate) struct StateMap {
    values: HashMap<TypeId, Arc<dyn Any + Send + Sync>>,
}

impl StateMap {
    pub(crate) fn insert<S: Send + Sync + 'static>(&mut self, value: S) {
        self.values.insert(TypeId::of::<S>(), Arc::new(value));
    }

    pub(crate) fn get<S: Send + Sync + 'static>(&self) -> Option<Arc<S>> {
        self.values.get(&TypeId::of::<S>()).cloned()?.downcast::<S>().ok()
    }
}

/// One call of a tool: its arguments, the request context and the toolbox's
/// shared state.
pub struct ToolCall {
    pub(crate) arguments: Map<String, Value>,
    pub(crate) context: Context,
    pub(crate) state: Arc<StateMap>,
}

impl ToolCall {
    /// The request context.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The arguments, as the client sent them.
    pub fn arguments(&self) -> &Map<String, Value> {
        &self.arguments
    }

    /// Takes the arguments out, leaving an empty map.
    pub fn take_arguments(&mut self) -> Map<String, Value> {
        std::mem::take(&mut self.arguments)
    }
}
