//! The static description of a prompt and its arguments, their checks, and
//! their wire forms per version.

use std::collections::BTreeMap;
use std::future::Future;

use serde_json::{Map, Value, json};

use super::function::FnPrompt;
use super::{IntoMessages, PromptError, PromptGet};
use crate::mcp::{Icon, ProtocolVersion};
use crate::toolbox::completion::Completer;

/// A prompt's name, presentation and arguments.
#[derive(Clone, Debug)]
pub struct PromptSpec {
    name: String,
    title: Option<String>,
    description: Option<String>,
    arguments: Vec<PromptArgument>,
    icons: Vec<Icon>,
    meta: Option<Map<String, Value>>,
    scopes: Vec<String>,
}

/// One argument of a prompt: always a string.
#[derive(Clone, Debug)]
pub struct PromptArgument {
    name: String,
    title: Option<String>,
    description: Option<String>,
    required: bool,
    completer: Option<Completer>,
}

impl PromptArgument {
    /// An argument the client must give.
    pub fn required(name: impl Into<String>) -> Self {
        PromptArgument { name: name.into(), title: None, description: None, required: true, completer: None }
    }

    /// An argument the client may leave out.
    pub fn optional(name: impl Into<String>) -> Self {
        PromptArgument { required: false, ..PromptArgument::required(name) }
    }

    /// Sets the display title (sent from 2025-06-18).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        let description = description.into();
        self.description = (!description.is_empty()).then_some(description);
        self
    }

    /// Suggests values for this argument (`completion/complete`).
    #[must_use]
    pub fn with_completer(mut self, completer: Completer) -> Self {
        self.completer = Some(completer);
        self
    }

    /// The argument's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the client must give it.
    pub fn is_required(&self) -> bool {
        self.required
    }

    /// The completer, when one is attached.
    pub fn completer(&self) -> Option<&Completer> {
        self.completer.as_ref()
    }

    fn to_wire(&self, version: ProtocolVersion) -> Value {
        let mut entry = Map::new();
        entry.insert("name".into(), Value::from(self.name.as_str()));
        if let Some(title) = self.title.as_ref().filter(|_| version.has_structured_content()) {
            entry.insert("title".into(), Value::from(title.as_str()));
        }
        if let Some(description) = &self.description {
            entry.insert("description".into(), Value::from(description.as_str()));
        }
        entry.insert("required".into(), Value::Bool(self.required));
        Value::Object(entry)
    }
}

impl PromptSpec {
    /// A prompt called `name`, with no arguments yet.
    pub fn new(name: impl Into<String>) -> Self {
        PromptSpec {
            name: name.into(),
            title: None,
            description: None,
            arguments: Vec::new(),
            icons: Vec::new(),
            meta: None,
            scopes: Vec::new(),
        }
    }

    /// Sets the display title (sent from 2025-06-18).
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        let description = description.into();
        self.description = (!description.is_empty()).then_some(description);
        self
    }

    /// Adds an argument.
    #[must_use]
    pub fn with_argument(mut self, argument: PromptArgument) -> Self {
        self.arguments.push(argument);
        self
    }

    /// Adds an icon (sent from 2025-11-25).
    #[must_use]
    pub fn with_icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Needs the OAuth scope `scope` to be got: on a server that checks
    /// tokens (feature `auth`), a token without it is refused with `403
    /// insufficient_scope`. Elsewhere it changes nothing.
    #[must_use]
    pub fn with_scope(mut self, scope: impl Into<String>) -> Self {
        crate::toolbox::scopes::add(&mut self.scopes, scope.into());
        self
    }

    /// The OAuth scopes a get needs ([`with_scope`](Self::with_scope)).
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Adds a `_meta` entry (sent from 2025-06-18).
    #[must_use]
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.get_or_insert_with(Map::new).insert(key.into(), value);
        self
    }

    /// A prompt whose messages `get` makes.
    pub fn serve<F, Fut>(self, get: F) -> FnPrompt<F>
    where
        F: Fn(PromptGet) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoMessages,
    {
        FnPrompt::new(self, get)
    }

    /// The prompt's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description, when set.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The arguments, in order.
    pub fn arguments(&self) -> &[PromptArgument] {
        &self.arguments
    }

    /// The arguments of a `prompts/get`, checked: every value a string, every
    /// required argument given, no unknown one.
    pub fn check_arguments(&self, given: Option<&Map<String, Value>>) -> Result<BTreeMap<String, String>, PromptError> {
        let mut checked = BTreeMap::new();
        for (name, value) in given.into_iter().flatten() {
            if !self.arguments.iter().any(|argument| &argument.name == name) {
                let expected = self.arguments.iter().map(|argument| format!("`{}`", argument.name)).collect::<Vec<_>>();
                let expected = if expected.is_empty() { "none".to_owned() } else { expected.join(", ") };
                return Err(PromptError::UnknownArgument {
                    prompt: self.name.clone(),
                    argument: name.clone(),
                    expected,
                });
            }
            let Value::String(value) = value else {
                return Err(PromptError::NotAString { prompt: self.name.clone(), argument: name.clone() });
            };
            checked.insert(name.clone(), value.clone());
        }
        if let Some(missing) =
            self.arguments.iter().find(|argument| argument.required && !checked.contains_key(&argument.name))
        {
            return Err(PromptError::MissingArgument { prompt: self.name.clone(), argument: missing.name.clone() });
        }
        Ok(checked)
    }

    /// The `Prompt` entry of `prompts/list`, as `version` defines it.
    pub fn to_wire(&self, version: ProtocolVersion) -> Value {
        let mut entry = Map::new();
        entry.insert("name".into(), Value::from(self.name.as_str()));
        let since_2025_06 = version.has_structured_content();
        if let Some(title) = self.title.as_ref().filter(|_| since_2025_06) {
            entry.insert("title".into(), Value::from(title.as_str()));
        }
        if let Some(description) = &self.description {
            entry.insert("description".into(), Value::from(description.as_str()));
        }
        if !self.arguments.is_empty() {
            let arguments: Vec<Value> = self.arguments.iter().map(|argument| argument.to_wire(version)).collect();
            entry.insert("arguments".into(), Value::Array(arguments));
        }
        if version.has_icons() && !self.icons.is_empty() {
            entry.insert("icons".into(), json!(self.icons));
        }
        if let Some(meta) = self.meta.as_ref().filter(|_| since_2025_06) {
            entry.insert("_meta".into(), Value::Object(meta.clone()));
        }
        Value::Object(entry)
    }
}
