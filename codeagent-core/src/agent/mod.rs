//! The agent side: a model of OpenAI (Chat Completions or Responses),
//! Anthropic or Gemini calls a [`Toolbox`]'s tools in a loop, and the host sees
//! every step as an [`AgentEvent`] (feature `agent`).
//!
//! ```no_run
//! use codeagent_core::agent::{Agent, AgentEvent, ModelClient};
//! use codeagent_core::provider::Provider;
//! use codeagent_core::toolbox::Toolbox;
//! use futures_util::StreamExt;
//!
//! # async fn example(toolbox: Toolbox) -> Result<(), codeagent_core::agent::AgentError> {
//! let client = ModelClient::from_env(Provider::Anthropic, "claude-sonnet-4-5")?;
//! let agent = Agent::new(client, toolbox).with_max_turns(12);
//! let mut events = agent.stream("What were the sales in the north?");
//! while let Some(event) = events.next().await {
//!     match event? {
//!         AgentEvent::TextDelta(text) => print!("{text}"),
//!         AgentEvent::ToolResult(result) => println!("\n[{}] {}", result.name, result.value),
//!         AgentEvent::Finished(last) => println!("\n({} tokens in)", last.usage.input_tokens),
//!         _ => {}
//!     }
//! }
//! # Ok(()) }
//! ```
//!
//! Each turn sends the conversation with the tools of
//! [`provider::tools`](crate::provider::tools), runs the calls the model asks
//! for concurrently, and sends their portable values back in call order, with
//! the images of image results where the API takes them (Responses,
//! Anthropic, Gemini; Chat Completions gets text only). The artifact and the
//! display go to the host only. A tool error, an unknown tool, arguments that
//! are not JSON and a panic are error results for the model and events with
//! `is_error: true` for the host; the run goes on.
//!
//! The callback forms of the seed's `codeagent_stream()` and
//! `codeagent_stream_async()` are [`Agent::run`], [`Agent::run_async`] and,
//! outside any async runtime, [`Agent::run_blocking`].

mod calls;
mod client;
mod error;
mod events;
mod http;
mod providers;
mod retry;
mod sse;
mod stream;
mod turns;

use std::future::Future;

use futures_util::StreamExt;

pub use client::{ModelClient, env_vars, parse_spec};
pub use error::AgentError;
pub use events::{AgentEvent, FinalMessage, StopReason, ToolCallStarted, Usage};
pub use retry::RetryPolicy;
pub use stream::AgentStream;

use crate::provider::Strictness;
use crate::result::ToolResultEvent;
use crate::toolbox::Toolbox;

/// A model with tools: build one with [`Agent::new`], run it with
/// [`Agent::stream`] (every event) or [`Agent::run`] (a callback per tool
/// result).
///
/// ```
/// use codeagent_core::agent::{Agent, ModelClient};
/// use codeagent_core::provider::{Provider, Strictness};
/// use codeagent_core::toolbox::Toolbox;
///
/// let agent = Agent::new(ModelClient::new(Provider::Gemini, "gemini-2.5-flash"), Toolbox::new())
///     .with_system("Answer in one sentence.")
///     .with_max_turns(4)
///     .with_streaming(false)
///     .with_strictness(Strictness::Lenient);
/// assert_eq!(agent.max_turns(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct Agent {
    client: ModelClient,
    toolbox: Toolbox,
    system: Option<String>,
    max_turns: u32,
    streaming: bool,
    strictness: Strictness,
}

impl Agent {
    /// How many model requests a run makes at most unless told otherwise.
    pub const DEFAULT_MAX_TURNS: u32 = 10;

    /// `client`'s model with `toolbox`'s tools: streaming, lenient tool
    /// definitions, at most [`Agent::DEFAULT_MAX_TURNS`] requests.
    pub fn new(client: ModelClient, toolbox: Toolbox) -> Self {
        Agent {
            client,
            toolbox,
            system: None,
            max_turns: Agent::DEFAULT_MAX_TURNS,
            streaming: true,
            strictness: Strictness::Lenient,
        }
    }

    /// Sets the system prompt (Chat Completions' system message, Responses'
    /// `instructions`, Anthropic's `system`, Gemini's `systemInstruction`).
    #[must_use]
    pub fn with_system(mut self, system: impl Into<String>) -> Self {
        self.system = Some(system.into());
        self
    }

    /// Sets the most model requests a run makes (at least 1). When the model
    /// still asks for tools in the last one, the run ends with
    /// [`StopReason::TurnLimit`] without running them.
    #[must_use]
    pub fn with_max_turns(mut self, turns: u32) -> Self {
        self.max_turns = turns.max(1);
        self
    }

    /// Whether to stream the model's answers (server-sent events; the default)
    /// or wait for each whole.
    #[must_use]
    pub fn with_streaming(mut self, streaming: bool) -> Self {
        self.streaming = streaming;
        self
    }

    /// Whether to offer the tools in the provider's strict form; a tool that
    /// has none fails the run with [`AgentError::Tools`] before any request.
    #[must_use]
    pub fn with_strictness(mut self, strictness: Strictness) -> Self {
        self.strictness = strictness;
        self
    }

    /// The model client.
    pub fn client(&self) -> &ModelClient {
        &self.client
    }

    /// The toolbox.
    pub fn toolbox(&self) -> &Toolbox {
        &self.toolbox
    }

    /// The most model requests of a run.
    pub fn max_turns(&self) -> u32 {
        self.max_turns
    }

    /// Runs the agent on `prompt`; every step as an event.
    pub fn stream(&self, prompt: impl Into<String>) -> AgentStream {
        AgentStream::new(self.clone(), prompt.into())
    }

    /// Runs the agent on `prompt`, calling `on_tool_result` with each tool
    /// result as its tool finishes; the final message.
    pub async fn run(
        &self,
        prompt: impl Into<String>,
        mut on_tool_result: impl FnMut(&ToolResultEvent),
    ) -> Result<FinalMessage, AgentError> {
        self.run_async(prompt, |event| {
            on_tool_result(&event);
            std::future::ready(())
        })
        .await
    }

    /// [`Agent::run`] with an async callback, awaited before the run goes on.
    pub async fn run_async<F, Fut>(
        &self,
        prompt: impl Into<String>,
        mut on_tool_result: F,
    ) -> Result<FinalMessage, AgentError>
    where
        F: FnMut(ToolResultEvent) -> Fut,
        Fut: Future<Output = ()>,
    {
        let mut events = self.stream(prompt);
        while let Some(event) = events.next().await {
            match event? {
                AgentEvent::ToolResult(result) => on_tool_result(result).await,
                AgentEvent::Finished(last) => return Ok(last),
                _ => {}
            }
        }
        Err(AgentError::response(self.client.provider(), "the run ended without a final message"))
    }

    /// [`Agent::run`] for a program without an async runtime: runs one of its
    /// own until the run is over. Called inside a runtime, it refuses with
    /// [`AgentError::InsideRuntime`] rather than block it.
    pub fn run_blocking(
        &self,
        prompt: impl Into<String>,
        on_tool_result: impl FnMut(&ToolResultEvent),
    ) -> Result<FinalMessage, AgentError> {
        if tokio::runtime::Handle::try_current().is_ok() {
            return Err(AgentError::InsideRuntime);
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(AgentError::Runtime)?;
        runtime.block_on(self.run(prompt, on_tool_result))
    }
}
