//! The static description of a resource: its address (a fixed URI or a URI
//! template), name and presentation, and its wire forms per version.

use std::collections::BTreeMap;
use std::future::Future;

use serde_json::{Map, Value, json};

use super::function::FnResource;
use super::{IntoContents, ResourceRead};
use crate::mcp::{Annotations, Icon, ProtocolVersion, checked_uri};
use crate::toolbox::completion::Completer;
use crate::toolbox::listing::CacheHint;
use crate::uri_template::UriTemplate;

/// Where a resource lives.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Address {
    Fixed(String),
    Template(UriTemplate),
}

/// A resource's URI or template, name and presentation.
#[derive(Clone, Debug)]
pub struct ResourceSpec {
    address: Address,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    size: Option<u64>,
    annotations: Option<Annotations>,
    icons: Vec<Icon>,
    meta: Option<Map<String, Value>>,
    scopes: Vec<String>,
    completers: BTreeMap<String, Completer>,
    cache: Option<CacheHint>,
}

/// A resource URI or template that cannot be served.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the resource `{name}` cannot be served: {problem}")]
pub struct InvalidResource {
    name: String,
    problem: String,
}

impl InvalidResource {
    /// The resource's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl ResourceSpec {
    /// A resource at `uri` (an absolute URI such as `file:///notes.txt`), called `name`.
    pub fn fixed(uri: impl Into<String>, name: impl Into<String>) -> Result<Self, InvalidResource> {
        let name = name.into();
        let uri = checked_uri(uri.into(), "uri")
            .map_err(|error| InvalidResource { name: name.clone(), problem: error.to_string() })?;
        Ok(ResourceSpec::at(Address::Fixed(uri), name))
    }

    /// Resources at the URIs RFC 6570 template `template` expands to, such
    /// as `users://{id}/profile`, called `name`. A template that cannot be
    /// matched back from a URI (explode or prefix modifiers, two expressions
    /// with no literal between them) is refused.
    pub fn template(template: &str, name: impl Into<String>) -> Result<Self, InvalidResource> {
        let name = name.into();
        let invalid = |problem: String| InvalidResource { name: name.clone(), problem };
        let parsed = UriTemplate::parse(template).map_err(|error| invalid(error.to_string()))?;
        if !parsed.is_matchable() {
            return Err(invalid(format!(
                "the URI template `{template}` cannot be matched back from a URI (an explode or prefix modifier, \
                 or two expressions with nothing between them)"
            )));
        }
        Ok(ResourceSpec::at(Address::Template(parsed), name))
    }

    fn at(address: Address, name: String) -> Self {
        ResourceSpec {
            address,
            name,
            title: None,
            description: None,
            mime_type: None,
            size: None,
            annotations: None,
            icons: Vec::new(),
            meta: None,
            scopes: Vec::new(),
            completers: BTreeMap::new(),
            cache: None,
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

    /// Sets the MIME type, also given to contents that carry none of their own.
    #[must_use]
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// Sets the size in bytes, when known before reading (fixed URIs only).
    #[must_use]
    pub fn with_size(mut self, size: u64) -> Self {
        self.size = Some(size);
        self
    }

    /// Sets the annotations (audience, priority, last modified).
    #[must_use]
    pub fn with_annotations(mut self, annotations: Annotations) -> Self {
        self.annotations = (!annotations.is_empty()).then_some(annotations);
        self
    }

    /// Adds an icon (sent from 2025-11-25).
    #[must_use]
    pub fn with_icon(mut self, icon: Icon) -> Self {
        self.icons.push(icon);
        self
    }

    /// Needs the OAuth scope `scope` to be read: on a server that checks
    /// tokens (feature `auth`), a token without it is refused with `403
    /// insufficient_scope`. Elsewhere it changes nothing.
    #[must_use]
    pub fn with_scope(mut self, scope: impl Into<String>) -> Self {
        crate::toolbox::scopes::add(&mut self.scopes, scope.into());
        self
    }

    /// The OAuth scopes a read needs ([`with_scope`](Self::with_scope)).
    pub fn scopes(&self) -> &[String] {
        &self.scopes
    }

    /// Adds a `_meta` entry (sent from 2025-06-18).
    #[must_use]
    pub fn with_meta(mut self, key: impl Into<String>, value: Value) -> Self {
        self.meta.get_or_insert_with(Map::new).insert(key.into(), value);
        self
    }

    /// Suggests values for template variable `variable` (`completion/complete`).
    ///
    /// # Panics
    ///
    /// When the resource has no template, or its template has no such
    /// variable: a bug in the program describing the resource.
    #[must_use]
    #[track_caller]
    pub fn with_completer(mut self, variable: &str, completer: Completer) -> Self {
        let known = self.uri_template().is_some_and(|template| template.variables().any(|name| name == variable));
        assert!(known, "the resource `{}` has no template variable `{variable}` to complete", self.name);
        self.completers.insert(variable.to_owned(), completer);
        self
    }

    /// The completer of template variable `variable`, when one is attached.
    pub fn completer(&self, variable: &str) -> Option<&Completer> {
        self.completers.get(variable)
    }

    /// Sets how long clients may cache what a read of this resource returns
    /// (2026-07-28 `ttlMs` and `cacheScope`), instead of the toolbox's hint.
    #[must_use]
    pub fn with_cache_hint(mut self, cache: CacheHint) -> Self {
        self.cache = Some(cache);
        self
    }

    /// The caching hint of this resource's reads, when it has its own.
    pub fn cache_hint(&self) -> Option<CacheHint> {
        self.cache
    }

    /// A resource that answers every read with `read`'s result.
    pub fn serve<F, Fut>(self, read: F) -> FnResource<F>
    where
        F: Fn(ResourceRead) -> Fut + Send + Sync + 'static,
        Fut: Future + Send + 'static,
        Fut::Output: IntoContents,
    {
        FnResource::new(self, read)
    }

    /// The resource's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The fixed URI, when the resource has one.
    pub fn uri(&self) -> Option<&str> {
        match &self.address {
            Address::Fixed(uri) => Some(uri),
            Address::Template(_) => None,
        }
    }

    /// The URI template, when the resource has one.
    pub fn uri_template(&self) -> Option<&UriTemplate> {
        match &self.address {
            Address::Fixed(_) => None,
            Address::Template(template) => Some(template),
        }
    }

    /// The MIME type, when set.
    pub fn mime_type(&self) -> Option<&str> {
        self.mime_type.as_deref()
    }

    /// The template variables `uri` gives this resource: empty for its fixed
    /// URI, `None` when `uri` is not this resource's.
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        match &self.address {
            Address::Fixed(fixed) => (fixed == uri).then(BTreeMap::new),
            Address::Template(template) => template.matches(uri),
        }
    }

    /// The `Resource` (fixed URI) or `ResourceTemplate` entry of a listing, as
    /// `version` defines it.
    pub fn to_wire(&self, version: ProtocolVersion) -> Value {
        let mut entry = Map::new();
        match &self.address {
            Address::Fixed(uri) => entry.insert("uri".into(), Value::from(uri.as_str())),
            Address::Template(template) => entry.insert("uriTemplate".into(), Value::from(template.as_str())),
        };
        entry.insert("name".into(), Value::from(self.name.as_str()));
        let since_2025_06 = version.has_structured_content();
        if let Some(title) = self.title.as_ref().filter(|_| since_2025_06) {
            entry.insert("title".into(), Value::from(title.as_str()));
        }
        if let Some(description) = &self.description {
            entry.insert("description".into(), Value::from(description.as_str()));
        }
        if let Some(mime_type) = &self.mime_type {
            entry.insert("mimeType".into(), Value::from(mime_type.as_str()));
        }
        if let (Some(size), Address::Fixed(_)) = (self.size, &self.address) {
            entry.insert("size".into(), Value::from(size));
        }
        if let Some(annotations) =
            self.annotations.as_ref().and_then(|annotations| annotations.for_version(since_2025_06))
        {
            entry.insert("annotations".into(), json!(annotations));
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
