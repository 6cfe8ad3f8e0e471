//! Toolboxes: named tools with their schemas, listings and calls.

#[doc(hidden)]
pub mod check;
mod constraints;
mod context;
mod decode;
mod param;
mod run;
mod schema;
mod tool;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock, RwLock};
use std::time::Duration;

use serde_json::{Map, Value};
use tokio::sync::watch;

pub use context::{Cancellation, Context, LogLevel, Notifier, RequestInfo};
pub use decode::decode_arguments;
pub use param::{Injected, State, ToolCall, ToolParam};
pub use run::{run_blocking, run_inline};
pub use schema::{HeaderParam, client_compatible};
pub use tool::{Tool, ToolFuture, ToolSpec};

use param::StateMap;
use run::CatchPanic;

use crate::mcp::{ProtocolVersion, ToolDefinition};
use crate::result::ToolResult;

/// Tools an impl block contributes, as `#[codeagent::toolbox]` generates: each
/// method marked `#[tool]` becomes a tool sharing the value as `&self`.
pub trait ToolSet: Send + Sync + 'static {
    /// The tools, each holding a reference to `self`.
    fn tools(self: Arc<Self>) -> Vec<Arc<dyn Tool>>;
}

/// A [`ToolSet`], or an `Arc` of one: what [`Toolbox::tools`] takes.
pub trait SharedToolSet {
    /// The impl block's type.
    type Set: ToolSet;

    /// The value, shared.
    fn into_shared(self) -> Arc<Self::Set>;
}

impl<S: ToolSet> SharedToolSet for S {
    type Set = S;

    fn into_shared(self) -> Arc<S> {
        Arc::new(self)
    }
}

impl<S: ToolSet> SharedToolSet for Arc<S> {
    type Set = S;

    fn into_shared(self) -> Arc<S> {
        self
    }
}

/// Why a call could not even start: the protocol-level errors of `tools/call`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    /// No tool has this name.
    UnknownTool(String),
    /// The arguments are not a JSON object.
    ArgumentsNotAnObject {
        /// The tool.
        tool: String,
        /// The JSON type that was sent instead.
        found: &'static str,
    },
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::UnknownTool(name) => write!(f, "Unknown tool: {name}"),
            CallError::ArgumentsNotAnObject { tool, found } => {
                write!(f, "Invalid arguments for tool {tool}: arguments must be an object, got {found}")
            }
        }
    }
}

impl std::error::Error for CallError {}

/// A tool name that is already taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateTool(pub String);

impl fmt::Display for DuplicateTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the toolbox already has a tool named `{}`; tool names must be unique", self.0)
    }
}

impl std::error::Error for DuplicateTool {}

/// A tool whose input schema states a constraint that argument checking
/// cannot enforce (a keyword or `format` it does not know, a `pattern` it
/// cannot compile, a `$ref` it cannot resolve). Rather than advertise a
/// constraint and ignore it, the toolbox refuses the tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnenforceableSchema {
    /// The tool.
    pub tool: String,
    /// What cannot be enforced, and where in the schema.
    pub problem: String,
}

impl fmt::Display for UnenforceableSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the tool `{}` cannot be added: its input schema's {}", self.tool, self.problem)
    }
}

impl std::error::Error for UnenforceableSchema {}

/// Why [`Toolbox::try_add`] refused a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AddToolError {
    /// The name is taken.
    Duplicate(DuplicateTool),
    /// The input schema states a constraint that cannot be enforced.
    Unenforceable(UnenforceableSchema),
}

impl fmt::Display for AddToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AddToolError::Duplicate(error) => error.fmt(f),
            AddToolError::Unenforceable(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for AddToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            AddToolError::Duplicate(error) => Some(error),
            AddToolError::Unenforceable(error) => Some(error),
        }
    }
}

impl From<DuplicateTool> for AddToolError {
    fn from(error: DuplicateTool) -> Self {
        AddToolError::Duplicate(error)
    }
}

impl From<UnenforceableSchema> for AddToolError {
    fn from(error: UnenforceableSchema) -> Self {
        AddToolError::Unenforceable(error)
    }
}

/// A `tools/list` cursor this toolbox did not hand out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidCursor(pub String);

impl fmt::Display for InvalidCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Invalid cursor: `{}`", self.0)
    }
}

impl std::error::Error for InvalidCursor {}

/// How long a client may cache a `tools/list` result (2026-07-28), and for whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheHint {
    /// How long the listing stays fresh; zero means re-fetch every time.
    pub ttl: Duration,
    /// Whether shared caches may serve the listing across users.
    pub public: bool,
}

/// A set of tools with unique names, in the order they were added.
///
/// A toolbox works on its own (list and call tools from an agent loop) and is
/// what the MCP server serves. It is cheap to clone; clones share the tools,
/// so a server notices tools added or removed through any clone.
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
/// ```
#[derive(Clone)]
pub struct Toolbox {
    shared: Arc<Shared>,
}

struct Shared {
    registry: RwLock<Arc<Registry>>,
    changes: watch::Sender<u64>,
}

#[derive(Clone)]
struct Registry {
    tools: Vec<Arc<dyn Tool>>,
    index: HashMap<String, usize>,
    state: Arc<StateMap>,
    page_size: usize,
    client_compatible: bool,
    cache: CacheHint,
    listings: Arc<[OnceLock<Vec<Value>>; 5]>,
}

impl Default for Toolbox {
    fn default() -> Self {
        Toolbox::new()
    }
}

impl fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Toolbox").field("tools", &self.names()).finish()
    }
}

impl Toolbox {
    /// An empty toolbox.
    pub fn new() -> Self {
        let registry = Registry {
            tools: Vec::new(),
            index: HashMap::new(),
            state: Arc::new(StateMap::default()),
            page_size: 1000,
            client_compatible: false,
            cache: CacheHint { ttl: Duration::ZERO, public: true },
            listings: Arc::default(),
        };
        Toolbox { shared: Arc::new(Shared { registry: RwLock::new(Arc::new(registry)), changes: watch::channel(0).0 }) }
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
            if let Err(error) = self.try_add_dyn(tool) {
                panic!("{error}");
            }
        }
        self
    }

    /// Adds a tool, refusing a name that is taken and an input schema stating
    /// a constraint that argument checking cannot enforce
    /// ([`ToolSpec::schema_problem`]). Servers serving this toolbox tell their
    /// clients the list changed.
    pub fn try_add(&self, tool: impl Tool) -> Result<(), AddToolError> {
        self.try_add_dyn(Arc::new(tool))
    }

    /// [`try_add`](Toolbox::try_add) for a shared tool.
    pub fn try_add_dyn(&self, tool: Arc<dyn Tool>) -> Result<(), AddToolError> {
        if let Some(problem) = tool.spec().schema_problem() {
            return Err(UnenforceableSchema { tool: tool.spec().name().to_owned(), problem }.into());
        }
        self.update(|registry| {
            let name = tool.spec().name().to_owned();
            if registry.index.contains_key(&name) {
                return Err(DuplicateTool(name).into());
            }
            registry.index.insert(name, registry.tools.len());
            registry.tools.push(tool);
            Ok(())
        })
    }

    /// Removes the tool called `name`; whether there was one.
    pub fn remove(&self, name: &str) -> bool {
        self.update(|registry| {
            let Some(position) = registry.index.remove(name) else { return Err(()) };
            registry.tools.remove(position);
            registry.index =
                registry.tools.iter().enumerate().map(|(i, tool)| (tool.spec().name().to_owned(), i)).collect();
            Ok(())
        })
        .is_ok()
    }

    /// Makes `state` available to tools taking a [`State<S>`] parameter.
    #[must_use]
    pub fn with_state<S: Send + Sync + 'static>(self, state: S) -> Self {
        let _ = self.update::<()>(|registry| {
            Arc::make_mut(&mut registry.state).insert(state);
            Ok(())
        });
        self
    }

    /// Sets how many tools one `tools/list` page holds (1000 unless set).
    #[must_use]
    pub fn page_size(self, page_size: usize) -> Self {
        let _ = self.update::<()>(|registry| {
            registry.page_size = page_size.max(1);
            Ok(())
        });
        self
    }

    /// Publishes input and output schemas with every `$ref` inlined and no
    /// `$schema`, for clients that cannot resolve references.
    #[must_use]
    pub fn client_compatible_schemas(self, enabled: bool) -> Self {
        let _ = self.update::<()>(|registry| {
            registry.client_compatible = enabled;
            Ok(())
        });
        self
    }

    /// Sets the caching hint sent with `tools/list` in 2026-07-28 (by default
    /// a zero TTL, public).
    #[must_use]
    pub fn cache_hint(self, cache: CacheHint) -> Self {
        let _ = self.update::<()>(|registry| {
            registry.cache = cache;
            Ok(())
        });
        self
    }

    /// How many tools there are.
    pub fn len(&self) -> usize {
        self.snapshot().tools.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.snapshot().tools.is_empty()
    }

    /// The package (name and version) of the crate that defined the first tool,
    /// which servers use as their default identity.
    pub fn origin(&self) -> Option<(&'static str, &'static str)> {
        self.snapshot().tools.iter().find_map(|tool| tool.spec().origin_package())
    }

    /// The tools' names, in order.
    pub fn names(&self) -> Vec<String> {
        self.snapshot().tools.iter().map(|tool| tool.spec().name().to_owned()).collect()
    }

    /// The tools' definitions, in order.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        self.snapshot().tools.iter().map(|tool| tool.spec().definition().clone()).collect()
    }

    /// The `tools/list` result for `version`, from `cursor` (none for the
    /// first page): the tools as that version defines them, `nextCursor` when
    /// more follow, and in 2026-07-28 `resultType`, `ttlMs` and `cacheScope`.
    /// Each tool's wire form is computed once per version.
    pub fn list_tools(&self, version: ProtocolVersion, cursor: Option<&str>) -> Result<Value, InvalidCursor> {
        self.snapshot().list(version, cursor)
    }

    /// Calls tool `name` with `arguments` (a JSON object; null or absent means
    /// `{}`), detached from any client.
    ///
    /// `Err` only when the tool does not exist or the arguments are not an
    /// object. Everything else, including invalid arguments and a panicking
    /// tool, is an error *result*, as the model should see it.
    pub async fn call(&self, name: &str, arguments: impl Into<Option<Value>>) -> Result<ToolResult, CallError> {
        self.call_with(name, arguments.into(), Context::detached()).await
    }

    /// [`call`](Toolbox::call) with the context of a client request.
    pub async fn call_with(
        &self,
        name: &str,
        arguments: Option<Value>,
        context: Context,
    ) -> Result<ToolResult, CallError> {
        Ok(self.start_call(name, arguments, context)?.await)
    }

    /// Looks up tool `name` and starts the call, without awaiting it.
    pub fn start_call(&self, name: &str, arguments: Option<Value>, context: Context) -> Result<ToolFuture, CallError> {
        self.start(name, arguments, context).map(|(future, _)| future)
    }

    /// [`start_call`](Toolbox::start_call), also handing back the tool (for its spec).
    pub fn start(
        &self,
        name: &str,
        arguments: Option<Value>,
        context: Context,
    ) -> Result<(ToolFuture, Arc<dyn Tool>), CallError> {
        let registry = self.snapshot();
        let tool = registry.find(name).ok_or_else(|| CallError::UnknownTool(name.to_owned()))?;
        let arguments = match arguments {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(arguments)) => arguments,
            Some(other) => {
                return Err(CallError::ArgumentsNotAnObject { tool: name.to_owned(), found: json_type(&other) });
            }
        };
        let call = ToolCall { arguments, context, state: Arc::clone(&registry.state) };
        Ok((Box::pin(CatchPanic(tool.call(call))), Arc::clone(tool)))
    }

    /// Tool `name`, when there is one.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.snapshot().find(name).cloned()
    }

    /// The definition of tool `name`, when there is one.
    pub fn definition(&self, name: &str) -> Option<ToolDefinition> {
        self.snapshot().find(name).map(|tool| tool.spec().definition().clone())
    }

    /// A receiver that changes whenever tools are added or removed.
    pub fn changes(&self) -> watch::Receiver<u64> {
        self.shared.changes.subscribe()
    }

    fn snapshot(&self) -> Arc<Registry> {
        Arc::clone(&self.shared.registry.read().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    fn update<E>(&self, change: impl FnOnce(&mut Registry) -> Result<(), E>) -> Result<(), E> {
        let mut guard = self.shared.registry.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut registry = Registry::clone(&guard);
        change(&mut registry)?;
        registry.listings = Arc::default();
        *guard = Arc::new(registry);
        drop(guard);
        self.shared.changes.send_modify(|generation| *generation += 1);
        Ok(())
    }
}

impl Registry {
    fn find(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.index.get(name).map(|&position| &self.tools[position])
    }

    fn wire_tools(&self, version: ProtocolVersion) -> &[Value] {
        let slot = ProtocolVersion::ALL.iter().position(|known| *known == version).unwrap_or(0);
        self.listings[slot].get_or_init(|| {
            self.tools
                .iter()
                .map(|tool| {
                    let mut definition = tool.spec().definition().clone();
                    if self.client_compatible {
                        definition.input_schema = client_compatible(&definition.input_schema);
                        definition.output_schema = definition.output_schema.as_ref().map(client_compatible);
                    }
                    definition.to_wire(version)
                })
                .collect()
        })
    }

    fn list(&self, version: ProtocolVersion, cursor: Option<&str>) -> Result<Value, InvalidCursor> {
        let tools = self.wire_tools(version);
        let start = match cursor {
            None => 0,
            Some(cursor) => cursor
                .parse::<usize>()
                .ok()
                .filter(|start| *start > 0 && *start < tools.len())
                .ok_or_else(|| InvalidCursor(cursor.to_owned()))?,
        };
        let end = (start + self.page_size).min(tools.len());
        let mut result = Map::new();
        if version.has_result_type() {
            result.insert("resultType".into(), Value::from("complete"));
        }
        result.insert("tools".into(), Value::Array(tools[start..end].to_vec()));
        if end < tools.len() {
            result.insert("nextCursor".into(), Value::from(end.to_string()));
        }
        if version.has_result_type() {
            let ttl = u64::try_from(self.cache.ttl.as_millis()).unwrap_or(u64::MAX);
            result.insert("ttlMs".into(), Value::from(ttl));
            result.insert("cacheScope".into(), Value::from(if self.cache.public { "public" } else { "private" }));
        }
        Ok(Value::Object(result))
    }
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
