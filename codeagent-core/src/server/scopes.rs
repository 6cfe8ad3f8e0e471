//! The one rule of per-item OAuth scopes: which scopes a request needs
//! (those of the tool it calls, the resource or template it reads,
//! subscribes to or completes, the prompt it gets or completes), and the
//! refusal of a caller that lacks some of them.
//!
//! The engine applies it to every request as it reaches its handler (alone
//! or in a batch, over stdio or HTTP, in a legacy session or 2026-07-28,
//! after middleware): no path reaches a handler around it. The HTTP route
//! applies it once more before a single request is answered, only to refuse
//! it with `403` and the `insufficient_scope` challenge the authorization
//! spec asks for; a task's methods check the scopes its tool needed.

use serde_json::{Map, Value, json};

use crate::mcp::Method;
use crate::server::jsonrpc::{INVALID_REQUEST, RpcError};
use crate::toolbox::{Caller, Toolbox};

/// The scopes request `method` with `params` needs of `toolbox`.
pub(crate) fn needed(toolbox: &Toolbox, method: &str, params: &Map<String, Value>) -> Vec<String> {
    let text = |value: Option<&Value>| value.and_then(Value::as_str).unwrap_or_default().to_owned();
    match Method::from_name(method) {
        Some(Method::ToolsCall) => toolbox.tools().scopes(&text(params.get("name"))),
        Some(Method::ResourcesRead | Method::ResourcesSubscribe | Method::ResourcesUnsubscribe) => {
            toolbox.resources().scopes(&text(params.get("uri")))
        }
        Some(Method::PromptsGet) => toolbox.prompts().scopes(&text(params.get("name"))),
        Some(Method::Complete) => {
            let reference = params.get("ref");
            let field = |key: &str| text(reference.and_then(|reference| reference.get(key)));
            match reference.and_then(|reference| reference.get("type")).and_then(Value::as_str) {
                Some("ref/prompt") => toolbox.prompts().scopes(&field("name")),
                Some("ref/resource") => toolbox.resources().scopes(&field("uri")),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// The scopes of `needed` that `caller` lacks. A request without a caller
/// lacks them all where `caller_required` (a resource server's endpoint),
/// and none elsewhere (stdio: whoever started the server is trusted).
pub(crate) fn missing(needed: &[String], caller: Option<&Caller>, caller_required: bool) -> Vec<String> {
    match caller {
        Some(caller) => needed.iter().filter(|scope| !caller.scopes().contains(scope)).cloned().collect(),
        None if caller_required => needed.to_vec(),
        None => Vec::new(),
    }
}

/// The error of a request lacking the scopes `missing` of those `needed`,
/// where no HTTP status says it (a batch element, stdio): `-32600` with
/// `Forbidden: ...` as the `403`'s body has it, and `data` naming
/// `requiredScopes` and `missingScopes`.
pub(crate) fn forbidden(needed: &[String], missing: &[String]) -> RpcError {
    RpcError::new(INVALID_REQUEST, format!("Forbidden: the token lacks the scope {}", missing.join(" ")))
        .with_data(json!({ "requiredScopes": needed, "missingScopes": missing }))
}

/// The refusal of request `method` with `params` from `caller`, if it lacks
/// a scope the request needs.
pub(crate) fn check(
    toolbox: &Toolbox,
    method: &str,
    params: &Map<String, Value>,
    caller: Option<&Caller>,
    caller_required: bool,
) -> Option<RpcError> {
    if caller.is_none() && !caller_required {
        // Nobody to hold scopes, and nobody required: nothing can be missing.
        return None;
    }
    let needed = needed(toolbox, method, params);
    if needed.is_empty() {
        return None;
    }
    let missing = missing(&needed, caller, caller_required);
    (!missing.is_empty()).then(|| forbidden(&needed, &missing))
}
