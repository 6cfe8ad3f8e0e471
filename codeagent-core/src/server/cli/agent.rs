//! `--agent PROMPT --model PROVIDER:MODEL`: the server's tools in the agent
//! loop. Standard output holds only the tool-result events (one compact JSON
//! line each, flushed as the tool finishes) and then the model's answer.

use std::io::Write;
use std::process::ExitCode;

use futures_util::StreamExt;

use super::Server;
use crate::agent::{Agent, AgentEvent, ModelClient, StopReason, parse_spec};

pub(super) async fn run(server: &Server, prompt: String, model: &str, stream: bool) -> ExitCode {
    let client = match parse_spec(model).and_then(|(provider, model)| ModelClient::from_env(provider, model)) {
        Ok(client) => client,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let mut agent = Agent::new(client, server.toolbox().clone()).with_streaming(stream);
    if let Some(instructions) = &server.engine.instructions {
        agent = agent.with_system(instructions.clone());
    }
    let mut events = agent.stream(prompt);
    while let Some(event) = events.next().await {
        match event {
            Ok(AgentEvent::ToolResult(result)) => {
                let line = serde_json::to_string(&result).unwrap_or_default();
                let mut out = std::io::stdout().lock();
                if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
                    return ExitCode::FAILURE;
                }
            }
            Ok(AgentEvent::Finished(last)) => {
                let mut out = std::io::stdout().lock();
                if writeln!(out, "{}", last.text).and_then(|()| out.flush()).is_err() {
                    return ExitCode::FAILURE;
                }
                let usage = last.usage;
                tracing::info!(
                    "{} requests, {} input and {} output tokens",
                    last.requests,
                    usage.input_tokens,
                    usage.output_tokens
                );
                if last.stop == StopReason::TurnLimit {
                    eprintln!(
                        "error: the model still asked for tools after {} requests (the turn limit)",
                        last.requests
                    );
                    return ExitCode::FAILURE;
                }
                return ExitCode::SUCCESS;
            }
            Ok(_) => {}
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::FAILURE
}
