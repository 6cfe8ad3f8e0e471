//! The tools (and the prompt) of the scenarios that ask the client: sampling
//! and elicitation in the legacy era (real requests to the client), multi
//! round-trip requests in 2026-07-28 (`input_required`), and the `x-mcp-header`
//! tool of SEP-2243.

use codeagent::ask::{AskError, Elicitation, Root, Sampling};
use codeagent::prelude::*;
use codeagent::prompts::{PromptMessage, PromptSpec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// What `test_elicitation` asks for.
#[derive(Debug, Deserialize, JsonSchema)]
struct Contact {
    /// User's response
    username: String,
    /// User's email address
    email: String,
}

/// Asks the client's model to answer `prompt` (sampling/createMessage).
#[tool]
async fn test_sampling(
    ctx: &Context,
    /// The question for the client's model.
    prompt: String,
) -> Result<String, ToolError> {
    let answer = ctx.sample(Sampling::new(100).user(prompt)).await?;
    Ok(format!("LLM response: {}", answer.text().unwrap_or("(not text)")))
}

/// Asks the person for a user name and an email address (elicitation/create).
#[tool]
async fn test_elicitation(
    ctx: &Context,
    /// What to tell the person when asking.
    message: String,
) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Contact>(message).await?;
    Ok(match answer {
        Elicitation::Accepted(contact) => {
            format!(
                "User response: action=accept, content={{username: {}, email: {}}}",
                contact.username, contact.email
            )
        }
        Elicitation::Declined => "User response: action=decline".to_owned(),
        Elicitation::Cancelled => "User response: action=cancel".to_owned(),
    })
}

/// A status with a default (SEP-1034).
#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    #[default]
    Active,
    Inactive,
    Pending,
}

fn default_name() -> String {
    "John Doe".to_owned()
}
fn default_age() -> i64 {
    30
}
fn default_score() -> f64 {
    95.5
}
fn default_verified() -> bool {
    true
}

/// A form whose every field has a default (SEP-1034).
#[derive(Debug, Deserialize, JsonSchema)]
struct Defaults {
    #[serde(default = "default_name")]
    name: String,
    #[serde(default = "default_age")]
    age: i64,
    #[serde(default = "default_score")]
    score: f64,
    #[serde(default)]
    status: Status,
    #[serde(default = "default_verified")]
    verified: bool,
}

/// Asks for a form whose fields have defaults (SEP-1034).
#[tool]
async fn test_elicitation_sep1034_defaults(ctx: &Context) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Defaults>("Please review your details").await?;
    Ok(match answer {
        Elicitation::Accepted(Defaults { name, age, score, status, verified }) => format!(
            "Elicitation completed: action=accept, content={{name: {name}, age: {age}, score: {score}, status: {status:?}, verified: {verified}}}"
        ),
        Elicitation::Declined => "Elicitation completed: action=decline".to_owned(),
        Elicitation::Cancelled => "Elicitation completed: action=cancel".to_owned(),
    })
}

/// Untitled choices.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Plain {
    Option1,
    Option2,
    Option3,
}

/// Titled single choices.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Titled {
    #[schemars(title = "First Option")]
    Value1,
    #[schemars(title = "Second Option")]
    Value2,
    #[schemars(title = "Third Option")]
    Value3,
}

/// Titled multiple choices.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum TitledChoice {
    #[schemars(title = "First Choice")]
    Value1,
    #[schemars(title = "Second Choice")]
    Value2,
    #[schemars(title = "Third Choice")]
    Value3,
}

/// Legacy choices, titled by `enumNames`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Legacy {
    Opt1,
    Opt2,
    Opt3,
}

/// Every enum shape of SEP-1330.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Enums {
    /// Pick one option.
    untitled_single: Option<Plain>,
    /// Pick one titled option.
    titled_single: Option<Titled>,
    /// Pick one (legacy titles).
    #[schemars(extend("enumNames" = ["Option One", "Option Two", "Option Three"]))]
    legacy_enum: Option<Legacy>,
    /// Pick several options.
    untitled_multi: Option<Vec<Plain>>,
    /// Pick several titled options.
    titled_multi: Option<Vec<TitledChoice>>,
}

/// Asks for a form with every enum shape (SEP-1330).
#[tool]
async fn test_elicitation_sep1330_enums(ctx: &Context) -> Result<String, ToolError> {
    let Some(enums) = ctx.elicit::<Enums>("Please choose").await?.accepted() else {
        return Ok("Elicitation completed: nothing chosen".to_owned());
    };
    let Enums { untitled_single, titled_single, legacy_enum, untitled_multi, titled_multi } = enums;
    Ok(format!(
        "Elicitation completed: {untitled_single:?} {titled_single:?} {legacy_enum:?} {untitled_multi:?} {titled_multi:?}"
    ))
}

/// A name.
#[derive(Debug, Deserialize, JsonSchema)]
struct Name {
    name: String,
}

/// A color.
#[derive(Debug, Deserialize, JsonSchema)]
struct Color {
    color: String,
}

/// A confirmation.
#[derive(Debug, Deserialize, JsonSchema)]
struct Confirmation {
    ok: bool,
}

/// Context for a prompt.
#[derive(Debug, Deserialize, JsonSchema)]
struct PromptContext {
    context: String,
}

/// The text of an elicited name, or what the person did instead.
fn name_of(answer: Elicitation<Name>) -> String {
    match answer {
        Elicitation::Accepted(Name { name }) => name,
        Elicitation::Declined => "(declined)".to_owned(),
        Elicitation::Cancelled => "(cancelled)".to_owned(),
    }
}

/// A text summary of roots.
fn roots_text(roots: &[Root]) -> String {
    roots.iter().map(|root| root.uri.as_str()).collect::<Vec<_>>().join(", ")
}

/// Needs sampling: refused with -32021 to a client that did not declare it.
#[tool(requires = ["sampling"])]
async fn test_missing_capability(ctx: &Context) -> Result<String, ToolError> {
    let answer = ctx.sample(Sampling::new(20).user("Say hello")).await?;
    Ok(answer.text().unwrap_or_default().to_owned())
}

/// Asks the person a question (in 2026-07-28, as an input_required result).
#[tool]
async fn test_streaming_elicitation(ctx: &Context) -> Result<String, ToolError> {
    let name = name_of(ctx.elicit::<Name>("What is your name?").await?);
    Ok(format!("Hello, {name}!"))
}

/// Asks the person's name as the input `user_name`.
#[tool]
async fn test_input_required_result_elicitation(ctx: &Context) -> Result<String, ToolError> {
    let name = name_of(ctx.question("user_name").elicit::<Name>("What is your name?").await?);
    Ok(format!("Hello, {name}!"))
}

/// Asks the client's model a question as the input `capital_question`.
#[tool]
async fn test_input_required_result_sampling(ctx: &Context) -> Result<String, ToolError> {
    let request = Sampling::new(100).user("What is the capital of France?");
    let answer = ctx.question("capital_question").sample(request).await?;
    Ok(format!("The model said: {}", answer.text().unwrap_or("(not text)")))
}

/// Asks the client's roots as the input `client_roots`.
#[tool]
async fn test_input_required_result_list_roots(ctx: &Context) -> Result<String, ToolError> {
    let roots = ctx.question("client_roots").roots().await?;
    Ok(format!("The client's roots: {}", roots_text(&roots)))
}

/// Asks for a confirmation carried across rounds in `requestState`.
#[tool]
async fn test_input_required_result_request_state(ctx: &Context) -> Result<String, ToolError> {
    let answer = ctx.question("confirm").elicit::<Confirmation>("Please confirm").await?;
    let confirmed = answer.accepted().is_some_and(|confirmation| confirmation.ok);
    Ok(format!("state-ok: confirmed={confirmed}"))
}

/// Asks three things at once: the person, the model and the roots.
#[tool]
async fn test_input_required_result_multiple_inputs(ctx: &Context) -> Result<String, ToolError> {
    let (name, greeting, roots) = tokio::join!(
        ctx.question("user_name").elicit::<Name>("What is your name?"),
        ctx.question("greeting").sample(Sampling::new(50).user("Generate a greeting")),
        ctx.question("client_roots").roots(),
    );
    let (name, greeting, roots) = (name_of(name?), greeting?, roots?);
    Ok(format!("{} {name} (roots: {})", greeting.text().unwrap_or("Hello"), roots_text(&roots)))
}

/// Asks two things one after the other: two rounds.
#[tool]
async fn test_input_required_result_multi_round(ctx: &Context) -> Result<String, ToolError> {
    let name = name_of(ctx.question("step1").elicit::<Name>("Step 1: What is your name?").await?);
    let color = ctx.question("step2").elicit::<Color>("Step 2: What is your favorite color?").await?;
    let color = color.accepted().map_or_else(|| "(none)".to_owned(), |color| color.color);
    Ok(format!("{name} likes {color}"))
}

/// Asks for a confirmation; a tampered `requestState` on the retry is refused.
#[tool]
async fn test_input_required_result_tampered_state(ctx: &Context) -> Result<String, ToolError> {
    let answer = ctx.question("confirm").elicit::<Confirmation>("Please confirm").await?;
    Ok(format!("confirmed: {}", answer.accepted().is_some_and(|confirmation| confirmation.ok)))
}

/// Asks only what the client declared it can answer: the person if it can
/// elicit, else its model.
#[tool]
async fn test_input_required_result_capabilities(ctx: &Context) -> Result<String, ToolError> {
    match ctx.question("user_name").elicit::<Name>("What is your name?").await {
        Ok(answer) => Ok(format!("Hello, {}!", name_of(answer))),
        Err(AskError::Unsupported { .. }) => {
            let answer = ctx.question("greeting").sample(Sampling::new(50).user("Generate a greeting")).await?;
            Ok(answer.text().unwrap_or("Hello").to_owned())
        }
        Err(error) => Err(error.into()),
    }
}

/// Echoes its `region` argument, which HTTP clients mirror into `Mcp-Param-Region` (SEP-2243).
#[tool]
fn test_header_parameter(
    /// The region to report.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: String,
) -> String {
    format!("region: {region}")
}

/// Adds the asking tools and prompt.
pub(crate) fn add(toolbox: Toolbox) -> Toolbox {
    let prompt = PromptSpec::new("test_input_required_result_prompt")
        .with_description("A prompt that asks the person for context first.")
        .serve(|get| async move {
            let answer = get
                .context()
                .question("user_context")
                .elicit::<PromptContext>("What context should the prompt use?")
                .await
                .map_err(|error| error.to_string())?;
            let context = answer.accepted().map_or_else(|| "no context".to_owned(), |answer| answer.context);
            Ok::<_, String>(vec![PromptMessage::user(format!("Answer with this context in mind: {context}"))])
        });
    toolbox
        .tool(test_sampling)
        .tool(test_elicitation)
        .tool(test_elicitation_sep1034_defaults)
        .tool(test_elicitation_sep1330_enums)
        .tool(test_missing_capability)
        .tool(test_streaming_elicitation)
        .tool(test_input_required_result_elicitation)
        .tool(test_input_required_result_sampling)
        .tool(test_input_required_result_list_roots)
        .tool(test_input_required_result_request_state)
        .tool(test_input_required_result_multiple_inputs)
        .tool(test_input_required_result_multi_round)
        .tool(test_input_required_result_tampered_state)
        .tool(test_input_required_result_capabilities)
        .tool(test_header_parameter)
        .prompt(prompt)
}
