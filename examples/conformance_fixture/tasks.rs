//! The tools the official suite's `tasks-*` scenarios (the tasks extension,
//! SEP-2663) call: an ordinary tool, task tools that sleep, fail, panic and
//! ask, and one that asks first (as rounds of the request) and then goes on
//! as a task.

use codeagent::ask::Elicitation;
use codeagent::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;

/// Greets `name` (an ordinary tool: never a task).
#[tool]
fn greet(
    /// The name of the person to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Works for `seconds` seconds, then says it is done: a task for clients of
/// the tasks extension. Cancelling the task stops it.
#[tool(task)]
async fn slow_compute(
    ctx: &Context,
    /// How long to work, in seconds.
    seconds: f64,
    /// What to call the job in progress messages (default "job").
    label: Option<String>,
) -> Result<String, ToolError> {
    let label = label.unwrap_or_else(|| "job".to_owned());
    let wait = std::time::Duration::try_from_secs_f64(seconds)
        .map_err(|_| ToolError::new(format!("`seconds` must be a duration, not {seconds}")))?;
    ctx.progress(0.0, Some(1.0), Some(&format!("computing {label}")));
    tokio::select! {
        () = tokio::time::sleep(wait) => Ok(format!("Computed {label} in {seconds} seconds")),
        () = ctx.cancelled() => Err(ToolError::new(format!("{label} was cancelled"))),
    }
}

/// Fails after about a second with a tool error (only as a task).
#[tool(task(required))]
async fn failing_job() -> Result<String, ToolError> {
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    Err(ToolError::new("The job failed: the input could not be processed"))
}

/// Panics: the task ends `failed` with a JSON-RPC error.
#[tool(task)]
async fn protocol_error_job() -> String {
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    panic!("the job's worker crashed")
}

/// A yes or no.
#[derive(Debug, Deserialize, JsonSchema)]
struct Confirmation {
    /// Whether to go ahead.
    confirm: bool,
}

/// A name.
#[derive(Debug, Deserialize, JsonSchema)]
struct Name {
    /// The name.
    name: String,
}

/// Asks whether to delete `filename`, then says what it did.
#[tool(task)]
async fn confirm_delete(
    ctx: &Context,
    /// The file to delete once confirmed.
    filename: String,
) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Confirmation>(format!("Delete {filename}?")).await?;
    Ok(match answer {
        Elicitation::Accepted(Confirmation { confirm: true }) => format!("Deleted {filename}"),
        _ => format!("Kept {filename}"),
    })
}

/// Asks two questions at once, then reports both answers.
#[tool(task)]
async fn multi_input(ctx: &Context) -> Result<String, ToolError> {
    let (name, confirmation) = tokio::join!(ctx.elicit::<Name>("Your name?"), ctx.elicit::<Confirmation>("Go ahead?"));
    let name = name?.accepted().map_or_else(|| "(no name)".to_owned(), |name| name.name);
    let confirmed = confirmation?.accepted().is_some_and(|confirmation| confirmation.confirm);
    Ok(format!("name: {name}, confirmed: {confirmed}"))
}

/// Asks the user's name with the request, then greets them from a task.
#[tool(task(required, detach))]
async fn test_tool_with_task(ctx: &Context) -> Result<String, ToolError> {
    let name = ctx.question("user_name").elicit::<Name>("What is your name?").await?;
    let name = name.accepted().map_or_else(|| "stranger".to_owned(), |name| name.name);
    ctx.detach().await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    Ok(format!("Hello, {name}! (from task {})", ctx.task_id().unwrap_or("none")))
}

/// Adds the tasks tools.
pub(crate) fn add(toolbox: Toolbox) -> Toolbox {
    toolbox
        .tool(greet)
        .tool(slow_compute)
        .tool(failing_job)
        .tool(protocol_error_job)
        .tool(confirm_delete)
        .tool(multi_input)
        .tool(test_tool_with_task)
}
