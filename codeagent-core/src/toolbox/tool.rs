//! The tool trait and the static description of a tool.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use schemars::JsonSchema;
use serde_json::{Map, Value};

use super::ask::form_schema;
use super::constraints::{Checker, Refusal};
use super::schema::{HeaderParam, header_params, input_schema_for, remove_ordered};
use super::task::TaskSupport;
use super::{ResultBudget, ToolCall};
use crate::mcp::{Icon, ToolAnnotations, ToolDefinition};
use crate::output::IntoToolResult;
use crate::result::ToolResult;
use crate::ui::APP_URI;

/// The future a tool call returns.
pub type ToolFuture = Pin<Box<dyn Future<Output = ToolResult> + Send + 'static>>;

/// A callable tool: a description and a way to call it.
///
/// `#[codeagent::tool]` implements it for a unit struct named like the
/// function, so `Toolbox::new().tool(add)` takes the tool by the function's
/// name while `add(2, 3)` still calls the function.
pub trait Tool: Send + Sync + 'static {
    /// The tool's description, built once.
    fn spec(&self) -> &ToolSpec;

    /// Calls the tool. Invalid arguments give an error result, not a panic.
    fn call(&self, call: ToolCall) -> ToolFuture;
}

/// The static description of a tool: its MCP definition plus how its
/// arguments are checked.
#[derive(Clone, Debug)]
pub struct ToolSpec {
    definition: ToolDefinition,
    origin: Option<(&'static str, &'static str)>,
    header_params: Vec<HeaderParam>,
    checker: Result<Option<Arc<Checker>>, Refusal>,
    allow_unknown_arguments: bool,
    ui: Option<Cow<'static, str>>,
    required_capabilities: Vec<&'static str>,
    scopes: Vec<String>,
    form_problems: Vec<String>,
    result_budget: Option<ResultBudget>,
    task: Option<TaskSupport>,
    task_at_detach: bool,
}

impl ToolSpec {
    /// A tool called `name` whose arguments are the fields of `A`.
    ///
    /// The input schema is generated once, here: JSON Schema 2020-12 with an
    /// object root, injected parameters removed. Its argument checker is
    /// compiled here too; a schema stating a constraint the checker cannot
    /// enforce makes [`Tools::try_add`](crate::tools::Tools::try_add) refuse the
    /// tool (see [`schema_problem`](ToolSpec::schema_problem)).
    pub fn new<A: JsonSchema>(name: impl Into<String>) -> Self {
        let input_schema = input_schema_for::<A>();
        ToolSpec {
            checker: Checker::compile(&input_schema).map(|checker| checker.map(Arc::new)),
            header_params: header_params(&input_schema),
            definition: ToolDefinition::new(name, input_schema),
            origin: None,
            allow_unknown_arguments: false,
            ui: None,
            required_capabilities: Vec::new(),
            scopes: Vec::new(),
            form_problems: Vec::new(),
            result_budget: None,
            task: None,
            task_at_detach: false,
        }
    }

    /// A tool described by a definition made elsewhere: another server's,
    /// served here by proxy ([`Toolbox::mount`](crate::toolbox::Toolbox::mount)).
    /// Its arguments are not checked here (the tool's own server checks
    /// them), and arguments its schema does not name are passed on.
    pub fn from_definition(definition: ToolDefinition) -> Self {
        ToolSpec {
            checker: Ok(None),
            header_params: header_params(&definition.input_schema),
            definition,
            origin: None,
            allow_unknown_arguments: true,
            ui: None,
            required_capabilities: Vec::new(),
            scopes: Vec::new(),
            form_problems: Vec::new(),
            result_budget: None,
            task: None,
            task_at_detach: false,
        }
    }

    /// Sets the display title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.definition.title = Some(title.into());
        self
    }

    /// Sets the description.
    #[must_use]
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        let description = description.into();
        self.definition.description = (!description.is_empty()).then_some(description);
        self
    }

    /// Sets the behaviour hints.
    #[must_use]
    pub fn with_annotations(mut self, annotations: ToolAnnotations) -> Self {
        self.definition.annotations = (!annotations.is_empty()).then_some(annotations);
        self
    }

    /// Adds an icon.
    #[must_use]
    pub fn with_icon(mut self, icon: Icon) -> Self {
        self.definition.icons.get_or_insert_with(Vec::new).push(icon);
        self
    }

    /// Adds a `_meta` entry to the tool's definition.
    #[must_use]
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.definition.meta.get_or_insert_with(Map::new).insert(key.into(), value);
        self
    }

    /// Sets the output schema from the return type `R`, and points the tool
    /// at the built-in MCP Apps view when `R` [is rich](IntoToolResult::is_rich).
    #[must_use]
    pub fn with_output<R: IntoToolResult>(mut self) -> Self {
        self.definition.output_schema = R::output_schema();
        self.ui = R::is_rich().then_some(Cow::Borrowed(APP_URI));
        self
    }

    /// Points the tool at the MCP Apps view `uri` (a `ui://` resource the
    /// server serves with MIME type `text/html;profile=mcp-app`): a client
    /// that declares the MCP Apps extension shows the tool's results there.
    #[must_use]
    pub fn with_ui(mut self, uri: impl Into<Cow<'static, str>>) -> Self {
        self.ui = Some(uri.into());
        self
    }

    /// Points the tool at the built-in view, whatever its return type.
    #[must_use]
    pub fn with_builtin_ui(self) -> Self {
        self.with_ui(APP_URI)
    }

    /// Gives the tool no MCP Apps view, whatever its return type.
    #[must_use]
    pub fn without_ui(mut self) -> Self {
        self.ui = None;
        self
    }

    /// Needs the client capability `capability` (`"sampling"`, `"elicitation"`,
    /// `"roots"`): a client that did not declare it is refused the call with
    /// a `-32021` error naming it, before the tool runs.
    #[must_use]
    pub fn with_required_capability(mut self, capability: &'static str) -> Self {
        self.required_capabilities.push(capability);
        self
    }

    /// Needs the OAuth scope `scope` (`"sales:write"`): on a server that
    /// checks tokens (feature `auth`), a token without it is refused the call with `403
    /// insufficient_scope` naming the scope. Elsewhere it changes nothing.
    #[must_use]
    pub fn with_scope(mut self, scope: impl Into<String>) -> Self {
        crate::toolbox::scopes::add(&mut self.scopes, scope.into());
        self
    }

    /// The OAuth scopes a call needs ([`with_scope`](ToolSpec::with_scope)).
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Gives the tool a result budget of its own, which replaces the
    /// server's ([`Server::with_result_budget`](crate::server::Server::with_result_budget))
    /// for this tool's results: a larger one for a tool whose results must
    /// arrive whole, [`ResultBudget::unlimited`] for no bound at all.
    #[must_use]
    pub fn with_result_budget(mut self, budget: ResultBudget) -> Self {
        self.result_budget = Some(budget);
        self
    }

    /// Runs the tool's calls as tasks for clients that declare the tasks
    /// extension (`io.modelcontextprotocol/tasks`): such a client gets a task
    /// at once and polls it; [`TaskSupport::Required`] refuses other clients
    /// with `-32021`, [`TaskSupport::Optional`] answers them when the tool ends.
    #[must_use]
    pub fn with_task(mut self, support: TaskSupport) -> Self {
        self.task = Some(support);
        self
    }

    /// Makes the task only when the tool calls
    /// [`Context::detach`](crate::toolbox::Context::detach): until then the call
    /// is an ordinary request, whose questions are asked with it (a task tool
    /// that gathers input first, then works long). Optional task support
    /// unless [`with_task`](ToolSpec::with_task) said otherwise.
    #[must_use]
    pub fn with_task_at_detach(mut self) -> Self {
        self.task.get_or_insert(TaskSupport::Optional);
        self.task_at_detach = true;
        self
    }

    /// Whether the tool's calls become tasks ([`with_task`](ToolSpec::with_task)).
    pub fn task_support(&self) -> Option<TaskSupport> {
        self.task
    }

    /// Whether the task is made at the tool's `detach` rather than at once
    /// ([`with_task_at_detach`](ToolSpec::with_task_at_detach)).
    pub fn task_at_detach(&self) -> bool {
        self.task_at_detach
    }

    /// The tool's own result budget, if it has one (else the server's applies).
    pub fn result_budget(&self) -> Option<ResultBudget> {
        self.result_budget
    }

    /// The client capabilities the tool needs.
    pub fn required_capabilities(&self) -> &[&'static str] {
        &self.required_capabilities
    }

    /// Records that the tool asks the person for a form of `T`
    /// (`#[tool]` calls it for each `elicit::<T>` in the tool's body): a `T`
    /// outside what MCP elicitation allows makes the toolbox refuse the tool.
    #[must_use]
    pub fn with_elicitation<T: JsonSchema>(mut self) -> Self {
        if let Err(problem) = form_schema::<T>() {
            self.form_problems.push(problem.to_string());
        }
        self
    }

    /// The `ui://` URI of the tool's MCP Apps view, if it has one.
    pub fn ui(&self) -> Option<&str> {
        self.ui.as_deref()
    }

    /// Records the package that defined the tool (`#[tool]` passes the user's
    /// `CARGO_PKG_NAME` and `CARGO_PKG_VERSION`), the default identity of a
    /// server serving it.
    #[must_use]
    pub fn with_origin(mut self, package: &'static str, version: &'static str) -> Self {
        self.origin = Some((package, version));
        self
    }

    /// The package that defined the tool, when known.
    pub fn origin_package(&self) -> Option<(&'static str, &'static str)> {
        self.origin
    }

    /// Accepts arguments the schema does not name instead of refusing them.
    #[must_use]
    pub fn with_unknown_arguments_allowed(mut self) -> Self {
        self.allow_unknown_arguments = true;
        if let Some(schema) = self.definition.input_schema.as_object_mut() {
            remove_ordered(schema, "additionalProperties");
        }
        self
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.definition.name
    }

    /// The MCP definition.
    pub fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    /// Whether arguments the schema does not name are accepted.
    pub fn allows_unknown_arguments(&self) -> bool {
        self.allow_unknown_arguments
    }

    /// The arguments mirrored into HTTP headers (`x-mcp-header`, 2026-07-28).
    pub fn header_params(&self) -> &[HeaderParam] {
        &self.header_params
    }

    /// Why the input schema cannot be enforced, when it cannot: a keyword or
    /// `format` argument checking does not know, a `pattern` it cannot
    /// compile, a `$ref` it cannot resolve. The toolbox refuses such a tool.
    pub fn schema_problem(&self) -> Option<String> {
        self.checker.as_ref().err().map(Refusal::to_string)
    }

    /// Why a form the tool asks for ([`with_elicitation`](ToolSpec::with_elicitation))
    /// is not one MCP elicitation can carry; the toolbox refuses such a tool.
    pub fn form_problem(&self) -> Option<&str> {
        self.form_problems.first().map(String::as_str)
    }

    /// The argument checker: `Ok(None)` when the schema states nothing serde
    /// does not enforce already.
    pub(crate) fn checker(&self) -> Result<Option<&Checker>, &Refusal> {
        self.checker.as_ref().map(Option::as_deref)
    }
}
