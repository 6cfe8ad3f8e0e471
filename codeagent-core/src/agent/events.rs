//! What an agent run tells its host: [`AgentEvent`]s, ending with a
//! [`FinalMessage`] that carries the token [`Usage`].

use std::ops::AddAssign;

use serde::Serialize;
use serde_json::Value;

use crate::result::ToolResultEvent;

/// One thing that happened during an agent run, in the order it happened.
///
/// A run yields any number of text deltas, tool calls and tool results, then
/// exactly one [`AgentEvent::Finished`] (or an error).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AgentEvent {
    /// Text the model wrote, as it arrives (one delta per turn when not
    /// streaming).
    TextDelta(String),
    /// The model asked for a tool call, which starts now.
    ToolCallStarted(ToolCallStarted),
    /// A tool call finished: the seed's event, keys `id, name, display, value,
    /// is_error, artifact`. Results arrive as the tools finish; the model gets
    /// them back in call order.
    ToolResult(ToolResultEvent),
    /// The run is over.
    Finished(FinalMessage),
}

/// A tool call the model asked for, as it starts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolCallStarted {
    /// The provider's call id (the id of the [`ToolResultEvent`] that follows).
    pub id: String,
    /// The tool's name in the toolbox (or the name the model used, for a tool
    /// the toolbox does not have).
    pub name: String,
    /// The arguments: the JSON the model wrote, or the raw text when it is not
    /// JSON.
    pub arguments: Value,
}

/// The model's last answer, once it answers without asking for tools (or the
/// turn limit stops the run).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FinalMessage {
    /// The text of the last model response.
    pub text: String,
    /// Why the run stopped.
    pub stop: StopReason,
    /// How many requests were sent to the model.
    pub requests: u32,
    /// The tokens of every request, added up.
    pub usage: Usage,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum StopReason {
    /// The model answered without asking for a tool.
    #[default]
    Answered,
    /// The model still asked for tools when the turn limit was reached; those
    /// calls were not run.
    TurnLimit,
}

/// Token counts as the provider reported them (zero when it did not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Tokens of the prompts (for Gemini, `promptTokenCount`).
    pub input_tokens: u64,
    /// Tokens the model wrote (for Gemini, candidates and thoughts).
    pub output_tokens: u64,
}

impl AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}
