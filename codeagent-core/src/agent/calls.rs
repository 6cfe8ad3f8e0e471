//! Running the tool calls of one turn: all at once, each result reported to
//! the host as soon as its tool finishes, and handed back in call order.
//!
//! Nothing here fails: an unknown tool, arguments that are not JSON (or not
//! an object), a tool error and a panic all become error results.

use std::future::Future;
use std::pin::Pin;

use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use serde_json::{Map, Value};
use tokio::sync::mpsc::UnboundedSender;

use super::error::AgentError;
use super::events::{AgentEvent, ToolCallStarted};
use super::providers::{Arguments, CallRequest, ToolReply};
use crate::mcp::ContentBlock;
use crate::output::{IntoToolResult, ToolError};
use crate::provider::ToolNames;
use crate::result::ToolResult;
use crate::toolbox::{CancellationToken, Context, RequestInfo, Toolbox};

/// Where events go: the stream's channel.
pub(super) type Emitter = UnboundedSender<Result<AgentEvent, AgentError>>;

/// The image types every provider that takes images in tool results accepts.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

type Running = Pin<Box<dyn Future<Output = (usize, ToolResult)> + Send>>;

/// Runs `calls` concurrently under `cancel`; their results in call order.
pub(super) async fn run(
    toolbox: &Toolbox,
    names: &ToolNames,
    calls: Vec<CallRequest>,
    cancel: &CancellationToken,
    emit: &Emitter,
) -> Vec<ToolReply> {
    let mut running: FuturesUnordered<Running> = FuturesUnordered::new();
    let mut tool_names = Vec::with_capacity(calls.len());
    for (index, call) in calls.iter().enumerate() {
        let tool = names.tool(&call.name).map(str::to_owned);
        let name = tool.clone().unwrap_or_else(|| call.name.clone());
        let arguments = parse(&call.arguments, &name);
        let shown = match &arguments {
            Ok(value) => value.clone(),
            Err(_) => match &call.arguments {
                Arguments::Text(text) => Value::from(text.as_str()),
                Arguments::Json(value) => value.clone(),
            },
        };
        let _ = emit.send(Ok(AgentEvent::ToolCallStarted(ToolCallStarted {
            id: call.id.clone(),
            name: name.clone(),
            arguments: shown,
        })));
        tracing::info!(
            "calling tool {} (call {})",
            crate::log_text::escaped(&name),
            crate::log_text::escaped(&call.id)
        );
        let future: Running = match (tool, arguments) {
            (None, _) => ready(index, unknown(&call.name, names)),
            (Some(_), Err(error)) => ready(index, error.into_tool_result()),
            (Some(tool), Ok(arguments)) => {
                let context =
                    Context::new(RequestInfo { cancellation: cancel.child_token(), ..RequestInfo::default() });
                match toolbox.tools().start(&tool, arguments, context) {
                    Ok(started) => Box::pin(async move { (index, started.await) }),
                    Err(error) => ready(index, ToolError::new(error.to_string()).into_tool_result()),
                }
            }
        };
        running.push(future);
        tool_names.push(name);
    }
    let mut replies: Vec<Option<ToolReply>> = vec![None; calls.len()];
    while let Some((index, result)) = running.next().await {
        let call = calls[index].clone();
        let reply = model_reply(call.clone(), &result);
        let _ = emit.send(Ok(AgentEvent::ToolResult(result.into_event(call.id, tool_names[index].clone()))));
        replies[index] = Some(reply);
    }
    replies.into_iter().flatten().collect()
}

fn ready(index: usize, result: ToolResult) -> Running {
    Box::pin(std::future::ready((index, result)))
}

/// The arguments as a JSON object (an empty text is `{}`), or the tool
/// error saying why they are not.
fn parse(arguments: &Arguments, tool: &str) -> Result<Value, ToolError> {
    let value = match arguments {
        Arguments::Json(value) => value.clone(),
        Arguments::Text(text) if text.trim().is_empty() => Value::Object(Map::new()),
        Arguments::Text(text) => serde_json::from_str(text).map_err(|error| {
            ToolError::new(format!("The arguments for tool `{tool}` are not valid JSON ({error}); send a JSON object"))
                .with_detail(shorten(text))
        })?,
    };
    match value {
        Value::Object(_) | Value::Null => Ok(value),
        other => Err(ToolError::new(format!(
            "The arguments for tool `{tool}` must be a JSON object, not {}",
            match other {
                Value::Array(_) => "an array",
                Value::String(_) => "a string",
                Value::Number(_) => "a number",
                _ => "a boolean",
            }
        ))),
    }
}

/// The error result for a tool the toolbox does not offer.
fn unknown(name: &str, names: &ToolNames) -> ToolResult {
    let offered: Vec<&str> = names.iter().map(|(provider, _)| provider).collect();
    ToolError::new(format!("Unknown tool `{name}`; the tools are: {}", offered.join(", "))).into_tool_result()
}

/// What the model gets for `result`: the portable value and the images of its
/// MCP content; never the artifact or the display.
fn model_reply(call: CallRequest, result: &ToolResult) -> ToolReply {
    let images = result
        .clone()
        .into_call_result()
        .content()
        .iter()
        .filter_map(|block| match block {
            ContentBlock::Image(image) if IMAGE_TYPES.contains(&image.mime_type.as_str()) => {
                Some((image.mime_type.clone(), image.data.clone()))
            }
            _ => None,
        })
        .collect();
    ToolReply { call, text: result.value().to_owned(), images, is_error: result.is_error() }
}

/// At most 200 characters of `text`.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}
