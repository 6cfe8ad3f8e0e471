//! Gemini (`POST {base}/models/{model}:generateContent`, or
//! `:streamGenerateContent?alt=sse`, `x-goog-api-key`).
//!
//! The model's parts go back exactly as they came, `thoughtSignature`s
//! included; the tool results are one content with every `functionResponse`
//! (`response: {"output": value}`, or `{"error": value}` on failure), images as
//! `inlineData` in the `functionResponse`'s `parts`.

use serde_json::{Map, Value, json};

use super::{Arguments, CallRequest, Decoder, Reply, Request, ToolReply, Wire, count, join};
use crate::agent::error::AgentError;
use crate::agent::events::Usage;
use crate::provider::Provider;

pub(super) struct Gemini;

impl Wire for Gemini {
    fn url(&self, base: &str, model: &str, stream: bool) -> String {
        let model = if model.starts_with("models/") { model.to_owned() } else { format!("models/{model}") };
        let method = if stream { "streamGenerateContent?alt=sse" } else { "generateContent" };
        join(base, &format!("{model}:{method}"))
    }

    fn headers(&self, key: Option<&str>) -> Vec<(&'static str, String)> {
        key.map(|key| ("x-goog-api-key", key.to_owned())).into_iter().collect()
    }

    fn user(&self, prompt: &str) -> Value {
        json!({"role": "user", "parts": [{"text": prompt}]})
    }

    fn body(&self, request: &Request<'_>) -> Value {
        let mut body = Map::new();
        body.insert("contents".into(), Value::Array(request.messages.to_vec()));
        let declared = request.tools.get("functionDeclarations").and_then(Value::as_array);
        if declared.is_some_and(|declarations| !declarations.is_empty()) {
            body.insert("tools".into(), json!([request.tools]));
        }
        if let Some(system) = request.system {
            body.insert("systemInstruction".into(), json!({"parts": [{"text": system}]}));
        }
        if let Some(max) = request.max_tokens {
            body.insert("generationConfig".into(), json!({"maxOutputTokens": max}));
        }
        Value::Object(body)
    }

    fn parse(&self, body: Value, turn: usize) -> Result<Reply, AgentError> {
        let mut stream = Stream { turn, ..Stream::default() };
        stream.chunk(&body)?;
        if stream.parts.is_empty() && body.pointer("/candidates/0").is_none() {
            return Err(AgentError::response(Provider::Gemini, format!("no candidates in {body}")));
        }
        Box::new(stream).finish()
    }

    fn decoder(&self, turn: usize) -> Box<dyn Decoder> {
        Box::new(Stream { turn, ..Stream::default() })
    }

    fn results(&self, results: &[ToolReply]) -> Vec<Value> {
        let parts: Vec<Value> = results
            .iter()
            .map(|result| {
                let key = if result.is_error { "error" } else { "output" };
                let mut response = Map::new();
                if result.call.provider_id {
                    response.insert("id".into(), result.call.id.clone().into());
                }
                response.insert("name".into(), result.call.name.clone().into());
                response.insert("response".into(), json!({key: result.text}));
                if !result.images.is_empty() {
                    let images =
                        result.images.iter().map(|(mime, b64)| json!({"inlineData": {"mimeType": mime, "data": b64}}));
                    response.insert("parts".into(), images.collect());
                }
                json!({"functionResponse": response})
            })
            .collect();
        vec![json!({"role": "user", "parts": parts})]
    }
}

/// The answer, whole or as `GenerateContentResponse` chunks.
#[derive(Default)]
struct Stream {
    turn: usize,
    parts: Vec<Value>,
    usage: Usage,
    done: bool,
}

impl Stream {
    /// Takes one chunk; the text it adds.
    fn chunk(&mut self, chunk: &Value) -> Result<String, AgentError> {
        if let Some(error) = chunk.get("error") {
            return Err(AgentError::response(Provider::Gemini, format!("the stream reports an error: {error}")));
        }
        if let Some(reason) = chunk.pointer("/promptFeedback/blockReason").and_then(Value::as_str) {
            return Err(AgentError::response(Provider::Gemini, format!("the prompt was blocked ({reason})")));
        }
        if let Some(metadata) = chunk.get("usageMetadata") {
            self.usage = Usage {
                input_tokens: count(metadata, "/promptTokenCount"),
                output_tokens: count(metadata, "/candidatesTokenCount") + count(metadata, "/thoughtsTokenCount"),
            };
        }
        let Some(candidate) = chunk.pointer("/candidates/0") else { return Ok(String::new()) };
        if candidate.get("finishReason").is_some_and(|reason| !reason.is_null()) {
            self.done = true;
        }
        let mut text = String::new();
        for part in candidate.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten() {
            if part.get("thought").and_then(Value::as_bool) != Some(true) {
                text.push_str(part.get("text").and_then(Value::as_str).unwrap_or_default());
            }
            self.parts.push(part.clone());
        }
        Ok(text)
    }
}

impl Decoder for Stream {
    fn event(&mut self, data: &str) -> Result<Option<String>, AgentError> {
        let chunk = super::json(Provider::Gemini, data)?;
        let text = self.chunk(&chunk)?;
        Ok(Some(text).filter(|text| !text.is_empty()))
    }

    fn done(&self) -> bool {
        self.done
    }

    fn finish(self: Box<Self>) -> Result<Reply, AgentError> {
        let mut text = String::new();
        let mut calls = Vec::new();
        for part in &self.parts {
            if let Some(call) = part.get("functionCall") {
                let given = call.get("id").and_then(Value::as_str).filter(|id| !id.is_empty());
                calls.push(CallRequest {
                    id: given.map_or_else(|| format!("call_{}_{}", self.turn, calls.len()), str::to_owned),
                    provider_id: given.is_some(),
                    name: call.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
                    arguments: Arguments::Json(call.get("args").cloned().unwrap_or_else(|| json!({}))),
                });
            } else if part.get("thought").and_then(Value::as_bool) != Some(true) {
                text.push_str(part.get("text").and_then(Value::as_str).unwrap_or_default());
            }
        }
        let native = vec![json!({"role": "model", "parts": self.parts})];
        Ok(Reply { text, calls, native, usage: self.usage })
    }
}
