//! OpenAI Chat Completions (`POST {base}/chat/completions`), which
//! OpenAI-compatible local servers (Ollama, vLLM, llama.cpp) speak too.
//!
//! Tool results are one `role: tool` message per call, right after the
//! assistant message, text only.

use serde_json::{Map, Value, json};

use super::{Arguments, CallRequest, Decoder, Reply, Request, ToolReply, Wire, count, join};
use crate::agent::error::AgentError;
use crate::agent::events::Usage;
use crate::provider::Provider;

pub(super) struct Chat;

impl Wire for Chat {
    fn url(&self, base: &str, _model: &str, _stream: bool) -> String {
        join(base, "chat/completions")
    }

    fn headers(&self, key: Option<&str>) -> Vec<(&'static str, String)> {
        key.map(|key| ("authorization", format!("Bearer {key}"))).into_iter().collect()
    }

    fn user(&self, prompt: &str) -> Value {
        json!({"role": "user", "content": prompt})
    }

    fn body(&self, request: &Request<'_>) -> Value {
        let mut messages = Vec::with_capacity(request.messages.len() + 1);
        if let Some(system) = request.system {
            messages.push(json!({"role": "system", "content": system}));
        }
        messages.extend(request.messages.iter().cloned());
        let mut body = Map::new();
        body.insert("model".into(), request.model.into());
        body.insert("messages".into(), Value::Array(messages));
        if request.tools.as_array().is_some_and(|tools| !tools.is_empty()) {
            body.insert("tools".into(), request.tools.clone());
        }
        if let Some(max) = request.max_tokens {
            body.insert("max_completion_tokens".into(), max.into());
        }
        body.insert("stream".into(), request.stream.into());
        if request.stream {
            body.insert("stream_options".into(), json!({"include_usage": true}));
        }
        Value::Object(body)
    }

    fn parse(&self, body: Value, _turn: usize) -> Result<Reply, AgentError> {
        let message = body
            .pointer("/choices/0/message")
            .ok_or_else(|| AgentError::response(Provider::OpenAiChat, format!("no choices[0].message in {body}")))?;
        let text = message.get("content").and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut calls = Vec::new();
        for call in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let function = call.get("function").unwrap_or(&Value::Null);
            calls.push(Partial {
                id: call.get("id").and_then(Value::as_str).unwrap_or_default().to_owned(),
                name: function.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                arguments: function.get("arguments").and_then(Value::as_str).unwrap_or_default().to_owned(),
            });
        }
        Ok(reply(text, calls, usage(&body)))
    }

    fn decoder(&self, _turn: usize) -> Box<dyn Decoder> {
        Box::new(Stream::default())
    }

    fn results(&self, results: &[ToolReply]) -> Vec<Value> {
        results
            .iter()
            .map(|result| json!({"role": "tool", "tool_call_id": result.call.id, "content": result.text}))
            .collect()
    }
}

/// A tool call as it is put together.
#[derive(Default)]
struct Partial {
    id: String,
    name: String,
    arguments: String,
}

fn usage(body: &Value) -> Usage {
    Usage { input_tokens: count(body, "/usage/prompt_tokens"), output_tokens: count(body, "/usage/completion_tokens") }
}

/// The reply, and the assistant message that goes back into the conversation.
fn reply(text: String, partials: Vec<Partial>, usage: Usage) -> Reply {
    let mut calls = Vec::with_capacity(partials.len());
    let mut wire = Vec::with_capacity(partials.len());
    for (index, partial) in partials.into_iter().enumerate() {
        let id = if partial.id.is_empty() { format!("call_{index}") } else { partial.id };
        wire.push(
            json!({"id": id, "type": "function", "function": {"name": partial.name, "arguments": partial.arguments}}),
        );
        calls.push(CallRequest {
            id,
            provider_id: true,
            name: partial.name,
            arguments: Arguments::Text(partial.arguments),
        });
    }
    let mut message = Map::new();
    message.insert("role".into(), "assistant".into());
    message
        .insert("content".into(), if text.is_empty() && !wire.is_empty() { Value::Null } else { text.clone().into() });
    if !wire.is_empty() {
        message.insert("tool_calls".into(), Value::Array(wire));
    }
    Reply { text, calls, native: vec![Value::Object(message)], usage }
}

/// A streamed answer: `chat.completion.chunk`s, then `[DONE]`.
#[derive(Default)]
struct Stream {
    text: String,
    calls: Vec<Partial>,
    usage: Usage,
    done: bool,
}

impl Decoder for Stream {
    fn event(&mut self, data: &str) -> Result<Option<String>, AgentError> {
        if data.trim() == "[DONE]" {
            self.done = true;
            return Ok(None);
        }
        let chunk = super::json(Provider::OpenAiChat, data)?;
        if let Some(error) = chunk.get("error") {
            return Err(AgentError::response(Provider::OpenAiChat, format!("the stream reports an error: {error}")));
        }
        if chunk.get("usage").is_some_and(Value::is_object) {
            self.usage = usage(&chunk);
        }
        let Some(delta) = chunk.pointer("/choices/0/delta") else { return Ok(None) };
        for call in delta.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let index = call.get("index").and_then(Value::as_u64).map_or(self.calls.len(), |index| index as usize);
            if index > self.calls.len() + 64 {
                return Err(AgentError::response(
                    Provider::OpenAiChat,
                    format!("tool call index {index} out of order"),
                ));
            }
            while self.calls.len() <= index {
                self.calls.push(Partial::default());
            }
            let partial = &mut self.calls[index];
            if let Some(id) = call.get("id").and_then(Value::as_str) {
                id.clone_into(&mut partial.id);
            }
            if let Some(name) = call.pointer("/function/name").and_then(Value::as_str) {
                partial.name.push_str(name);
            }
            if let Some(arguments) = call.pointer("/function/arguments").and_then(Value::as_str) {
                partial.arguments.push_str(arguments);
            }
        }
        let text = delta.get("content").and_then(Value::as_str).filter(|text| !text.is_empty());
        if let Some(text) = text {
            self.text.push_str(text);
        }
        Ok(text.map(str::to_owned))
    }

    fn done(&self) -> bool {
        self.done
    }

    fn finish(self: Box<Self>) -> Result<Reply, AgentError> {
        Ok(reply(self.text, self.calls, self.usage))
    }
}
