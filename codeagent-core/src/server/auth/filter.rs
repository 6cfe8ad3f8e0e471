//! Lists that show each caller only what its token may use.

use serde_json::Value;

use crate::server::middleware::{BoxFuture, Middleware, Next, Request, Response};
use crate::toolbox::Toolbox;

/// A [middleware](crate::server::middleware) that leaves out of
/// `tools/list`, `resources/list` and `prompts/list` the tools, resources
/// and prompts whose scopes the caller's token lacks, so a model is never
/// offered a tool it would be refused. (The refusal itself, `403
/// insufficient_scope`, stands without it.)
///
/// ```
/// use codeagent_core::server::Server;
/// use codeagent_core::server::auth::ScopeFilter;
/// # let toolbox = codeagent_core::toolbox::Toolbox::new();
///
/// let server = Server::new(toolbox.clone()).with_middleware(ScopeFilter::new(&toolbox));
/// # let _ = server;
/// ```
#[derive(Clone, Debug)]
pub struct ScopeFilter {
    toolbox: Toolbox,
}

impl ScopeFilter {
    /// Filters the lists of `toolbox` (the server's own).
    pub fn new(toolbox: &Toolbox) -> Self {
        ScopeFilter { toolbox: toolbox.clone() }
    }

    /// The scopes an item of the list `method` needs.
    fn needed(&self, method: &str, item: &Value) -> Vec<String> {
        let text = |key: &str| item.get(key).and_then(Value::as_str).unwrap_or_default();
        match method {
            "tools/list" => self.toolbox.tools().scopes(text("name")),
            "resources/list" => self.toolbox.resources().scopes(text("uri")),
            "prompts/list" => self.toolbox.prompts().scopes(text("name")),
            _ => Vec::new(),
        }
    }
}

impl Middleware for ScopeFilter {
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
        Box::pin(async move {
            let method = request.method().to_owned();
            let caller = request.caller().cloned();
            let mut response = next.run(request).await;
            if matches!(method.as_str(), "tools/list" | "resources/list" | "prompts/list") {
                response.retain_listed(|item| {
                    let needed = self.needed(&method, item);
                    needed.is_empty() || caller.as_ref().is_some_and(|caller| caller.has_scopes(&needed))
                });
            }
            response
        })
    }
}
