//! Asking the client's model for a message: the request a tool builds and the
//! message it gets back.

use serde_json::{Map, Value, json};

use crate::mcp::Role;

/// The wire name of a role.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Assistant => "assistant",
        _ => "user",
    }
}

/// What a sampling message holds: text, or an image or audio as base64.
#[derive(Debug, Clone, PartialEq)]
pub enum SamplingContent {
    /// Text.
    Text(String),
    /// An image: base64 data and its MIME type.
    Image {
        /// The base64 data.
        data: String,
        /// The MIME type (`image/png`...).
        mime_type: String,
    },
    /// Audio: base64 data and its MIME type.
    Audio {
        /// The base64 data.
        data: String,
        /// The MIME type (`audio/wav`...).
        mime_type: String,
    },
    /// Any other content block the client sent, as it sent it.
    Other(Value),
}

impl SamplingContent {
    fn to_wire(&self) -> Value {
        match self {
            SamplingContent::Text(text) => json!({ "type": "text", "text": text }),
            SamplingContent::Image { data, mime_type } => {
                json!({ "type": "image", "data": data, "mimeType": mime_type })
            }
            SamplingContent::Audio { data, mime_type } => {
                json!({ "type": "audio", "data": data, "mimeType": mime_type })
            }
            SamplingContent::Other(block) => block.clone(),
        }
    }

    fn from_wire(block: &Value) -> SamplingContent {
        let text = |key: &str| block.get(key).and_then(Value::as_str).map(str::to_owned);
        match (block.get("type").and_then(Value::as_str), text("text"), text("data"), text("mimeType")) {
            (Some("text"), Some(text), _, _) => SamplingContent::Text(text),
            (Some("image"), _, Some(data), Some(mime_type)) => SamplingContent::Image { data, mime_type },
            (Some("audio"), _, Some(data), Some(mime_type)) => SamplingContent::Audio { data, mime_type },
            _ => SamplingContent::Other(block.clone()),
        }
    }
}

/// How the client should pick a model: name hints and priorities in `0..=1`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelPreferences {
    hints: Vec<String>,
    cost: Option<f64>,
    speed: Option<f64>,
    intelligence: Option<f64>,
}

impl ModelPreferences {
    /// No preference.
    pub fn new() -> Self {
        ModelPreferences::default()
    }

    /// Adds a model name hint (a substring such as `"claude"` or `"sonnet"`), in order of preference.
    #[must_use]
    pub fn with_hint(mut self, name: impl Into<String>) -> Self {
        self.hints.push(name.into());
        self
    }

    /// How much cost matters, from 0 to 1 (clamped).
    #[must_use]
    pub fn with_cost_priority(mut self, priority: f64) -> Self {
        self.cost = Some(priority.clamp(0.0, 1.0));
        self
    }

    /// How much speed matters, from 0 to 1 (clamped).
    #[must_use]
    pub fn with_speed_priority(mut self, priority: f64) -> Self {
        self.speed = Some(priority.clamp(0.0, 1.0));
        self
    }

    /// How much capability matters, from 0 to 1 (clamped).
    #[must_use]
    pub fn with_intelligence_priority(mut self, priority: f64) -> Self {
        self.intelligence = Some(priority.clamp(0.0, 1.0));
        self
    }

    fn to_wire(&self) -> Value {
        let mut preferences = Map::new();
        if !self.hints.is_empty() {
            let hints = self.hints.iter().map(|name| json!({ "name": name })).collect();
            preferences.insert("hints".into(), Value::Array(hints));
        }
        for (key, value) in
            [("costPriority", self.cost), ("speedPriority", self.speed), ("intelligencePriority", self.intelligence)]
        {
            if let Some(value) = value.filter(|value| value.is_finite()) {
                preferences.insert(key.into(), Value::from(value));
            }
        }
        Value::Object(preferences)
    }
}

/// A request for one message from the client's model
/// ([`Context::sample`](crate::toolbox::Context::sample)).
///
/// ```
/// use codeagent_core::ask::{ModelPreferences, Sampling};
///
/// let request = Sampling::new(200)
///     .with_system_prompt("You summarise tables in one sentence.")
///     .user("| region | total |\n| north | 10 |")
///     .with_model_preferences(ModelPreferences::new().with_hint("claude").with_speed_priority(0.8));
/// assert_eq!(request.to_params()["maxTokens"], 200);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Sampling {
    messages: Vec<(Role, SamplingContent)>,
    system_prompt: Option<String>,
    preferences: Option<ModelPreferences>,
    max_tokens: u32,
    temperature: Option<f64>,
    stop_sequences: Vec<String>,
}

impl Sampling {
    /// A request for at most `max_tokens` tokens, with no message yet.
    pub fn new(max_tokens: u32) -> Self {
        Sampling {
            messages: Vec::new(),
            system_prompt: None,
            preferences: None,
            max_tokens,
            temperature: None,
            stop_sequences: Vec::new(),
        }
    }

    /// Adds a user message of text.
    #[must_use]
    pub fn user(self, text: impl Into<String>) -> Self {
        self.with_message(Role::User, SamplingContent::Text(text.into()))
    }

    /// Adds an assistant message of text.
    #[must_use]
    pub fn assistant(self, text: impl Into<String>) -> Self {
        self.with_message(Role::Assistant, SamplingContent::Text(text.into()))
    }

    /// Adds a message.
    #[must_use]
    pub fn with_message(mut self, role: Role, content: SamplingContent) -> Self {
        self.messages.push((role, content));
        self
    }

    /// Sets the system prompt.
    #[must_use]
    pub fn with_system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }

    /// Sets the model preferences.
    #[must_use]
    pub fn with_model_preferences(mut self, preferences: ModelPreferences) -> Self {
        self.preferences = Some(preferences);
        self
    }

    /// Sets the sampling temperature.
    #[must_use]
    pub fn with_temperature(mut self, temperature: f64) -> Self {
        self.temperature = Some(temperature);
        self
    }

    /// Adds a stop sequence.
    #[must_use]
    pub fn with_stop_sequence(mut self, stop: impl Into<String>) -> Self {
        self.stop_sequences.push(stop.into());
        self
    }

    /// The `sampling/createMessage` params.
    pub fn to_params(&self) -> Value {
        let messages: Vec<Value> = self
            .messages
            .iter()
            .map(|(role, content)| json!({ "role": role_name(*role), "content": content.to_wire() }))
            .collect();
        let mut params = Map::new();
        params.insert("messages".into(), Value::Array(messages));
        if let Some(prompt) = &self.system_prompt {
            params.insert("systemPrompt".into(), Value::from(prompt.as_str()));
        }
        if let Some(preferences) = &self.preferences {
            params.insert("modelPreferences".into(), preferences.to_wire());
        }
        if let Some(temperature) = self.temperature.filter(|value| value.is_finite()) {
            params.insert("temperature".into(), Value::from(temperature));
        }
        if !self.stop_sequences.is_empty() {
            params.insert("stopSequences".into(), Value::from(self.stop_sequences.clone()));
        }
        params.insert("maxTokens".into(), Value::from(self.max_tokens));
        Value::Object(params)
    }
}

/// The message the client's model produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampled {
    /// Who speaks it (normally the assistant).
    pub role: Role,
    /// What it holds.
    pub content: SamplingContent,
    /// The model that produced it.
    pub model: String,
    /// Why the model stopped, when the client says.
    pub stop_reason: Option<String>,
}

impl Sampled {
    /// The text, when the message is text.
    pub fn text(&self) -> Option<&str> {
        match &self.content {
            SamplingContent::Text(text) => Some(text),
            _ => None,
        }
    }

    /// Reads a `CreateMessageResult`.
    pub(crate) fn from_wire(result: &Value) -> Result<Sampled, String> {
        let role = match result.get("role").and_then(Value::as_str) {
            Some("assistant") => Role::Assistant,
            Some("user") => Role::User,
            other => return Err(format!("`role` must be \"user\" or \"assistant\", not {other:?}")),
        };
        let content = match result.get("content") {
            Some(Value::Array(blocks)) if blocks.len() == 1 => SamplingContent::from_wire(&blocks[0]),
            Some(Value::Array(blocks)) => SamplingContent::Other(Value::Array(blocks.clone())),
            Some(block @ Value::Object(_)) => SamplingContent::from_wire(block),
            _ => return Err("`content` must be a content block".into()),
        };
        let model = result.get("model").and_then(Value::as_str).ok_or("`model` must be a string")?.to_owned();
        let stop_reason = result.get("stopReason").and_then(Value::as_str).map(str::to_owned);
        Ok(Sampled { role, content, model, stop_reason })
    }
}
