//! OpenAI Responses (`POST {base}/responses`).
//!
//! The model's output items go back into `input` as they came (reasoning
//! items included); each tool result is a `function_call_output` with the
//! call's `call_id`, images as `input_image` data URLs.

use serde_json::{Map, Value, json};

use super::{Arguments, CallRequest, Decoder, Reply, Request, ToolReply, Wire, count, data_url, join};
use crate::agent::error::AgentError;
use crate::agent::events::Usage;
use crate::provider::Provider;

pub(super) struct Responses;

impl Wire for Responses {
    fn url(&self, base: &str, _model: &str, _stream: bool) -> String {
        join(base, "responses")
    }

    fn headers(&self, key: Option<&str>) -> Vec<(&'static str, String)> {
        key.map(|key| ("authorization", format!("Bearer {key}"))).into_iter().collect()
    }

    fn user(&self, prompt: &str) -> Value {
        json!({"role": "user", "content": prompt})
    }

    fn body(&self, request: &Request<'_>) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), request.model.into());
        if let Some(system) = request.system {
            body.insert("instructions".into(), system.into());
        }
        body.insert("input".into(), Value::Array(request.messages.to_vec()));
        if request.tools.as_array().is_some_and(|tools| !tools.is_empty()) {
            body.insert("tools".into(), request.tools.clone());
        }
        if let Some(max) = request.max_tokens {
            body.insert("max_output_tokens".into(), max.into());
        }
        body.insert("stream".into(), request.stream.into());
        Value::Object(body)
    }

    fn parse(&self, body: Value, _turn: usize) -> Result<Reply, AgentError> {
        if let Some(error) = body.get("error").filter(|error| !error.is_null()) {
            return Err(AgentError::response(Provider::OpenAiResponses, format!("the response failed: {error}")));
        }
        let Some(Value::Array(output)) = body.get("output") else {
            return Err(AgentError::response(Provider::OpenAiResponses, format!("no output in {body}")));
        };
        let text = output.iter().map(message_text).collect();
        Ok(reply(text, output.clone(), usage(body.get("usage"))))
    }

    fn decoder(&self, _turn: usize) -> Box<dyn Decoder> {
        Box::new(Stream::default())
    }

    fn results(&self, results: &[ToolReply]) -> Vec<Value> {
        results
            .iter()
            .map(|result| {
                let output = if result.images.is_empty() {
                    Value::from(result.text.as_str())
                } else {
                    let mut parts = vec![json!({"type": "input_text", "text": result.text})];
                    parts.extend(
                        result
                            .images
                            .iter()
                            .map(|(mime, b64)| json!({"type": "input_image", "image_url": data_url(mime, b64)})),
                    );
                    Value::Array(parts)
                };
                json!({"type": "function_call_output", "call_id": result.call.id, "output": output})
            })
            .collect()
    }
}

/// The text of an output `message` item.
fn message_text(item: &Value) -> String {
    if item.get("type").and_then(Value::as_str) != Some("message") {
        return String::new();
    }
    let parts = item.get("content").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    parts
        .iter()
        .filter(|part| part.get("type").and_then(Value::as_str) == Some("output_text"))
        .filter_map(|part| part.get("text").and_then(Value::as_str))
        .collect()
}

fn usage(usage: Option<&Value>) -> Usage {
    let usage = usage.unwrap_or(&Value::Null);
    Usage { input_tokens: count(usage, "/input_tokens"), output_tokens: count(usage, "/output_tokens") }
}

fn reply(text: String, output: Vec<Value>, usage: Usage) -> Reply {
    let calls = output
        .iter()
        .filter(|item| item.get("type").and_then(Value::as_str) == Some("function_call"))
        .map(|item| {
            let field = |key: &str| item.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
            CallRequest {
                id: field("call_id"),
                provider_id: true,
                name: field("name"),
                arguments: Arguments::Text(field("arguments")),
            }
        })
        .collect();
    Reply { text, calls, native: output, usage }
}

/// A streamed response: typed events, `response.completed` last.
#[derive(Default)]
struct Stream {
    text: String,
    /// The output items by `output_index`, as they are put together.
    items: Vec<Option<Value>>,
    usage: Usage,
    done: bool,
}

impl Stream {
    fn slot(&mut self, event: &Value) -> Option<&mut Option<Value>> {
        let index = usize::try_from(event.get("output_index")?.as_u64()?).ok()?;
        if index > self.items.len() + 64 {
            return None;
        }
        while self.items.len() <= index {
            self.items.push(None);
        }
        self.items.get_mut(index)
    }
}

impl Decoder for Stream {
    fn event(&mut self, data: &str) -> Result<Option<String>, AgentError> {
        let event = super::json(Provider::OpenAiResponses, data)?;
        let kind = event.get("type").and_then(Value::as_str).unwrap_or_default();
        match kind {
            "response.output_text.delta" => {
                let delta = event.get("delta").and_then(Value::as_str).unwrap_or_default();
                self.text.push_str(delta);
                return Ok(Some(delta.to_owned()).filter(|delta| !delta.is_empty()));
            }
            "response.output_item.added" | "response.output_item.done" => {
                let item = event.get("item").cloned();
                if let Some(slot) = self.slot(&event) {
                    *slot = item;
                }
            }
            "response.function_call_arguments.delta" => {
                let delta = event.get("delta").and_then(Value::as_str).unwrap_or_default().to_owned();
                if let Some(Some(Value::Object(item))) = self.slot(&event) {
                    let arguments = item.entry("arguments").or_insert_with(|| Value::from(""));
                    if let Value::String(arguments) = arguments {
                        arguments.push_str(&delta);
                    }
                }
            }
            "response.completed" | "response.incomplete" => {
                self.usage = usage(event.pointer("/response/usage"));
                self.done = true;
            }
            "response.failed" => {
                let error = event.pointer("/response/error").cloned().unwrap_or(Value::Null);
                return Err(AgentError::response(Provider::OpenAiResponses, format!("the response failed: {error}")));
            }
            "error" => {
                let message = event.get("message").and_then(Value::as_str).unwrap_or(data);
                return Err(AgentError::response(Provider::OpenAiResponses, format!("the stream reports: {message}")));
            }
            _ => {}
        }
        Ok(None)
    }

    fn done(&self) -> bool {
        self.done
    }

    fn finish(self: Box<Self>) -> Result<Reply, AgentError> {
        Ok(reply(self.text, self.items.into_iter().flatten().collect(), self.usage))
    }
}
