//! The agent loop: ask the model, run the calls it asks for, send the
//! results back, until it answers without calls or the turn limit.

use tokio_util::sync::CancellationToken;

use super::Agent;
use super::calls::{self, Emitter};
use super::error::AgentError;
use super::events::{AgentEvent, FinalMessage, StopReason, Usage};
use super::providers::{self, Request};
use crate::provider;

/// Runs `agent` on `prompt`, sending events to `emit`; tools run under `cancel`.
pub(super) async fn drive(
    agent: Agent,
    prompt: String,
    emit: Emitter,
    cancel: CancellationToken,
) -> Result<FinalMessage, AgentError> {
    let provider = agent.client.provider();
    let wire = providers::wire(provider);
    let offered = provider::tools(&agent.toolbox, provider, agent.strictness).map_err(AgentError::Tools)?;
    let mut messages = vec![wire.user(&prompt)];
    let mut usage = Usage::default();
    let mut turn = 0;
    loop {
        turn += 1;
        let request = Request {
            model: agent.client.model(),
            system: agent.system.as_deref(),
            messages: &messages,
            tools: &offered.tools,
            stream: agent.streaming,
            max_tokens: agent.client.max_tokens(),
        };
        let mut on_text = |text: String| {
            let _ = emit.send(Ok(AgentEvent::TextDelta(text)));
        };
        let reply = agent.client.send(wire, &request, turn as usize, &mut on_text).await?;
        if !agent.streaming && !reply.text.is_empty() {
            on_text(reply.text.clone());
        }
        usage += reply.usage;
        messages.extend(reply.native);
        let stop = if reply.calls.is_empty() {
            StopReason::Answered
        } else if turn >= agent.max_turns {
            tracing::warn!("the model still asks for tools after {turn} requests, the turn limit");
            StopReason::TurnLimit
        } else {
            let results = calls::run(&agent.toolbox, &offered.names, reply.calls, &cancel, &emit).await;
            messages.extend(wire.results(&results));
            continue;
        };
        return Ok(FinalMessage { text: reply.text, stop, requests: turn, usage });
    }
}
