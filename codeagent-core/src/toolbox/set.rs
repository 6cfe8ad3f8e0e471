//! Tools contributed by an impl block marked `#[codeagent::toolbox]`.

use std::sync::Arc;

use super::Tool;

/// Tools an impl block contributes, as `#[codeagent::toolbox]` generates: each
/// method marked `#[tool]` becomes a tool sharing the value as `&self`.
pub trait ToolSet: Send + Sync + 'static {
    /// The tools, each holding a reference to `self`.
    fn tools(self: Arc<Self>) -> Vec<Arc<dyn Tool>>;
}

/// A [`ToolSet`], or an `Arc` of one: what [`Toolbox::tool_set`](super::Toolbox::tool_set) takes.
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
