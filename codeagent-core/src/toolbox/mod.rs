//! Toolboxes: named tools with their schemas, listings and calls.

mod ask;
mod budget;
mod completion;
mod constraints;
mod context;
pub(crate) mod decode;
mod errors;
mod formats;
pub(crate) mod listing;
pub(crate) mod param;
mod prompt;
mod registry;
mod resource;
pub(crate) mod run;
mod schema;
mod set;
mod shelf;
mod started;
mod tool;
mod unknown;

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};
use tokio::sync::watch;

pub(crate) use ask::{Ask, AskFuture, AskMethod, Asker};
pub use ask::{
    AskError, Elicitation, FormError, ModelPreferences, Question, Root, Sampled, Sampling, SamplingContent,
    UrlElicitation, form_schema,
};
pub use budget::ResultBudget;
pub use completion::{Completer, Completion, MAX_COMPLETIONS};
pub use context::{CancellationToken, Context, LogLevel};
pub(crate) use context::{Notifier, RequestInfo};
pub use decode::decode_arguments;
pub use errors::{
    AddToolError, CallError, CompleteError, DuplicatePrompt, DuplicateResource, DuplicateTool, InvalidCursor,
    UnenforceableSchema,
};
pub use formats::standard_formats;
pub use listing::{CacheHint, ToolPage};
pub use param::{State, ToolCall};
pub use prompt::{
    FnPrompt, IntoMessages, Prompt, PromptArgument, PromptError, PromptFuture, PromptGet, PromptMessage, PromptSpec,
};
pub use resource::{
    Blob, FnResource, IntoContents, InvalidResource, Resource, ResourceError, ResourceFuture, ResourceRead,
    ResourceSpec,
};
pub use schema::{HeaderParam, client_compatible, resolve_ref};
pub use set::{SharedToolSet, ToolSet};
pub use started::StartedCall;
pub use tool::{Tool, ToolFuture, ToolSpec};
pub use unknown::UnknownArguments;

use listing::{page_bounds, wire_page};
use param::StateMap;
use registry::{Registry, SchemaForm};
use run::CatchPanic;

use crate::mcp::{ProtocolVersion, ResourceContents, ToolDefinition};
use crate::result::ToolResult;

/// A set of tools with unique names, in the order they were added.
///
/// A toolbox works on its own (list and call tools from an agent loop) and is
/// what the MCP server serves. It is two things:
///
/// - a live **registry** of tools, shared by every clone: a tool added or
///   removed through any clone is seen by all of them, and servers serving the
///   toolbox tell their clients the list changed;
/// - a **configuration** that is a plain value (shared state for
///   [`State<S>`] parameters, page size, schema form, caching hint): setting it
///   on a clone changes that clone only.
///
/// ```
/// use codeagent_core::toolbox::{Toolbox, ToolSpec, ToolCall, ToolFuture, Tool};
/// # use codeagent_core::{IntoToolResult, ToolResult};
/// # struct Echo;
/// # impl Tool for Echo {
/// #     fn spec(&self) -> &ToolSpec {
/// #         static SPEC: std::sync::OnceLock<ToolSpec> = std::sync::OnceLock::new();
/// #         SPEC.get_or_init(|| ToolSpec::new::<std::collections::BTreeMap<String, String>>("echo"))
/// #     }
/// #     fn call(&self, call: ToolCall) -> ToolFuture {
/// #         let text = serde_json::Value::Object(call.arguments().clone()).to_string();
/// #         Box::pin(async move { text.into_tool_result() })
/// #     }
/// # }
/// let toolbox = Toolbox::new().tool(Echo);
/// assert!(toolbox.try_add(Echo).is_err()); // names are unique
/// assert_eq!(toolbox.names(), ["echo"]);
///
/// let paged = toolbox.clone().with_page_size(1); // a configuration of its own ...
/// assert!(toolbox.remove("echo")); // ... over the same tools
/// assert!(paged.is_empty());
/// ```
#[derive(Clone)]
pub struct Toolbox {
    registry: Arc<Registry>,
    config: Config,
}

/// What a toolbox's clones do not share.
#[derive(Clone)]
struct Config {
    state: Arc<StateMap>,
    page_size: usize,
    schemas: SchemaForm,
    cache: CacheHint,
    unknown_arguments: UnknownArguments,
}

impl Default for Toolbox {
    fn default() -> Self {
        Toolbox::new()
    }
}

impl fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolbox")
            .field("tools", &self.names())
            .field("page_size", &self.config.page_size)
            .field("client_compatible", &self.config.schemas.client_compatible)
            .field("schemars_formats", &self.config.schemas.schemars_formats)
            .finish_non_exhaustive()
    }
}

impl Toolbox {
    /// An empty toolbox.
    pub fn new() -> Self {
        Toolbox {
            registry: Arc::default(),
            config: Config {
                state: Arc::default(),
                page_size: 1000,
                schemas: SchemaForm::default(),
                cache: CacheHint::default(),
                unknown_arguments: UnknownArguments::default(),
            },
        }
    }

    /// Adds a tool.
    ///
    /// # Panics
    ///
    /// When a tool of the same name is already there, or the tool's input
    /// schema states a constraint that cannot be enforced: that is a bug in
    /// the program building the toolbox. Use [`try_add`](Toolbox::try_add) to
    /// handle it.
    #[must_use]
    #[track_caller]
    pub fn tool(self, tool: impl Tool) -> Self {
        if let Err(error) = self.try_add(tool) {
            panic!("{error}");
        }
        self
    }

    /// Adds every tool of an impl block marked `#[codeagent::toolbox]`, given
    /// the value itself or an `Arc` of it (to keep a handle on the state).
    ///
    /// # Panics
    ///
    /// When a tool name is already taken, or a tool's input schema states a
    /// constraint that cannot be enforced.
    #[must_use]
    #[track_caller]
    pub fn tools(self, set: impl SharedToolSet) -> Self {
        for tool in set.into_shared().tools() {
            if let Err(error) = self.try_add_shared(tool) {
                panic!("{error}");
            }
        }
        self
    }

    /// Adds a tool to the shared registry, refusing a name that is taken and
    /// an input schema stating a constraint that argument checking cannot
    /// enforce ([`ToolSpec::schema_problem`]). Servers serving this toolbox
    /// tell their clients the list changed.
    pub fn try_add(&self, tool: impl Tool) -> Result<(), AddToolError> {
        self.try_add_shared(Arc::new(tool))
    }

    /// [`try_add`](Toolbox::try_add) for a shared tool.
    pub fn try_add_shared(&self, tool: Arc<dyn Tool>) -> Result<(), AddToolError> {
        if let Some(problem) = tool.spec().schema_problem() {
            return Err(UnenforceableSchema::new(tool.spec().name(), problem).into());
        }
        if let Some(problem) = tool.spec().form_problem() {
            return Err(AddToolError::NotAForm { tool: tool.spec().name().to_owned(), problem: problem.to_owned() });
        }
        Ok(self.registry.add(tool)?)
    }

    /// Removes the tool called `name` from the shared registry; whether there was one.
    pub fn remove(&self, name: &str) -> bool {
        self.registry.remove(name)
    }

    /// Makes `state` available to this toolbox's tools that take a
    /// [`State<S>`] parameter (one value per type; a second replaces the first).
    #[must_use]
    pub fn with_state<S: Send + Sync + 'static>(mut self, state: S) -> Self {
        Arc::make_mut(&mut self.config.state).insert(state);
        self
    }

    /// Sets how many tools one `tools/list` page holds (1000 unless set).
    #[must_use]
    pub fn with_page_size(mut self, page_size: usize) -> Self {
        self.config.page_size = page_size.max(1);
        self
    }

    /// Publishes input and output schemas with every `$ref` inlined and no
    /// `$schema`, for clients that cannot resolve references.
    #[must_use]
    pub fn with_client_compatible_schemas(mut self, enabled: bool) -> Self {
        self.config.schemas.client_compatible = enabled;
        self
    }

    /// Publishes schemas with schemars' own `format`s (`int32`, `uint8`,
    /// `double`, ...) rather than only JSON Schema's ([`standard_formats`]:
    /// narrow integer formats become bounds, the others are left out), for
    /// clients that read them.
    #[must_use]
    pub fn with_schemars_formats(mut self, enabled: bool) -> Self {
        self.config.schemas.schemars_formats = enabled;
        self
    }

    /// Sets the caching hint sent with `tools/list` in 2026-07-28 (by default
    /// a zero TTL, public).
    #[must_use]
    pub fn with_cache_hint(mut self, cache: CacheHint) -> Self {
        self.config.cache = cache;
        self
    }

    /// Sets what calls do with arguments a tool's input schema does not
    /// declare: [`UnknownArguments::Drop`] them (the default, so hosts that
    /// add arguments of their own work) or [`UnknownArguments::Refuse`] the
    /// call (a misspelt argument is an error result naming it).
    ///
    /// ```
    /// use codeagent_core::toolbox::{Toolbox, UnknownArguments};
    /// let strict = Toolbox::new().with_unknown_arguments(UnknownArguments::Refuse);
    /// assert_eq!(strict.unknown_arguments(), UnknownArguments::Refuse);
    /// ```
    #[must_use]
    pub fn with_unknown_arguments(mut self, policy: UnknownArguments) -> Self {
        self.config.unknown_arguments = policy;
        self
    }

    /// What calls do with arguments a tool's input schema does not declare.
    pub fn unknown_arguments(&self) -> UnknownArguments {
        self.config.unknown_arguments
    }

    /// The caching hint of listings and reads (2026-07-28).
    pub fn cache_hint(&self) -> CacheHint {
        self.config.cache
    }

    /// How many tools there are.
    pub fn len(&self) -> usize {
        self.registry.snapshot().list.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.registry.snapshot().list.is_empty()
    }

    /// The package (name and version) of the crate that defined the first tool,
    /// which servers use as their default identity.
    pub fn origin(&self) -> Option<(&'static str, &'static str)> {
        self.registry.snapshot().list.iter().find_map(|tool| tool.spec().origin_package())
    }

    /// The tools' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.registry.snapshot().list.iter().map(|tool| tool.spec().name().to_owned()).collect()
    }

    /// Tool `name`, when there is one.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.registry.snapshot().find(name).cloned()
    }

    /// The tools' definitions, in order, as [`list_tools`](Toolbox::list_tools) publishes them.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        let tools = self.registry.snapshot();
        tools.list.iter().map(|tool| self.published(tool.spec().definition())).collect()
    }

    /// The definition of tool `name` as published, when there is one.
    pub fn definition(&self, name: &str) -> Option<ToolDefinition> {
        self.registry.snapshot().find(name).map(|tool| self.published(tool.spec().definition()))
    }

    fn published(&self, definition: &ToolDefinition) -> ToolDefinition {
        self.config.schemas.definition(definition)
    }

    /// One page of the listing, from `cursor` (none for the first page).
    ///
    /// ```
    /// # use codeagent_core::toolbox::Toolbox;
    /// let page = Toolbox::new().list_tools(None).unwrap();
    /// assert!(page.tools.is_empty() && page.next_cursor.is_none());
    /// assert!(Toolbox::new().list_tools(Some("7")).is_err());
    /// ```
    pub fn list_tools(&self, cursor: Option<&str>) -> Result<ToolPage, InvalidCursor> {
        let tools = self.registry.snapshot();
        let (start, end) = page_bounds(cursor, tools.list.len(), self.config.page_size)?;
        Ok(ToolPage {
            tools: tools.list[start..end].iter().map(|tool| self.published(tool.spec().definition())).collect(),
            next_cursor: (end < tools.list.len()).then(|| end.to_string()),
            cache: self.config.cache,
        })
    }

    /// [`list_tools`](Toolbox::list_tools) as the `tools/list` result for
    /// `version`, each tool's wire form computed once per version.
    pub(crate) fn wire_page(&self, version: ProtocolVersion, cursor: Option<&str>) -> Result<Value, InvalidCursor> {
        let tools = self.registry.snapshot();
        let wire = tools.wire(version, self.config.schemas);
        let (start, end) = page_bounds(cursor, wire.len(), self.config.page_size)?;
        let next = (end < wire.len()).then(|| end.to_string());
        Ok(wire_page(version, "tools", wire[start..end].to_vec(), next.as_deref(), self.config.cache))
    }

    /// Calls tool `name` with `arguments` (a JSON object; null or absent means
    /// `{}`), detached from any client.
    ///
    /// `Err` only when the tool does not exist or the arguments are not an
    /// object. Everything else, including invalid arguments and a panicking
    /// tool, is an error *result*, as the model should see it.
    pub async fn call(&self, name: &str, arguments: impl Into<Option<Value>>) -> Result<ToolResult, CallError> {
        Ok(self.start(name, arguments, Context::detached())?.await)
    }

    /// Looks up tool `name` and starts the call in `context`, without awaiting it.
    pub fn start(
        &self,
        name: &str,
        arguments: impl Into<Option<Value>>,
        context: Context,
    ) -> Result<StartedCall, CallError> {
        let tool = self.get(name).ok_or_else(|| CallError::UnknownTool(name.to_owned()))?;
        let arguments = match arguments.into() {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(arguments)) => arguments,
            Some(other) => {
                return Err(CallError::ArgumentsNotAnObject { tool: name.to_owned(), found: json_type(&other) });
            }
        };
        let mut arguments = arguments;
        if self.config.unknown_arguments == UnknownArguments::Drop {
            let dropped = unknown::drop_undeclared(&mut arguments, &tool.spec().definition().input_schema);
            if !dropped.is_empty() {
                tracing::debug!(target: "codeagent::toolbox", tool = name, ?dropped, "dropped arguments the tool does not declare");
            }
        }
        let call = ToolCall { arguments, context, state: Arc::clone(&self.config.state) };
        Ok(StartedCall::new(Box::pin(CatchPanic::tool(tool.call(call))), tool))
    }

    /// A receiver that changes whenever tools are added or removed.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.registry.changes()
    }

    /// Adds a resource to the shared registry.
    ///
    /// # Panics
    ///
    /// When a resource with the same URI or template is already there.
    #[must_use]
    #[track_caller]
    pub fn resource(self, resource: impl Resource) -> Self {
        if let Err(duplicate) = self.try_add_resource(resource) {
            panic!("{duplicate}");
        }
        self
    }

    /// Adds a resource, refusing a URI or template that is taken. Servers
    /// serving this toolbox tell their clients the resource list changed.
    pub fn try_add_resource(&self, resource: impl Resource) -> Result<(), DuplicateResource> {
        self.registry.add_resource(Arc::new(resource))
    }

    /// Removes the resource at fixed URI or template `address`; whether there was one.
    pub fn remove_resource(&self, address: &str) -> bool {
        self.registry.remove_resource(address)
    }

    /// Whether the toolbox has any resource (fixed or templated).
    pub fn has_resources(&self) -> bool {
        !self.registry.resources().is_empty()
    }

    /// Every resource's description, in the order they were added.
    pub fn resource_specs(&self) -> Vec<ResourceSpec> {
        self.registry.resources().iter().map(|resource| resource.spec().clone()).collect()
    }

    /// A page of `resources/list` (fixed URIs) or, with `templates`, of
    /// `resources/templates/list`, for `version`.
    pub(crate) fn wire_resources(
        &self,
        version: ProtocolVersion,
        cursor: Option<&str>,
        templates: bool,
    ) -> Result<Value, InvalidCursor> {
        let resources = self.registry.resources();
        let entries: Vec<&ResourceSpec> = resources
            .iter()
            .map(|resource| resource.spec())
            .filter(|spec| spec.uri_template().is_some() == templates)
            .collect();
        let (start, end) = page_bounds(cursor, entries.len(), self.config.page_size)?;
        let next = (end < entries.len()).then(|| end.to_string());
        let wire = entries[start..end].iter().map(|spec| spec.to_wire(version)).collect();
        let key = if templates { "resourceTemplates" } else { "resources" };
        Ok(wire_page(version, key, wire, next.as_deref(), self.config.cache))
    }

    /// Reads the resource at `uri`, detached from any client: a resource with
    /// that fixed URI, else the first template that matches it.
    pub async fn read_resource(&self, uri: &str) -> Result<Vec<ResourceContents>, ResourceError> {
        self.start_read(uri, Context::detached())?.await
    }

    /// The caching hint of a read of `uri`: the resource's own, else the toolbox's.
    pub fn read_cache_hint(&self, uri: &str) -> CacheHint {
        let resources = self.registry.resources();
        let fixed = resources.iter().find(|resource| resource.spec().uri() == Some(uri));
        let found = fixed.or_else(|| resources.iter().find(|resource| resource.spec().matches(uri).is_some()));
        found.and_then(|resource| resource.spec().cache_hint()).unwrap_or(self.config.cache)
    }

    /// Finds the resource at `uri` and starts reading it in `context`, without
    /// awaiting it. A panic while reading is a read failure.
    pub fn start_read(&self, uri: &str, context: Context) -> Result<ResourceFuture, ResourceError> {
        let resources = self.registry.resources();
        let fixed = resources.iter().find(|resource| resource.spec().uri() == Some(uri));
        let (resource, variables) = match fixed {
            Some(resource) => (resource, Default::default()),
            None => resources
                .iter()
                .filter(|resource| resource.spec().uri_template().is_some())
                .find_map(|resource| resource.spec().matches(uri).map(|variables| (resource, variables)))
                .ok_or_else(|| ResourceError::NotFound(uri.to_owned()))?,
        };
        let read = ResourceRead::new(uri.to_owned(), variables, context);
        Ok(Box::pin(CatchPanic::new(resource.read(read), |message| {
            Err(ResourceError::failed(format!("The resource failed unexpectedly (it panicked: {message})")))
        })))
    }

    /// Tells every client subscribed to `uri` that the resource changed
    /// (`notifications/resources/updated`).
    pub fn notify_resource_updated(&self, uri: &str) {
        self.registry.resource_updated(uri);
    }

    /// A receiver that changes whenever resources are added or removed.
    pub fn resource_changes(&self) -> watch::Receiver<u64> {
        self.registry.resource_changes()
    }

    /// A receiver of the URIs of resources that changed.
    pub(crate) fn resource_updates(&self) -> tokio::sync::broadcast::Receiver<String> {
        self.registry.resource_updates()
    }

    /// Adds a prompt to the shared registry.
    ///
    /// # Panics
    ///
    /// When a prompt of the same name is already there.
    #[must_use]
    #[track_caller]
    pub fn prompt(self, prompt: impl Prompt) -> Self {
        if let Err(duplicate) = self.try_add_prompt(prompt) {
            panic!("{duplicate}");
        }
        self
    }

    /// Adds a prompt, refusing a name that is taken. Servers serving this
    /// toolbox tell their clients the prompt list changed.
    pub fn try_add_prompt(&self, prompt: impl Prompt) -> Result<(), DuplicatePrompt> {
        self.registry.add_prompt(Arc::new(prompt))
    }

    /// Removes the prompt called `name`; whether there was one.
    pub fn remove_prompt(&self, name: &str) -> bool {
        self.registry.remove_prompt(name)
    }

    /// Whether the toolbox has any prompt.
    pub fn has_prompts(&self) -> bool {
        !self.registry.prompts().is_empty()
    }

    /// Every prompt's description, in the order they were added.
    pub fn prompt_specs(&self) -> Vec<PromptSpec> {
        self.registry.prompts().iter().map(|prompt| prompt.spec().clone()).collect()
    }

    /// A page of `prompts/list` for `version`.
    pub(crate) fn wire_prompts(&self, version: ProtocolVersion, cursor: Option<&str>) -> Result<Value, InvalidCursor> {
        let prompts = self.registry.prompts();
        let (start, end) = page_bounds(cursor, prompts.len(), self.config.page_size)?;
        let next = (end < prompts.len()).then(|| end.to_string());
        let wire = prompts[start..end].iter().map(|prompt| prompt.spec().to_wire(version)).collect();
        Ok(wire_page(version, "prompts", wire, next.as_deref(), self.config.cache))
    }

    /// The messages of prompt `name` for `arguments`, detached from any client.
    pub async fn get_prompt<K: Into<String>, V: Into<String>>(
        &self,
        name: &str,
        arguments: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Vec<PromptMessage>, PromptError> {
        let arguments: Map<String, Value> =
            arguments.into_iter().map(|(key, value)| (key.into(), Value::String(value.into()))).collect();
        self.start_get(name, Some(&arguments), Context::detached())?.await
    }

    /// Finds prompt `name`, checks `arguments` against its spec (a missing
    /// required or an unknown argument is refused, naming it) and starts
    /// making its messages in `context`. A panic is a failure of the prompt.
    pub fn start_get(
        &self,
        name: &str,
        arguments: Option<&Map<String, Value>>,
        context: Context,
    ) -> Result<PromptFuture, PromptError> {
        let prompts = self.registry.prompts();
        let prompt = prompts
            .iter()
            .find(|prompt| prompt.spec().name() == name)
            .ok_or_else(|| PromptError::UnknownPrompt(name.to_owned()))?;
        let checked = prompt.spec().check_arguments(arguments)?;
        Ok(Box::pin(CatchPanic::new(prompt.get(PromptGet::new(checked, context)), |message| {
            Err(PromptError::failed(format!("The prompt failed unexpectedly (it panicked: {message})")))
        })))
    }

    /// A receiver that changes whenever prompts are added or removed.
    pub fn prompt_changes(&self) -> watch::Receiver<u64> {
        self.registry.prompt_changes()
    }

    /// Whether any prompt argument or template variable can be completed.
    pub fn has_completions(&self) -> bool {
        self.has_prompts() || self.registry.resources().iter().any(|resource| resource.spec().uri_template().is_some())
    }

    /// Completes `typed` for argument `argument` of prompt `prompt`, given
    /// the other arguments `given`. An argument without a completer gets no
    /// suggestion.
    pub fn complete_prompt(
        &self,
        prompt: &str,
        argument: &str,
        typed: &str,
        given: &std::collections::BTreeMap<String, String>,
    ) -> Result<Completion, CompleteError> {
        let prompts = self.registry.prompts();
        let spec = prompts
            .iter()
            .map(|known| known.spec())
            .find(|spec| spec.name() == prompt)
            .ok_or_else(|| CompleteError::UnknownPrompt(prompt.to_owned()))?;
        let argument = spec.arguments().iter().find(|known| known.name() == argument).ok_or_else(|| {
            CompleteError::UnknownArgument { reference: prompt.to_owned(), argument: argument.to_owned() }
        })?;
        guarded_completion(argument.completer(), typed, given)
    }

    /// Completes `typed` for variable `variable` of resource template
    /// `template` (its text, as listed).
    pub fn complete_template(
        &self,
        template: &str,
        variable: &str,
        typed: &str,
        given: &std::collections::BTreeMap<String, String>,
    ) -> Result<Completion, CompleteError> {
        let resources = self.registry.resources();
        let spec = resources
            .iter()
            .map(|resource| resource.spec())
            .find(|spec| spec.uri_template().is_some_and(|known| known.as_str() == template))
            .ok_or_else(|| CompleteError::UnknownTemplate(template.to_owned()))?;
        let known = spec.uri_template().is_some_and(|known| known.variables().any(|name| name == variable));
        if !known {
            return Err(CompleteError::UnknownArgument {
                reference: template.to_owned(),
                argument: variable.to_owned(),
            });
        }
        guarded_completion(spec.completer(variable), typed, given)
    }
}

/// Runs `completer` (no completer: no suggestion), its panic an error for
/// this request only.
fn guarded_completion(
    completer: Option<&Completer>,
    typed: &str,
    given: &std::collections::BTreeMap<String, String>,
) -> Result<Completion, CompleteError> {
    let Some(completer) = completer else { return Ok(Completion::default()) };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| completer.complete(typed, given)))
        .map_err(|payload| CompleteError::Panicked(run::panic_message(&*payload)))
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
