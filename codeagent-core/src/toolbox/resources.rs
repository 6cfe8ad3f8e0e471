//! A toolbox's resources, as [`Toolbox::resources`] gives them.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::{broadcast, watch};

use super::completion::{Completion, guarded};
use super::errors::{CompleteError, DuplicateResource, InvalidCursor};
use super::listing::{CacheHint, Page, wire_page_of};
use super::resource::{Resource, ResourceError, ResourceFuture, ResourceRead, ResourceSpec};
use super::run::CatchPanic;
use super::shelf::Snapshot;
use super::{Context, Toolbox};
use crate::mcp::{ProtocolVersion, ResourceContents};

/// The resources of a [`Toolbox`] (fixed URIs and URI templates), in the
/// order they were added, shared by every clone of it. The same words as
/// [`Tools`](crate::tools::Tools) and [`Prompts`](crate::prompts::Prompts): `try_add`,
/// `remove`, `list`, `read`, `start`, `changes` (the toolbox's builder
/// [`Toolbox::resource`] adds).
///
/// ```
/// # use codeagent_core::toolbox::Toolbox;
/// let toolbox = Toolbox::new();
/// assert!(toolbox.resources().is_empty());
/// assert!(toolbox.resources().list(None).unwrap().items.is_empty());
/// ```
#[derive(Clone, Copy)]
pub struct Resources<'a> {
    toolbox: &'a Toolbox,
}

impl<'a> Resources<'a> {
    pub(super) fn new(toolbox: &'a Toolbox) -> Self {
        Resources { toolbox }
    }

    /// Adds a resource, refusing a URI or template that is taken. Servers
    /// serving this toolbox tell their clients the resource list changed.
    pub fn try_add(self, resource: impl Resource) -> Result<(), DuplicateResource> {
        self.toolbox.registry.resources.add(Arc::new(resource)).map_err(DuplicateResource::new)
    }

    /// Removes the resource at fixed URI or template `address`; whether there was one.
    pub fn remove(self, address: &str) -> bool {
        self.toolbox.registry.resources.remove(address)
    }

    /// One page of the resources' descriptions (fixed and templated, in
    /// order), from `cursor` (none for the first page).
    pub fn list(self, cursor: Option<&str>) -> Result<Page<ResourceSpec>, InvalidCursor> {
        let resources = self.toolbox.registry.resources.snapshot();
        let config = &self.toolbox.config;
        Page::of(resources.items(), cursor, config.page_size, config.cache, |resource| resource.spec().clone())
    }

    /// Every resource's description, in the order they were added.
    pub fn specs(self) -> Vec<ResourceSpec> {
        self.toolbox.registry.resources.snapshot().items().iter().map(|resource| resource.spec().clone()).collect()
    }

    /// Whether there is no resource (fixed or templated).
    pub fn is_empty(self) -> bool {
        self.toolbox.registry.resources.snapshot().items().is_empty()
    }

    /// Reads the resource at `uri`, detached from any client: a resource with
    /// that fixed URI, else the first template that matches it.
    pub async fn read(self, uri: &str) -> Result<Vec<ResourceContents>, ResourceError> {
        self.start(uri, Context::detached())?.await
    }

    /// Finds the resource at `uri` and starts reading it in `context`, without
    /// awaiting it. A panic while reading is a read failure.
    pub fn start(self, uri: &str, context: Context) -> Result<ResourceFuture, ResourceError> {
        let resources = self.toolbox.registry.resources.snapshot();
        let (resource, variables) = locate(&resources, uri).ok_or_else(|| ResourceError::NotFound(uri.to_owned()))?;
        let read = ResourceRead::new(uri.to_owned(), variables, context, Arc::clone(&self.toolbox.config.state));
        Ok(Box::pin(CatchPanic::new(resource.read(read), |message| {
            Err(ResourceError::failed(format!("The resource failed unexpectedly (it panicked: {message})")))
        })))
    }

    /// A receiver that changes whenever resources are added or removed.
    pub fn changes(self) -> watch::Receiver<u64> {
        self.toolbox.registry.resources.changes()
    }

    /// The caching hint of a read of `uri`: the resource's own, else the toolbox's.
    pub fn cache_hint(self, uri: &str) -> CacheHint {
        let resources = self.toolbox.registry.resources.snapshot();
        let found = locate(&resources, uri).map(|(resource, _)| resource);
        found.and_then(|resource| resource.spec().cache_hint()).unwrap_or(self.toolbox.config.cache)
    }

    /// The OAuth scopes a read of `uri` needs, or a completion of the
    /// template `uri` names (none for an unknown URI).
    pub fn scopes(self, uri: &str) -> Vec<String> {
        let resources = self.toolbox.registry.resources.snapshot();
        let found = locate(&resources, uri).map(|(resource, _)| resource).or_else(|| resources.find(uri));
        found.map(|resource| resource.spec().scopes().to_vec()).unwrap_or_default()
    }

    /// Tells every client subscribed to `uri` that the resource changed
    /// (`notifications/resources/updated`).
    pub fn notify_updated(self, uri: &str) {
        self.toolbox.registry.resource_updated(uri);
    }

    /// Completes `typed` for variable `variable` of resource template
    /// `template` (its text, as listed), given the other variables `given`.
    /// A variable without a completer gets no suggestion.
    pub fn complete(
        self,
        template: &str,
        variable: &str,
        typed: &str,
        given: &BTreeMap<String, String>,
    ) -> Result<Completion, CompleteError> {
        let resources = self.toolbox.registry.resources.snapshot();
        let spec = resources
            .find(template)
            .map(|resource| resource.spec())
            .filter(|spec| spec.uri_template().is_some())
            .ok_or_else(|| CompleteError::UnknownTemplate(template.to_owned()))?;
        let known = spec.uri_template().is_some_and(|known| known.variables().any(|name| name == variable));
        if !known {
            return Err(CompleteError::UnknownArgument {
                reference: template.to_owned(),
                argument: variable.to_owned(),
            });
        }
        guarded(spec.completer(variable), typed, given)
    }

    /// A receiver of the URIs of resources that changed.
    pub(crate) fn updates(self) -> broadcast::Receiver<String> {
        self.toolbox.registry.resource_updates()
    }

    /// A page of `resources/list` (fixed URIs) or, with `templates`, of
    /// `resources/templates/list`, for `version`.
    pub(crate) fn wire_page(
        self,
        version: ProtocolVersion,
        cursor: Option<&str>,
        templates: bool,
    ) -> Result<Value, InvalidCursor> {
        let resources = self.toolbox.registry.resources.snapshot();
        let wire: Vec<Value> = resources
            .items()
            .iter()
            .map(|resource| resource.spec())
            .filter(|spec| spec.uri_template().is_some() == templates)
            .map(|spec| spec.to_wire(version))
            .collect();
        let key = if templates { "resourceTemplates" } else { "resources" };
        let config = &self.toolbox.config;
        wire_page_of(version, key, &wire, cursor, config.page_size, config.cache)
    }
}

/// A template's variables as a URI fills them.
type Variables = BTreeMap<String, String>;

/// The resource that serves `uri`: the one with that fixed URI, else the
/// first template that matches it, with the template's variables.
fn locate<'s>(resources: &'s Snapshot<dyn Resource>, uri: &str) -> Option<(&'s Arc<dyn Resource>, Variables)> {
    if let Some(fixed) = resources.find(uri).filter(|resource| resource.spec().uri() == Some(uri)) {
        return Some((fixed, BTreeMap::new()));
    }
    resources
        .items()
        .iter()
        .filter(|resource| resource.spec().uri_template().is_some())
        .find_map(|resource| resource.spec().matches(uri).map(|variables| (resource, variables)))
}
