//! A tool that asks the client, three ways: the roots it lets the server work
//! on (`ctx.roots()`), a suggestion from the client's model (`ctx.sample`),
//! and the person's confirmation or own choice (`ctx.elicit`, a form made
//! from a struct). The same code serves both protocol eras; a client that
//! cannot answer one of the questions gets an error result saying which.
//!
//! ```sh
//! cargo run --example asking     # serve MCP on stdio, to a client with roots, sampling and elicitation
//! ```

use codeagent::Server;
use codeagent::ask::{Elicitation, Sampling};
use codeagent::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;

/// The person's answer to "use this name?".
#[derive(Deserialize, JsonSchema)]
struct NameChoice {
    /// Use the suggested name?
    accept: bool,
    /// Or this name instead.
    other: Option<String>,
}

/// Name the project in the client's first root: the client's model suggests a
/// name, and you confirm it or type another.
#[tool(title = "Name the project")]
async fn name_project(
    ctx: &Context,
    /// What the project does, in a few words.
    purpose: String,
) -> Result<String, ToolError> {
    let roots = ctx.roots().await?;
    let Some(root) = roots.first() else {
        return Err(ToolError::new("the client offers no roots, so there is no project to name"));
    };
    let place = root.name.clone().unwrap_or_else(|| root.uri.clone());

    let request = Sampling::new(20)
        .with_system_prompt("Answer with one short project name in kebab-case, nothing else.")
        .user(format!("Suggest a name for a project that does this: {purpose}"));
    let sampled = ctx.sample(request).await?;
    let suggestion = sampled.text().unwrap_or_default().trim().to_owned();

    let question = format!("Name the project in {place} `{suggestion}` (suggested by {})?", sampled.model);
    Ok(match ctx.elicit::<NameChoice>(question).await? {
        Elicitation::Accepted(NameChoice { accept: true, .. }) => format!("{} is now `{suggestion}`.", root.uri),
        Elicitation::Accepted(NameChoice { other: Some(other), .. }) => format!("{} is now `{other}`.", root.uri),
        Elicitation::Accepted(_) | Elicitation::Declined => format!("{} keeps its name.", root.uri),
        Elicitation::Cancelled => "Naming was cancelled.".to_owned(),
    })
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new(Toolbox::new().tool(name_project)).with_name("codeagent-asking").run().await
}
