//! The live, shared part of a toolbox: its tools, which every clone sees, and
//! the signal servers watch to tell clients the list changed.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use serde_json::Value;
use tokio::sync::watch;

use super::Tool;
use super::errors::DuplicateTool;
use super::schema::client_compatible;
use crate::mcp::ProtocolVersion;

/// The tools, shared by every clone of a toolbox.
pub(crate) struct Registry {
    tools: RwLock<Arc<Tools>>,
    changes: watch::Sender<u64>,
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

    /// Every tool as `version` defines it, with client-compatible schemas when asked.
    pub(crate) fn wire(&self, version: ProtocolVersion, compatible: bool) -> &[Value] {
        let position = ProtocolVersion::ALL.iter().position(|known| *known == version).unwrap_or(0);
        let slot = position * 2 + usize::from(compatible);
        self.wire[slot].get_or_init(|| {
            self.list
                .iter()
                .map(|tool| {
                    let definition = tool.spec().definition();
                    if compatible {
                        compatible_definition(definition).to_wire(version)
                    } else {
                        definition.to_wire(version)
                    }
                })
                .collect()
        })
    }

    fn rebuilt(list: Vec<Arc<dyn Tool>>) -> Tools {
        let index = list.iter().enumerate().map(|(position, tool)| (tool.spec().name().to_owned(), position)).collect();
        let wire = (0..ProtocolVersion::ALL.len() * 2).map(|_| OnceLock::new()).collect();
        Tools { list, index, wire }
    }
}

/// `definition` with its schemas in client-compatible form.
pub(crate) fn compatible_definition(definition: &crate::mcp::ToolDefinition) -> crate::mcp::ToolDefinition {
    let mut definition = definition.clone();
    definition.input_schema = client_compatible(&definition.input_schema);
    definition.output_schema = definition.output_schema.as_ref().map(client_compatible);
    definition
}

impl Default for Registry {
    fn default() -> Self {
        Registry { tools: RwLock::new(Arc::new(Tools::rebuilt(Vec::new()))), changes: watch::channel(0).0 }
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
