//! The conformance fixture: the server the official MCP conformance suite runs against (not an
//! example to learn from; `tests/conformance/run.sh` runs it): the tools its scenarios call, each
//! answering as the scenario expects; the ones that ask the client are in `asking.rs`.
//!
//! ```sh
//! cargo run --example conformance_fixture -- --http 127.0.0.1:3001   # endpoint http://127.0.0.1:3001/mcp
//! ```

mod asking;
mod changes;
mod schema;
mod tasks;

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use codeagent::completion::Completer;
use codeagent::mcp::{CallToolResult, ContentBlock, InvalidContent, Role};
use codeagent::prelude::*;
use codeagent::prompts::{PromptArgument, PromptMessage, PromptSpec};
use codeagent::resources::{Blob, ResourceSpec};

/// A 1×1 red PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";

/// A minimal WAV file.
const WAV: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

/// Returns a simple text response.
#[tool]
fn test_simple_text() -> &'static str {
    "This is a simple text response for testing."
}

/// Returns an image content block.
#[tool]
fn test_image_content() -> Result<CallToolResult, InvalidContent> {
    CallToolResult::from_content(ContentBlock::image(PNG, "image/png")?)
}

/// Returns an audio content block.
#[tool]
fn test_audio_content() -> Result<CallToolResult, InvalidContent> {
    CallToolResult::from_content(ContentBlock::audio(WAV, "audio/wav")?)
}

/// Returns an embedded text resource.
#[tool]
fn test_embedded_resource() -> Result<CallToolResult, InvalidContent> {
    let resource = ContentBlock::embedded_text(
        "test://embedded-resource",
        "This is an embedded resource content.",
        Some("text/plain".to_owned()),
    )?;
    CallToolResult::from_content(resource)
}

/// Returns text, an image and an embedded resource together.
#[tool]
fn test_multiple_content_types() -> Result<CallToolResult, InvalidContent> {
    CallToolResult::from_content(vec![
        ContentBlock::text("Multiple content types test:"),
        ContentBlock::image(PNG, "image/png")?,
        ContentBlock::embedded_text(
            "test://mixed-content-resource",
            r#"{"test":"data","value":123}"#,
            Some("application/json".to_owned()),
        )?,
    ])
}

/// Sends three log messages while it runs.
#[tool]
async fn test_tool_with_logging(ctx: &Context) -> &'static str {
    ctx.info("Tool execution started");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool processing data");
    tokio::time::sleep(Duration::from_millis(50)).await;
    ctx.info("Tool execution completed");
    "Tool with logging executed successfully"
}

/// Reports progress three times, then returns the progress token.
#[tool]
async fn test_tool_with_progress(ctx: &Context) -> String {
    for step in [0.0, 50.0, 100.0] {
        ctx.progress(step, Some(100.0), Some(&format!("Completed step {step} of 100")));
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ctx.progress_token()
        .map(|token| token.as_str().map_or_else(|| token.to_string(), str::to_owned))
        .unwrap_or_default()
}

/// Logs one message: clients of 2026-07-28 see it only if their request set `_meta` logLevel.
#[tool]
fn test_logging_tool(ctx: &Context) -> &'static str {
    ctx.info("test_logging_tool ran");
    "Logged one message."
}

/// Always fails, as a tool error the model can read.
#[tool]
fn test_error_handling() -> Result<String, ToolError> {
    Err(ToolError::new("This tool intentionally returns an error for testing"))
}

/// Completes after a short wait (the suite's reconnection scenario calls it).
#[tool]
async fn test_reconnection() -> &'static str {
    tokio::time::sleep(Duration::from_millis(100)).await;
    "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."
}

/// The resources the suite reads: a text and a binary one, a template, and
/// one it subscribes to.
fn resources(toolbox: Toolbox) -> Toolbox {
    let spec = |uri: &str, name: &str| ResourceSpec::fixed(uri, name).expect("a valid resource URI");
    let text = spec("test://static-text", "static-text")
        .with_description("A static text resource.")
        .with_mime_type("text/plain")
        .serve(|_| async { "This is the content of the static text resource." });
    let binary = spec("test://static-binary", "static-binary")
        .with_description("A 1×1 PNG.")
        .serve(|_| async { Blob::new(STANDARD.decode(PNG).unwrap_or_default(), "image/png") });
    let watched = spec("test://watched-resource", "watched-resource")
        .with_mime_type("text/plain")
        .serve(|_| async { "Watched resource content" });
    let template = ResourceSpec::template("test://template/{id}/data", "template")
        .expect("a valid URI template")
        .with_description("JSON data for an id.")
        .with_mime_type("application/json")
        .serve(|read| async move {
            let id = read.variable("id").unwrap_or_default().to_owned();
            serde_json::json!({ "id": id, "templateTest": true, "data": format!("Data for ID: {id}") }).to_string()
        });
    toolbox.resource(text).resource(binary).resource(watched).resource(template)
}

/// The prompts the suite gets, with a completion for `arg1`.
fn prompts(toolbox: Toolbox) -> Toolbox {
    let simple = PromptSpec::new("test_simple_prompt")
        .with_description("A prompt without arguments.")
        .serve(|_| async { "This is a simple prompt for testing." });
    let with_arguments = PromptSpec::new("test_prompt_with_arguments")
        .with_description("A prompt with two required arguments.")
        .with_argument(
            PromptArgument::required("arg1")
                .with_description("The first argument.")
                .with_completer(Completer::from_values(["test", "testValue1", "other"])),
        )
        .with_argument(PromptArgument::required("arg2").with_description("The second argument."))
        .serve(|get| async move {
            let (arg1, arg2) = (get.argument("arg1").unwrap_or_default(), get.argument("arg2").unwrap_or_default());
            format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'")
        });
    let with_resource = PromptSpec::new("test_prompt_with_embedded_resource")
        .with_description("A prompt embedding a resource.")
        .with_argument(PromptArgument::required("resourceUri").with_description("The resource to embed."))
        .serve(|get| async move {
            let uri = get.argument("resourceUri").unwrap_or_default().to_owned();
            let embedded =
                ContentBlock::embedded_text(uri, "Embedded resource content for testing.", Some("text/plain".into()))?;
            Ok::<_, InvalidContent>(vec![
                PromptMessage::new(Role::User, embedded),
                PromptMessage::user("Please process the embedded resource above."),
            ])
        });
    let with_image =
        PromptSpec::new("test_prompt_with_image").with_description("A prompt with an image.").serve(|_| async {
            Ok::<_, InvalidContent>(vec![
                PromptMessage::new(Role::User, ContentBlock::image(PNG, "image/png")?),
                PromptMessage::user("Please analyze the image above."),
            ])
        });
    toolbox.prompt(simple).prompt(with_arguments).prompt(with_resource).prompt(with_image)
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let toolbox = Toolbox::new()
        .tool(test_simple_text)
        .tool(test_image_content)
        .tool(test_audio_content)
        .tool(test_embedded_resource)
        .tool(test_multiple_content_types)
        .tool(test_tool_with_logging)
        .tool(test_logging_tool)
        .tool(test_tool_with_progress)
        .tool(test_error_handling)
        .tool(test_reconnection)
        .tool(schema::JsonSchemaTool);
    let toolbox = tasks::add(changes::add(asking::add(prompts(resources(toolbox)))));
    codeagent::Server::new(toolbox).with_name("codeagent-conformance").run().await
}
