//! The live, shared part of a toolbox: its tools, resources and prompts,
//! which every clone sees, each on a [`Shelf`] (the one copy-on-write
//! registry), and the resource updates servers pass on to subscribers.

use serde_json::Value;
use tokio::sync::broadcast;

use super::Tool;
use super::context::LogLevel;
use super::formats::standard_formats;
use super::prompt::Prompt;
use super::resource::{Resource, ResourceSpec};
use super::schema::client_compatible;
use super::shelf::{Shelf, Snapshot};
use crate::mcp::{ProtocolVersion, ToolDefinition};

/// The tools, resources and prompts, shared by every clone of a toolbox.
pub(crate) struct Registry {
    pub(crate) tools: Shelf<dyn Tool>,
    pub(crate) resources: Shelf<dyn Resource>,
    pub(crate) prompts: Shelf<dyn Prompt>,
    resource_updates: broadcast::Sender<String>,
    /// Log messages for every connected client ([`Toolbox::log`](super::Toolbox::log)).
    logs: broadcast::Sender<(LogLevel, Value)>,
}

/// Every tool of `tools` as `version` defines it, its schemas in `form`,
/// computed once per snapshot.
pub(crate) fn tools_wire(tools: &Snapshot<dyn Tool>, version: ProtocolVersion, form: SchemaForm) -> &[Value] {
    let position = ProtocolVersion::ALL.iter().position(|known| *known == version).unwrap_or(0);
    tools.wire(position * SchemaForm::COUNT + form.index(), |list| {
        list.iter().map(|tool| form.definition(tool.spec().definition()).to_wire(version)).collect()
    })
}

/// How a toolbox publishes its tools' schemas.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SchemaForm {
    /// Every `$ref` inlined and no `$schema` ([`client_compatible`]).
    pub(crate) client_compatible: bool,
    /// schemars' `format`s (`uint32`, `double`, ...) kept as generated,
    /// rather than [`standard_formats`].
    pub(crate) schemars_formats: bool,
}

impl SchemaForm {
    /// How many forms there are.
    const COUNT: usize = 4;

    fn index(self) -> usize {
        usize::from(self.client_compatible) * 2 + usize::from(self.schemars_formats)
    }

    /// `definition` with its schemas in this form.
    pub(crate) fn definition(self, definition: &ToolDefinition) -> ToolDefinition {
        let mut definition = definition.clone();
        definition.input_schema = self.schema(&definition.input_schema);
        definition.output_schema = definition.output_schema.as_ref().map(|schema| self.schema(schema));
        definition
    }

    fn schema(self, schema: &Value) -> Value {
        let schema = if self.schemars_formats { schema.clone() } else { standard_formats(schema) };
        if self.client_compatible { client_compatible(&schema) } else { schema }
    }
}

/// How many resource updates may wait for a slow subscriber before it misses some.
const UPDATE_CAPACITY: usize = 256;

impl Default for Registry {
    fn default() -> Self {
        Registry {
            tools: Shelf::new(|tool| tool.spec().name(), ProtocolVersion::ALL.len() * SchemaForm::COUNT),
            resources: Shelf::new(|resource| address(resource.spec()), 0),
            prompts: Shelf::new(|prompt| prompt.spec().name(), 0),
            resource_updates: broadcast::channel(UPDATE_CAPACITY).0,
            logs: broadcast::channel(UPDATE_CAPACITY).0,
        }
    }
}

impl Registry {
    /// Tells subscribers that the resource at `uri` changed.
    pub(crate) fn resource_updated(&self, uri: &str) {
        // No subscriber is not an error.
        let _ = self.resource_updates.send(uri.to_owned());
    }

    /// A receiver of the URIs of resources that changed.
    pub(crate) fn resource_updates(&self) -> broadcast::Receiver<String> {
        self.resource_updates.subscribe()
    }

    /// Sends a log message to every connected client.
    pub(crate) fn log(&self, level: LogLevel, data: Value) {
        // No client connected is not an error.
        let _ = self.logs.send((level, data));
    }

    /// A receiver of the log messages for every client.
    pub(crate) fn logs(&self) -> broadcast::Receiver<(LogLevel, Value)> {
        self.logs.subscribe()
    }
}

/// A resource's fixed URI or template text: what must be unique.
fn address(spec: &ResourceSpec) -> &str {
    spec.uri().or_else(|| spec.uri_template().map(|template| template.as_str())).unwrap_or_default()
}
