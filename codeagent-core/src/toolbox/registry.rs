//! The live, shared part of a toolbox: its tools, which every clone sees, and
//! the signal servers watch to tell clients the list changed.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use serde_json::Value;
use tokio::sync::{broadcast, watch};

use super::Tool;
use super::errors::{DuplicatePrompt, DuplicateResource, DuplicateTool};
use super::formats::standard_formats;
use super::prompt::Prompt;
use super::resource::{Resource, ResourceSpec};
use super::schema::client_compatible;
use super::shelf::Shelf;
use crate::mcp::{ProtocolVersion, ToolDefinition};

/// The tools and resources, shared by every clone of a toolbox.
pub(crate) struct Registry {
    tools: RwLock<Arc<Tools>>,
    changes: watch::Sender<u64>,
    resources: Shelf<dyn Resource>,
    resource_updates: broadcast::Sender<String>,
    prompts: Shelf<dyn Prompt>,
}

/// One version of the tool set: replaced whole on every change, so readers
/// never wait for writers.
#[derive(Default)]
pub(crate) struct Tools {
    pub(crate) list: Vec<Arc<dyn Tool>>,
    index: HashMap<String, usize>,
    /// Each tool's wire definition per protocol version, standard and
    /// client-compatible, computed on first use.
    wire: Vec<OnceLock<Vec<Value>>>,
}

impl Tools {
    pub(crate) fn find(&self, name: &str) -> Option<&Arc<dyn Tool>> {
        self.index.get(name).map(|&position| &self.list[position])
    }

    /// Every tool as `version` defines it, its schemas in `form`.
    pub(crate) fn wire(&self, version: ProtocolVersion, form: SchemaForm) -> &[Value] {
        let position = ProtocolVersion::ALL.iter().position(|known| *known == version).unwrap_or(0);
        let slot = position * SchemaForm::COUNT + form.index();
        self.wire[slot].get_or_init(|| {
            self.list.iter().map(|tool| form.definition(tool.spec().definition()).to_wire(version)).collect()
        })
    }

    fn rebuilt(list: Vec<Arc<dyn Tool>>) -> Tools {
        let index = list.iter().enumerate().map(|(position, tool)| (tool.spec().name().to_owned(), position)).collect();
        let wire = (0..ProtocolVersion::ALL.len() * SchemaForm::COUNT).map(|_| OnceLock::new()).collect();
        Tools { list, index, wire }
    }
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
            tools: RwLock::new(Arc::new(Tools::rebuilt(Vec::new()))),
            changes: watch::channel(0).0,
            resources: Shelf::new(|resource| address(resource.spec())),
            resource_updates: broadcast::channel(UPDATE_CAPACITY).0,
            prompts: Shelf::new(|prompt| prompt.spec().name()),
        }
    }
}

impl Registry {
    /// The tools as they are now.
    pub(crate) fn snapshot(&self) -> Arc<Tools> {
        Arc::clone(&self.tools.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Adds `tool`, refusing a name that is taken.
    pub(crate) fn add(&self, tool: Arc<dyn Tool>) -> Result<(), DuplicateTool> {
        self.change(|list| {
            let name = tool.spec().name();
            if list.iter().any(|known| known.spec().name() == name) {
                return Err(DuplicateTool::new(name));
            }
            list.push(tool);
            Ok::<(), DuplicateTool>(())
        })
    }

    /// Removes the tool called `name`; whether there was one.
    pub(crate) fn remove(&self, name: &str) -> bool {
        self.change(|list| {
            let position = list.iter().position(|tool| tool.spec().name() == name).ok_or(())?;
            list.remove(position);
            Ok::<(), ()>(())
        })
        .is_ok()
    }

    /// A receiver that changes whenever tools are added or removed.
    pub(crate) fn changes(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// The resources as they are now, in the order they were added.
    pub(crate) fn resources(&self) -> Arc<Vec<Arc<dyn Resource>>> {
        self.resources.snapshot()
    }

    /// Adds `resource`, refusing a URI or template that is taken.
    pub(crate) fn add_resource(&self, resource: Arc<dyn Resource>) -> Result<(), DuplicateResource> {
        self.resources.add(resource).map_err(DuplicateResource::new)
    }

    /// Removes the resource at fixed URI or template `address`; whether there was one.
    pub(crate) fn remove_resource(&self, address: &str) -> bool {
        self.resources.remove(address)
    }

    /// A receiver that changes whenever resources are added or removed.
    pub(crate) fn resource_changes(&self) -> watch::Receiver<u64> {
        self.resources.changes()
    }

    /// Tells subscribers that the resource at `uri` changed.
    pub(crate) fn resource_updated(&self, uri: &str) {
        // No subscriber is not an error.
        let _ = self.resource_updates.send(uri.to_owned());
    }

    /// A receiver of the URIs of resources that changed.
    pub(crate) fn resource_updates(&self) -> broadcast::Receiver<String> {
        self.resource_updates.subscribe()
    }

    /// The prompts as they are now, in the order they were added.
    pub(crate) fn prompts(&self) -> Arc<Vec<Arc<dyn Prompt>>> {
        self.prompts.snapshot()
    }

    /// Adds `prompt`, refusing a name that is taken.
    pub(crate) fn add_prompt(&self, prompt: Arc<dyn Prompt>) -> Result<(), DuplicatePrompt> {
        self.prompts.add(prompt).map_err(DuplicatePrompt::new)
    }

    /// Removes the prompt called `name`; whether there was one.
    pub(crate) fn remove_prompt(&self, name: &str) -> bool {
        self.prompts.remove(name)
    }

    /// A receiver that changes whenever prompts are added or removed.
    pub(crate) fn prompt_changes(&self) -> watch::Receiver<u64> {
        self.prompts.changes()
    }

    fn change<E>(&self, change: impl FnOnce(&mut Vec<Arc<dyn Tool>>) -> Result<(), E>) -> Result<(), E> {
        let mut guard = self.tools.write().unwrap_or_else(PoisonError::into_inner);
        let mut list = guard.list.clone();
        change(&mut list)?;
        *guard = Arc::new(Tools::rebuilt(list));
        drop(guard);
        self.changes.send_modify(|generation| *generation += 1);
        Ok(())
    }
}

/// A resource's fixed URI or template text: what must be unique.
fn address(spec: &ResourceSpec) -> &str {
    spec.uri().or_else(|| spec.uri_template().map(|template| template.as_str())).unwrap_or_default()
}
