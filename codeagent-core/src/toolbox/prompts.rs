//! A toolbox's prompts, as [`Toolbox::prompts`] gives them.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};
use tokio::sync::watch;

use super::completion::{Completion, guarded};
use super::errors::{CompleteError, DuplicatePrompt, InvalidCursor};
use super::listing::{Page, wire_page_of};
use super::prompt::{Prompt, PromptError, PromptFuture, PromptGet, PromptMessage, PromptSpec};
use super::run::CatchPanic;
use super::{Context, Toolbox};
use crate::mcp::ProtocolVersion;

/// The prompts of a [`Toolbox`], in the order they were added, shared by
/// every clone of it. The same words as [`Tools`](crate::tools::Tools) and
/// [`Resources`](crate::resources::Resources): `try_add`, `remove`, `list`, `get`,
/// `start`, `changes` (the toolbox's builder [`Toolbox::prompt`] adds).
///
/// ```
/// # use codeagent_core::toolbox::Toolbox;
/// let toolbox = Toolbox::new();
/// assert!(toolbox.prompts().is_empty());
/// assert!(toolbox.prompts().list(None).unwrap().items.is_empty());
/// ```
#[derive(Clone, Copy)]
pub struct Prompts<'a> {
    toolbox: &'a Toolbox,
}

impl<'a> Prompts<'a> {
    pub(super) fn new(toolbox: &'a Toolbox) -> Self {
        Prompts { toolbox }
    }

    /// Adds a prompt, refusing a name that is taken. Servers serving this
    /// toolbox tell their clients the prompt list changed.
    pub fn try_add(self, prompt: impl Prompt) -> Result<(), DuplicatePrompt> {
        self.toolbox.registry.prompts.add(Arc::new(prompt)).map_err(DuplicatePrompt::new)
    }

    /// Removes the prompt called `name`; whether there was one.
    pub fn remove(self, name: &str) -> bool {
        self.toolbox.registry.prompts.remove(name)
    }

    /// One page of the prompts' descriptions, from `cursor` (none for the
    /// first page).
    pub fn list(self, cursor: Option<&str>) -> Result<Page<PromptSpec>, InvalidCursor> {
        let prompts = self.toolbox.registry.prompts.snapshot();
        let config = &self.toolbox.config;
        Page::of(prompts.items(), cursor, config.page_size, config.cache, |prompt| prompt.spec().clone())
    }

    /// Every prompt's description, in the order they were added.
    pub fn specs(self) -> Vec<PromptSpec> {
        self.toolbox.registry.prompts.snapshot().items().iter().map(|prompt| prompt.spec().clone()).collect()
    }

    /// Whether there is no prompt.
    pub fn is_empty(self) -> bool {
        self.toolbox.registry.prompts.snapshot().items().is_empty()
    }

    /// The messages of prompt `name` for `arguments`, detached from any client.
    pub async fn get<K: Into<String>, V: Into<String>>(
        self,
        name: &str,
        arguments: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Vec<PromptMessage>, PromptError> {
        let arguments: Map<String, Value> =
            arguments.into_iter().map(|(key, value)| (key.into(), Value::String(value.into()))).collect();
        self.start(name, Some(&arguments), Context::detached())?.await
    }

    /// Finds prompt `name`, checks `arguments` against its spec (a missing
    /// required or an unknown argument is refused, naming it) and starts
    /// making its messages in `context`. A panic is a failure of the prompt.
    pub fn start(
        self,
        name: &str,
        arguments: Option<&Map<String, Value>>,
        context: Context,
    ) -> Result<PromptFuture, PromptError> {
        let prompts = self.toolbox.registry.prompts.snapshot();
        let prompt = prompts.find(name).ok_or_else(|| PromptError::UnknownPrompt(name.to_owned()))?;
        let checked = prompt.spec().check_arguments(arguments)?;
        Ok(Box::pin(CatchPanic::new(
            prompt.get(PromptGet::new(checked, context, Arc::clone(&self.toolbox.config.state))),
            |message| Err(PromptError::failed(format!("The prompt failed unexpectedly (it panicked: {message})"))),
        )))
    }

    /// The OAuth scopes a get of prompt `name` needs (none for an unknown prompt).
    pub fn scopes(self, name: &str) -> Vec<String> {
        let prompts = self.toolbox.registry.prompts.snapshot();
        prompts.find(name).map(|prompt| prompt.spec().scopes().to_vec()).unwrap_or_default()
    }

    /// A receiver that changes whenever prompts are added or removed.
    pub fn changes(self) -> watch::Receiver<u64> {
        self.toolbox.registry.prompts.changes()
    }

    /// Completes `typed` for argument `argument` of prompt `prompt`, given
    /// the other arguments `given`. An argument without a completer gets no
    /// suggestion.
    pub fn complete(
        self,
        prompt: &str,
        argument: &str,
        typed: &str,
        given: &BTreeMap<String, String>,
    ) -> Result<Completion, CompleteError> {
        let prompts = self.toolbox.registry.prompts.snapshot();
        let spec = prompts
            .find(prompt)
            .map(|known| known.spec())
            .ok_or_else(|| CompleteError::UnknownPrompt(prompt.to_owned()))?;
        let argument = spec.arguments().iter().find(|known| known.name() == argument).ok_or_else(|| {
            CompleteError::UnknownArgument { reference: prompt.to_owned(), argument: argument.to_owned() }
        })?;
        guarded(argument.completer(), typed, given)
    }

    /// A page of `prompts/list` for `version`.
    pub(crate) fn wire_page(self, version: ProtocolVersion, cursor: Option<&str>) -> Result<Value, InvalidCursor> {
        let prompts = self.toolbox.registry.prompts.snapshot();
        let wire: Vec<Value> = prompts.items().iter().map(|prompt| prompt.spec().to_wire(version)).collect();
        let config = &self.toolbox.config;
        wire_page_of(version, "prompts", &wire, cursor, config.page_size, config.cache)
    }
}
