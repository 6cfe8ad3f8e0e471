//! Resources: data a server offers by URI, read with `resources/read`. A
//! resource has a fixed URI, or a URI template (RFC 6570) whose variables
//! come back, matched from the URI read, as [`ResourceRead::variable`].
//!
//! ```
//! use codeagent_core::resources::ResourceSpec;
//! use codeagent_core::toolbox::Toolbox;
//!
//! # async fn demo() {
//! let readme = ResourceSpec::fixed("file:///README.md", "readme")
//!     .unwrap()
//!     .with_mime_type("text/markdown")
//!     .serve(|_read| async { "# Hello" });
//! let profile = ResourceSpec::template("users://{id}/profile", "profile")
//!     .unwrap()
//!     .serve(|read| async move { format!("user {}", read.variable("id").unwrap_or_default()) });
//! let toolbox = Toolbox::new().resource(readme).resource(profile);
//! let contents = toolbox.resources().read("users://42/profile").await.unwrap();
//! assert_eq!(contents[0].uri(), "users://42/profile");
//! # }
//! ```

mod contents;
mod function;
mod spec;

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

pub use contents::{Blob, IntoContents};
pub use function::FnResource;
pub use spec::{InvalidResource, ResourceSpec};

use super::Context;
use super::param::{State, StateMap};
use crate::mcp::ResourceContents;

/// The future a resource read returns.
pub type ResourceFuture = Pin<Box<dyn Future<Output = Result<Vec<ResourceContents>, ResourceError>> + Send + 'static>>;

/// A readable resource: a description and a way to read it.
pub trait Resource: Send + Sync + 'static {
    /// The resource's description, built once.
    fn spec(&self) -> &ResourceSpec;

    /// Reads the resource at `read.uri()`.
    fn read(&self, read: ResourceRead) -> ResourceFuture;
}

/// One read of a resource: the URI asked for, the template variables matched
/// from it, the request's context and the toolbox's shared state.
#[derive(Debug)]
pub struct ResourceRead {
    uri: String,
    variables: BTreeMap<String, String>,
    context: Context,
    state: Arc<StateMap>,
}

impl ResourceRead {
    pub(crate) fn new(
        uri: String,
        variables: BTreeMap<String, String>,
        context: Context,
        state: Arc<StateMap>,
    ) -> Self {
        ResourceRead { uri, variables, context, state }
    }

    /// The shared state of type `S` given to
    /// [`Toolbox::with_state`](crate::toolbox::Toolbox::with_state), when there is one.
    pub fn state<S: Send + Sync + 'static>(&self) -> Option<State<S>> {
        self.state.get::<S>().map(State)
    }

    /// A copy of this read (the URI, variables, context and state).
    pub(crate) fn duplicate(&self) -> Self {
        ResourceRead {
            uri: self.uri.clone(),
            variables: self.variables.clone(),
            context: self.context.clone(),
            state: Arc::clone(&self.state),
        }
    }

    /// The URI the client read.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The value of template variable `name`, decoded, when the URI gave one.
    pub fn variable(&self, name: &str) -> Option<&str> {
        self.variables.get(name).map(String::as_str)
    }

    /// Every template variable the URI gave, by name.
    pub fn variables(&self) -> &BTreeMap<String, String> {
        &self.variables
    }

    /// The request's context (cancellation, logging, progress).
    pub fn context(&self) -> &Context {
        &self.context
    }
}

/// Why a resource could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResourceError {
    /// No resource has this URI, or the resource says there is nothing there.
    #[error("Resource not found: {0}")]
    NotFound(String),
    /// The resource failed to read; the message says why.
    #[error("{0}")]
    Failed(String),
}

impl ResourceError {
    /// A failure with `message`.
    pub fn failed(message: impl Into<String>) -> Self {
        ResourceError::Failed(message.into())
    }
}
