//! The toolbox: the live registry of tools, resources and prompts every
//! clone shares, the handles that reach them ([`Tools`], [`Resources`],
//! [`Prompts`]), its configuration, and the [`Context`] of a request.
//!
//! The items each kind of registration is made of live in the modules named
//! after it (`tools`, `resources`, `prompts`, `completion`, `ask`, `schema`
//! at the crate root); this module is their implementation.

pub(crate) mod ask;
pub(crate) mod budget;
mod caller;
pub(crate) mod completion;
mod constraints;
pub(crate) mod context;
pub(crate) mod decode;
pub(crate) mod errors;
pub(crate) mod fields;
pub(crate) mod formats;
pub(crate) mod listing;
pub(crate) mod param;
pub(crate) mod prompt;
pub(crate) mod prompts;
mod registry;
pub(crate) mod resource;
pub(crate) mod resources;
pub(crate) mod run;
pub(crate) mod schema;
mod scopes;
pub(crate) mod set;
mod shelf;
pub(crate) mod started;
pub(crate) mod task;
pub(crate) mod tool;
pub(crate) mod tools;
pub(crate) mod unknown;

use std::fmt;
use std::sync::Arc;

pub(crate) use ask::{Ask, AskError, AskFuture, AskMethod, Asker};
pub(crate) use budget::ResultBudget;
pub use caller::Caller;
pub(crate) use completion::Completer;
pub use context::{CancellationToken, Context, LogLevel};
pub(crate) use context::{Notifier, RequestInfo};
pub(crate) use errors::CompleteError;
pub use errors::InvalidCursor;
pub use listing::{CacheHint, Page};
pub(crate) use param::{State, ToolCall};
pub(crate) use prompt::{IntoMessages, Prompt, PromptArgument, PromptError, PromptGet, PromptMessage, PromptSpec};
use prompts::Prompts;
pub(crate) use resource::{IntoContents, Resource, ResourceError, ResourceRead, ResourceSpec};
use resources::Resources;
pub(crate) use set::{SharedToolSet, ToolSet};
pub(crate) use started::StartedCall;
pub(crate) use tool::{Tool, ToolFuture, ToolSpec};
use tools::Tools;
use unknown::UnknownArguments;

use param::StateMap;
use registry::{Registry, SchemaForm};

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
/// use codeagent_core::toolbox::Toolbox;
/// use codeagent_core::tools::{Tool, ToolCall, ToolFuture, ToolSpec};
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
/// assert!(toolbox.tools().try_add(Echo).is_err()); // names are unique
/// assert_eq!(toolbox.tools().names(), ["echo"]);
///
/// let paged = toolbox.clone().with_page_size(1); // a configuration of its own ...
/// assert!(toolbox.tools().remove("echo")); // ... over the same tools
/// assert!(paged.tools().is_empty());
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
            .field("tools", &self.tools().names())
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

    /// Sends a log message (`notifications/message`, logger `codeagent`)
    /// to every client connected in a legacy protocol era (2025-11-25 and
    /// before) whose log level lets `level` through, or that set none: news
    /// that belongs to no request, such as a gateway's failed rebuild
    /// (`cargo codeagent dev`). A 2026-07-28 client gets no such message:
    /// its logs belong to requests ([`Context::log`]).
    ///
    /// ```
    /// use codeagent_core::toolbox::{LogLevel, Toolbox};
    ///
    /// let toolbox = Toolbox::new();
    /// toolbox.log(LogLevel::Error, "the rebuild failed; the last good server keeps serving");
    /// ```
    pub fn log(&self, level: LogLevel, data: impl Into<serde_json::Value>) {
        self.registry.log(level, data.into());
    }

    /// A receiver of the messages of [`log`](Toolbox::log).
    pub(crate) fn log_messages(&self) -> tokio::sync::broadcast::Receiver<(LogLevel, serde_json::Value)> {
        self.registry.logs()
    }

    /// The tools: add, remove, list, call ([`Tools`]).
    pub fn tools(&self) -> Tools<'_> {
        Tools::new(self)
    }

    /// The resources: add, remove, list, read ([`Resources`]).
    pub fn resources(&self) -> Resources<'_> {
        Resources::new(self)
    }

    /// The prompts: add, remove, list, get ([`Prompts`]).
    pub fn prompts(&self) -> Prompts<'_> {
        Prompts::new(self)
    }

    /// Adds a tool.
    ///
    /// # Panics
    ///
    /// When a tool of the same name is already there, or the tool's input
    /// schema states a constraint that cannot be enforced: that is a bug in
    /// the program building the toolbox. Use [`Tools::try_add`] to handle it.
    #[must_use]
    #[track_caller]
    pub fn tool(self, tool: impl Tool) -> Self {
        self.shared_tool(Arc::new(tool))
    }

    /// [`tool`](Toolbox::tool) once the tool is shared: not generic, so
    /// adding a tool compiles no code of its own.
    #[track_caller]
    fn shared_tool(self, tool: Arc<dyn Tool>) -> Self {
        if let Err(error) = self.tools().try_add_shared(tool) {
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
    pub fn tool_set(self, set: impl SharedToolSet) -> Self {
        for tool in set.into_shared().tools() {
            if let Err(error) = self.tools().try_add_shared(tool) {
                panic!("{error}");
            }
        }
        self
    }

    /// Adds a resource.
    ///
    /// # Panics
    ///
    /// When a resource with the same URI or template is already there. Use
    /// [`Resources::try_add`] to handle it.
    #[must_use]
    #[track_caller]
    pub fn resource(self, resource: impl Resource) -> Self {
        if let Err(duplicate) = self.resources().try_add(resource) {
            panic!("{duplicate}");
        }
        self
    }

    /// Adds a prompt.
    ///
    /// # Panics
    ///
    /// When a prompt of the same name is already there. Use
    /// [`Prompts::try_add`] to handle it.
    #[must_use]
    #[track_caller]
    pub fn prompt(self, prompt: impl Prompt) -> Self {
        if let Err(duplicate) = self.prompts().try_add(prompt) {
            panic!("{duplicate}");
        }
        self
    }

    /// Makes `state` available to this toolbox's tools, resources and prompts
    /// that take a [`State<S>`] parameter (one value per type; a second
    /// replaces the first).
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
    /// `double`, ...) rather than only JSON Schema's ([`standard_formats`](crate::schema::standard_formats):
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
    /// use codeagent_core::toolbox::Toolbox;
    /// use codeagent_core::tools::UnknownArguments;
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

    /// How many items one listing page holds (the skills extension's pages).
    #[cfg(feature = "skills")]
    pub(crate) fn page_size(&self) -> usize {
        self.config.page_size
    }

    /// The caching hint of listings and reads (2026-07-28).
    pub fn cache_hint(&self) -> CacheHint {
        self.config.cache
    }

    /// Whether any prompt argument or template variable can be completed.
    pub fn has_completions(&self) -> bool {
        !self.prompts().is_empty() || self.resources().specs().iter().any(|resource| resource.uri_template().is_some())
    }
}
