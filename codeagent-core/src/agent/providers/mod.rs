//! The four wire formats: what a request body looks like, how an answer (whole
//! or streamed) is read, and where tool results go. Each format keeps its
//! conversation in its own JSON, so what the model said is sent back exactly
//! as it came (Gemini's `thoughtSignature`, Anthropic's thinking blocks,
//! Responses' reasoning items).

mod anthropic;
mod chat;
mod gemini;
mod responses;

use serde_json::Value;

use super::error::AgentError;
use super::events::Usage;
use crate::provider::Provider;

/// What one request sends.
pub(super) struct Request<'a> {
    pub(super) model: &'a str,
    pub(super) system: Option<&'a str>,
    /// The conversation so far, in the format's own JSON.
    pub(super) messages: &'a [Value],
    /// The tools as [`crate::provider::tools`] made them for this format.
    pub(super) tools: &'a Value,
    pub(super) stream: bool,
    pub(super) max_tokens: Option<u32>,
}

/// A model's answer to one request.
#[derive(Debug, Default)]
pub(super) struct Reply {
    /// Its text (what a host shows; thoughts left out).
    pub(super) text: String,
    /// The tool calls it asks for, in order.
    pub(super) calls: Vec<CallRequest>,
    /// The answer as the format's conversation keeps it, to send back.
    pub(super) native: Vec<Value>,
    pub(super) usage: Usage,
}

/// A tool call the model asks for.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct CallRequest {
    /// The provider's call id (for Gemini without one, made up and not sent back).
    pub(super) id: String,
    /// Whether the provider gave the id.
    pub(super) provider_id: bool,
    /// The provider's name of the tool.
    pub(super) name: String,
    pub(super) arguments: Arguments,
}

/// Arguments as the provider sends them.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Arguments {
    /// JSON text, still to parse (OpenAI, a streamed Anthropic `tool_use`).
    Text(String),
    /// Parsed JSON (Anthropic, Gemini).
    Json(Value),
}

/// A tool's result, as the model gets it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ToolReply {
    pub(super) call: CallRequest,
    /// The portable value.
    pub(super) text: String,
    /// Images `(media type, base64)`, for the formats that take them.
    pub(super) images: Vec<(String, String)>,
    pub(super) is_error: bool,
}

/// One wire format.
pub(super) trait Wire: Send + Sync {
    /// The request's URL.
    fn url(&self, base: &str, model: &str, stream: bool) -> String;
    /// The authentication (and version) headers.
    fn headers(&self, key: Option<&str>) -> Vec<(&'static str, String)>;
    /// The prompt, as the first message.
    fn user(&self, prompt: &str) -> Value;
    /// The request body.
    fn body(&self, request: &Request<'_>) -> Value;
    /// A whole (non-streamed) answer; `turn` numbers made-up call ids.
    fn parse(&self, body: Value, turn: usize) -> Result<Reply, AgentError>;
    /// A reader of a streamed answer.
    fn decoder(&self, turn: usize) -> Box<dyn Decoder>;
    /// The messages carrying a turn's tool results, in call order.
    fn results(&self, results: &[ToolReply]) -> Vec<Value>;
}

/// Reads a streamed answer one server-sent event at a time.
pub(super) trait Decoder: Send {
    /// Takes one event's data; the text it adds, if any. `Ok(None)` with
    /// [`Decoder::done`] true ends the stream.
    fn event(&mut self, data: &str) -> Result<Option<String>, AgentError>;
    /// Whether the answer is complete.
    fn done(&self) -> bool;
    /// The whole answer, once the stream ended.
    fn finish(self: Box<Self>) -> Result<Reply, AgentError>;
}

/// The format `provider` speaks.
pub(super) fn wire(provider: Provider) -> &'static dyn Wire {
    match provider {
        Provider::OpenAiChat => &chat::Chat,
        Provider::OpenAiResponses => &responses::Responses,
        Provider::Anthropic => &anthropic::Anthropic,
        Provider::Gemini => &gemini::Gemini,
    }
}

/// The base URL when none is configured: the public endpoint.
pub(super) fn default_base_url(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAiChat | Provider::OpenAiResponses => "https://api.openai.com/v1",
        Provider::Anthropic => "https://api.anthropic.com",
        Provider::Gemini => "https://generativelanguage.googleapis.com/v1beta",
    }
}

/// The JSON of an event's data.
fn json(provider: Provider, data: &str) -> Result<Value, AgentError> {
    serde_json::from_str(data)
        .map_err(|error| AgentError::response(provider, format!("a stream event is not JSON ({error}): {data}")))
}

/// A number at `pointer`, or zero.
fn count(value: &Value, pointer: &str) -> u64 {
    value.pointer(pointer).and_then(Value::as_u64).unwrap_or(0)
}

/// `base` and `path` with one slash between them.
fn join(base: &str, path: &str) -> String {
    format!("{}/{}", base.trim_end_matches('/'), path.trim_start_matches('/'))
}

/// `data:` URL of an image.
fn data_url(mime: &str, b64: &str) -> String {
    format!("data:{mime};base64,{b64}")
}
