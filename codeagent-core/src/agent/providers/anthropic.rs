//! Anthropic Messages (`POST {base}/v1/messages`, `x-api-key`,
//! `anthropic-version`).
//!
//! The assistant's content blocks go back as they came (thinking blocks with
//! their signatures); the tool results are one user message right after it,
//! every `tool_result` block first, `is_error` on failures, images as base64
//! `image` blocks inside the `tool_result`.

use serde_json::{Map, Value, json};

use super::{Arguments, CallRequest, Decoder, Reply, Request, ToolReply, Wire, count, join};
use crate::agent::error::AgentError;
use crate::agent::events::Usage;
use crate::provider::Provider;

/// The API version sent in `anthropic-version`.
const VERSION: &str = "2023-06-01";
/// `max_tokens`, which Anthropic requires, when none is set.
const DEFAULT_MAX_TOKENS: u32 = 4096;

pub(super) struct Anthropic;

impl Wire for Anthropic {
    fn url(&self, base: &str, _model: &str, _stream: bool) -> String {
        join(base, "v1/messages")
    }

    fn headers(&self, key: Option<&str>) -> Vec<(&'static str, String)> {
        let mut headers = vec![("anthropic-version", VERSION.to_owned())];
        headers.extend(key.map(|key| ("x-api-key", key.to_owned())));
        headers
    }

    fn user(&self, prompt: &str) -> Value {
        json!({"role": "user", "content": prompt})
    }

    fn body(&self, request: &Request<'_>) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), request.model.into());
        body.insert("max_tokens".into(), request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS).into());
        if let Some(system) = request.system {
            body.insert("system".into(), system.into());
        }
        body.insert("messages".into(), Value::Array(request.messages.to_vec()));
        if request.tools.as_array().is_some_and(|tools| !tools.is_empty()) {
            body.insert("tools".into(), request.tools.clone());
        }
        body.insert("stream".into(), request.stream.into());
        Value::Object(body)
    }

    fn parse(&self, body: Value, _turn: usize) -> Result<Reply, AgentError> {
        let Some(Value::Array(content)) = body.get("content") else {
            return Err(AgentError::response(Provider::Anthropic, format!("no content in {body}")));
        };
        let blocks = content.iter().map(|block| (block.clone(), None)).collect();
        Ok(reply(blocks, usage(body.get("usage"))))
    }

    fn decoder(&self, _turn: usize) -> Box<dyn Decoder> {
        Box::new(Stream::default())
    }

    fn results(&self, results: &[ToolReply]) -> Vec<Value> {
        let blocks = results
            .iter()
            .map(|result| {
                let mut content = vec![json!({"type": "text", "text": result.text})];
                content.extend(result.images.iter().map(|(mime, b64)| {
                    json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": b64}})
                }));
                let mut block = json!({"type": "tool_result", "tool_use_id": result.call.id, "content": content});
                if result.is_error {
                    block["is_error"] = Value::Bool(true);
                }
                block
            })
            .collect();
        vec![json!({"role": "user", "content": Value::Array(blocks)})]
    }
}

fn usage(usage: Option<&Value>) -> Usage {
    let usage = usage.unwrap_or(&Value::Null);
    Usage {
        input_tokens: count(usage, "/input_tokens")
            + count(usage, "/cache_creation_input_tokens")
            + count(usage, "/cache_read_input_tokens"),
        output_tokens: count(usage, "/output_tokens"),
    }
}

/// The reply for content blocks, each with the JSON text of its input when
/// it was streamed.
fn reply(blocks: Vec<(Value, Option<String>)>, usage: Usage) -> Reply {
    let mut text = String::new();
    let mut calls = Vec::new();
    let mut content = Vec::new();
    for (mut block, streamed_input) in blocks {
        let kind = block.get("type").and_then(Value::as_str).unwrap_or_default().to_owned();
        match kind.as_str() {
            "text" => {
                text.push_str(&field(&block, "text"));
                content.push(keep(&block, &["type", "text", "citations"]));
            }
            "tool_use" => {
                let arguments = match streamed_input {
                    Some(json) if json.trim().is_empty() => Arguments::Json(Value::Object(Map::new())),
                    Some(json) => match serde_json::from_str::<Value>(&json) {
                        Ok(input) => {
                            block["input"] = input.clone();
                            Arguments::Json(input)
                        }
                        Err(_) => Arguments::Text(json),
                    },
                    None => Arguments::Json(block.get("input").cloned().unwrap_or(Value::Null)),
                };
                if !block.get("input").is_some_and(Value::is_object) {
                    block["input"] = Value::Object(Map::new());
                }
                let (id, name) = (field(&block, "id"), field(&block, "name"));
                calls.push(CallRequest { id, provider_id: true, name, arguments });
                content.push(keep(&block, &["type", "id", "name", "input"]));
            }
            "thinking" => content.push(keep(&block, &["type", "thinking", "signature"])),
            "redacted_thinking" => content.push(keep(&block, &["type", "data"])),
            _ => {}
        }
    }
    Reply { text, calls, native: vec![json!({"role": "assistant", "content": content})], usage }
}

/// The string `key` of `block`, or nothing.
fn field(block: &Value, key: &str) -> String {
    block.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// `block` with only `keys`, and none that is null.
fn keep(block: &Value, keys: &[&str]) -> Value {
    let mut kept = Map::new();
    for key in keys {
        if let Some(value) = block.get(*key).filter(|value| !value.is_null()) {
            kept.insert((*key).to_owned(), value.clone());
        }
    }
    Value::Object(kept)
}

/// A streamed message: `message_start`, content blocks by index, `message_stop`.
#[derive(Default)]
struct Stream {
    /// The blocks, with the JSON text of a `tool_use`'s input.
    blocks: Vec<(Value, Option<String>)>,
    usage: Usage,
    done: bool,
}

impl Decoder for Stream {
    fn event(&mut self, data: &str) -> Result<Option<String>, AgentError> {
        let event = super::json(Provider::Anthropic, data)?;
        let index = event.get("index").and_then(Value::as_u64).and_then(|index| usize::try_from(index).ok());
        match event.get("type").and_then(Value::as_str).unwrap_or_default() {
            "message_start" => self.usage = usage(event.pointer("/message/usage")),
            "content_block_start" => {
                let block = event.get("content_block").cloned().unwrap_or(Value::Null);
                let input = (block.get("type").and_then(Value::as_str) == Some("tool_use")).then(String::new);
                match index {
                    Some(index) if index <= self.blocks.len() + 64 => {
                        while self.blocks.len() <= index {
                            self.blocks.push((Value::Null, None));
                        }
                        self.blocks[index] = (block, input);
                    }
                    _ => return Err(AgentError::response(Provider::Anthropic, format!("bad block index in {data}"))),
                }
            }
            "content_block_delta" => {
                let Some((block, input)) = index.and_then(|index| self.blocks.get_mut(index)) else {
                    return Err(AgentError::response(Provider::Anthropic, format!("a delta for no block: {data}")));
                };
                let delta = event.get("delta").unwrap_or(&Value::Null);
                let piece = |key: &str| delta.get(key).and_then(Value::as_str).unwrap_or_default();
                match delta.get("type").and_then(Value::as_str).unwrap_or_default() {
                    "text_delta" => {
                        append(block, "text", piece("text"));
                        return Ok(Some(piece("text").to_owned()).filter(|text| !text.is_empty()));
                    }
                    "input_json_delta" => input.get_or_insert_with(String::new).push_str(piece("partial_json")),
                    "thinking_delta" => append(block, "thinking", piece("thinking")),
                    "signature_delta" => append(block, "signature", piece("signature")),
                    _ => {}
                }
            }
            "message_delta" => {
                let output = count(&event, "/usage/output_tokens");
                if output > 0 {
                    self.usage.output_tokens = output;
                }
            }
            "message_stop" => self.done = true,
            "error" => {
                let message = event.pointer("/error/message").and_then(Value::as_str).unwrap_or(data);
                return Err(AgentError::response(Provider::Anthropic, format!("the stream reports: {message}")));
            }
            _ => {}
        }
        Ok(None)
    }

    fn done(&self) -> bool {
        self.done
    }

    fn finish(self: Box<Self>) -> Result<Reply, AgentError> {
        Ok(reply(self.blocks, self.usage))
    }
}

/// Appends `piece` to the string `key` of `block`.
fn append(block: &mut Value, key: &str, piece: &str) {
    let Value::Object(block) = block else { return };
    if let Value::String(text) = block.entry(key).or_insert_with(|| Value::from("")) {
        text.push_str(piece);
    }
}
