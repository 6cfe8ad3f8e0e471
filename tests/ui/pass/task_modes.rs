//! `#[tool(task ...)]`: each mode, as the tool's spec records it.
use codeagent::prelude::*;
use codeagent::tools::TaskSupport;

/// Optional by default.
#[tool(task)]
async fn plain() -> String {
    String::new()
}

/// Required.
#[tool(task(required))]
async fn required() -> String {
    String::new()
}

/// Required, made at `ctx.detach()`.
#[tool(task(required, detach))]
async fn detached(ctx: &Context) -> String {
    ctx.detach().await;
    String::new()
}

/// Optional, made at `ctx.detach()` (the order does not matter).
#[tool(task(detach, optional))]
async fn optional_detached() -> String {
    String::new()
}

/// Not a task.
#[tool]
async fn ordinary() -> String {
    String::new()
}

fn main() {
    let toolbox = Toolbox::new().tool(plain).tool(required).tool(detached).tool(optional_detached).tool(ordinary);
    let spec = |name: &str| {
        let tool = toolbox.tools().find(name).unwrap();
        (tool.spec().task_support(), tool.spec().task_at_detach())
    };
    assert_eq!(spec("plain"), (Some(TaskSupport::Optional), false));
    assert_eq!(spec("required"), (Some(TaskSupport::Required), false));
    assert_eq!(spec("detached"), (Some(TaskSupport::Required), true));
    assert_eq!(spec("optional_detached"), (Some(TaskSupport::Optional), true));
    assert_eq!(spec("ordinary"), (None, false));
}
