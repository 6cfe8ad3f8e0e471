//! The diagnostic hooks of `server-stateless` (SEP-2575): tools that change
//! the tool list and the prompt list while a `subscriptions/listen` stream is
//! open, so the suite can see the list-changed notifications arrive.

use std::sync::OnceLock;

use codeagent::prelude::*;
use codeagent::prompts::PromptSpec;

/// The toolbox being served, for the hooks to change.
static SERVED: OnceLock<Toolbox> = OnceLock::new();

/// A tool that comes and goes.
#[tool]
fn test_transient_tool() -> &'static str {
    "here for now"
}

/// Adds or removes `test_transient_tool`: the tool list changes.
#[tool]
fn test_trigger_tool_change() -> Result<&'static str, ToolError> {
    let toolbox = SERVED.get().ok_or_else(|| ToolError::new("the server is not serving yet"))?;
    if toolbox.tools().remove("test_transient_tool") {
        return Ok("removed test_transient_tool");
    }
    toolbox.tools().try_add(test_transient_tool).map_err(ToolError::from)?;
    Ok("added test_transient_tool")
}

/// Adds or removes the prompt `test_transient_prompt`: the prompt list changes.
#[tool]
fn test_trigger_prompt_change() -> Result<&'static str, ToolError> {
    let toolbox = SERVED.get().ok_or_else(|| ToolError::new("the server is not serving yet"))?;
    if toolbox.prompts().remove("test_transient_prompt") {
        return Ok("removed test_transient_prompt");
    }
    let prompt = PromptSpec::new("test_transient_prompt")
        .with_description("A prompt that comes and goes.")
        .serve(|_| async { "here for now" });
    toolbox.prompts().try_add(prompt).map_err(ToolError::from)?;
    Ok("added test_transient_prompt")
}

/// Adds the hooks, and remembers the toolbox they change.
pub(crate) fn add(toolbox: Toolbox) -> Toolbox {
    let toolbox = toolbox.tool(test_trigger_tool_change).tool(test_trigger_prompt_change);
    let _ = SERVED.set(toolbox.clone());
    toolbox
}
