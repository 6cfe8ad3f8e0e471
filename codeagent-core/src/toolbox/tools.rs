//! A toolbox's tools, as [`Toolbox::tools`] gives them.

use std::sync::Arc;

use serde_json::{Map, Value};
use tokio::sync::watch;

use super::errors::{AddToolError, CallError, DuplicateTool, InvalidCursor, UnenforceableSchema};
use super::listing::{Page, wire_page_of};
use super::param::ToolCall;
use super::registry::tools_wire;
use super::run::CatchPanic;
use super::started::StartedCall;
use super::unknown::{self, UnknownArguments};
use super::{Context, Tool, Toolbox};
use crate::mcp::{ProtocolVersion, ToolDefinition, json_type};
use crate::result::ToolResult;

/// The tools of a [`Toolbox`], in the order they were added, shared by
/// every clone of it. The same words as [`Resources`](crate::resources::Resources) and
/// [`Prompts`](crate::prompts::Prompts): `try_add`, `remove`, `list`, `call`,
/// `start`, `changes` (the toolbox's builder [`Toolbox::tool`] adds).
///
/// ```
/// # use codeagent_core::toolbox::Toolbox;
/// let toolbox = Toolbox::new();
/// let tools = toolbox.tools();
/// assert!(tools.is_empty() && tools.list(None).unwrap().items.is_empty());
/// assert!(!tools.remove("nothing"));
/// ```
#[derive(Clone, Copy)]
pub struct Tools<'a> {
    toolbox: &'a Toolbox,
}

impl<'a> Tools<'a> {
    pub(super) fn new(toolbox: &'a Toolbox) -> Self {
        Tools { toolbox }
    }

    /// Adds a tool, refusing a name that is taken and an input schema
    /// stating a constraint that argument checking cannot enforce
    /// ([`ToolSpec::schema_problem`](super::ToolSpec::schema_problem)).
    /// Servers serving this toolbox tell their clients the list changed.
    pub fn try_add(self, tool: impl Tool) -> Result<(), AddToolError> {
        self.try_add_shared(Arc::new(tool))
    }

    /// [`try_add`](Tools::try_add) for a shared tool.
    pub fn try_add_shared(self, tool: Arc<dyn Tool>) -> Result<(), AddToolError> {
        if let Some(problem) = tool.spec().schema_problem() {
            return Err(UnenforceableSchema::new(tool.spec().name(), problem).into());
        }
        if let Some(problem) = tool.spec().form_problem() {
            return Err(AddToolError::NotAForm { tool: tool.spec().name().to_owned(), problem: problem.to_owned() });
        }
        Ok(self.toolbox.registry.tools.add(tool).map_err(DuplicateTool::new)?)
    }

    /// Removes the tool called `name`; whether there was one.
    pub fn remove(self, name: &str) -> bool {
        self.toolbox.registry.tools.remove(name)
    }

    /// One page of the tools' definitions as published, from `cursor` (none
    /// for the first page).
    ///
    /// ```
    /// # use codeagent_core::toolbox::Toolbox;
    /// let page = Toolbox::new().tools().list(None).unwrap();
    /// assert!(page.items.is_empty() && page.next_cursor.is_none());
    /// assert!(Toolbox::new().tools().list(Some("7")).is_err());
    /// ```
    pub fn list(self, cursor: Option<&str>) -> Result<Page<ToolDefinition>, InvalidCursor> {
        let tools = self.toolbox.registry.tools.snapshot();
        let config = &self.toolbox.config;
        Page::of(tools.items(), cursor, config.page_size, config.cache, |tool| self.published(tool))
    }

    /// Every tool's definition, in order, as [`list`](Tools::list) publishes them.
    pub fn definitions(self) -> Vec<ToolDefinition> {
        self.toolbox.registry.tools.snapshot().items().iter().map(|tool| self.published(tool)).collect()
    }

    /// The definition of tool `name` as published, when there is one.
    pub fn definition(self, name: &str) -> Option<ToolDefinition> {
        self.toolbox.registry.tools.snapshot().find(name).map(|tool| self.published(tool))
    }

    fn published(self, tool: &Arc<dyn Tool>) -> ToolDefinition {
        self.toolbox.config.schemas.definition(tool.spec().definition())
    }

    /// The tools' names, in order.
    pub fn names(self) -> Vec<String> {
        self.toolbox.registry.tools.snapshot().items().iter().map(|tool| tool.spec().name().to_owned()).collect()
    }

    /// Tool `name`, when there is one.
    pub fn find(self, name: &str) -> Option<Arc<dyn Tool>> {
        self.toolbox.registry.tools.snapshot().find(name).cloned()
    }

    /// The OAuth scopes a call of tool `name` needs (none for an unknown tool).
    pub fn scopes(self, name: &str) -> Vec<String> {
        self.find(name).map(|tool| tool.spec().scopes().to_vec()).unwrap_or_default()
    }

    /// How many tools there are.
    pub fn len(self) -> usize {
        self.toolbox.registry.tools.snapshot().items().len()
    }

    /// Whether there are no tools.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The package (name and version) of the crate that defined the first
    /// tool, which servers use as their default identity.
    pub fn origin(self) -> Option<(&'static str, &'static str)> {
        self.toolbox.registry.tools.snapshot().items().iter().find_map(|tool| tool.spec().origin_package())
    }

    /// Calls tool `name` with `arguments` (a JSON object; null or absent
    /// means `{}`), detached from any client.
    ///
    /// `Err` only when the tool does not exist or the arguments are not an
    /// object. Everything else, including invalid arguments and a panicking
    /// tool, is an error *result*, as the model should see it.
    pub async fn call(self, name: &str, arguments: impl Into<Option<Value>>) -> Result<ToolResult, CallError> {
        Ok(self.start(name, arguments, Context::detached())?.await)
    }

    /// Looks up tool `name` and starts the call in `context`, without awaiting it.
    pub fn start(
        self,
        name: &str,
        arguments: impl Into<Option<Value>>,
        context: Context,
    ) -> Result<StartedCall, CallError> {
        let tool = self.find(name).ok_or_else(|| CallError::UnknownTool(name.to_owned()))?;
        let mut arguments = match arguments.into() {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(arguments)) => arguments,
            Some(other) => {
                return Err(CallError::ArgumentsNotAnObject { tool: name.to_owned(), found: json_type(&other) });
            }
        };
        if self.toolbox.config.unknown_arguments == UnknownArguments::Drop {
            let dropped = unknown::drop_undeclared(&mut arguments, &tool.spec().definition().input_schema);
            if !dropped.is_empty() {
                tracing::debug!(target: "codeagent::toolbox", tool = name, ?dropped, "dropped arguments the tool does not declare");
            }
        }
        let call = ToolCall { arguments, context, state: Arc::clone(&self.toolbox.config.state) };
        Ok(StartedCall::new(Box::pin(CatchPanic::tool(tool.call(call))), tool))
    }

    /// A receiver that changes whenever tools are added or removed.
    pub fn changes(self) -> watch::Receiver<u64> {
        self.toolbox.registry.tools.changes()
    }

    /// [`list`](Tools::list) as the `tools/list` result for `version`, each
    /// tool's wire form computed once per version.
    pub(crate) fn wire_page(self, version: ProtocolVersion, cursor: Option<&str>) -> Result<Value, InvalidCursor> {
        let tools = self.toolbox.registry.tools.snapshot();
        let config = &self.toolbox.config;
        let wire = tools_wire(&tools, version, config.schemas);
        wire_page_of(version, "tools", wire, cursor, config.page_size, config.cache)
    }
}
