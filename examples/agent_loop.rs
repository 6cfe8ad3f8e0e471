//! A host of the agent loop: a model uses three tools, and every event is
//! rendered as it arrives — text as it streams, each tool call, and each tool
//! result by its artifact's kind (a table as rows, an image by its size),
//! falling back to the portable value, as seed 000's `render_result` does.
//!
//! ```sh
//! OPENAI_API_KEY=... cargo run --example agent_loop --features agent -- openai:gpt-4.1 "Show the sales, then chart them"
//! ANTHROPIC_API_KEY=... cargo run --example agent_loop --features agent -- anthropic:claude-sonnet-4-5 "..."
//! ```
//!
//! The providers' usual variables apply (`OPENAI_BASE_URL`, `ANTHROPIC_BASE_URL`,
//! `GEMINI_BASE_URL`, ...), so a local OpenAI-compatible server works too:
//! `OPENAI_BASE_URL=http://localhost:11434/v1 cargo run --example agent_loop --features agent -- openai:llama3.2 "..."`.

use std::io::Write;
use std::process::ExitCode;

use codeagent::agent::{Agent, AgentEvent, ModelClient, parse_spec};
use codeagent::prelude::*;
use codeagent::{ArtifactKind, ToolResultEvent};
use futures_util::StreamExt;
use serde::Serialize;

#[path = "gallery/png.rs"]
mod png;

#[derive(Serialize)]
struct Sale {
    region: &'static str,
    revenue: f64,
}

const SALES: [Sale; 3] = [
    Sale { region: "north", revenue: 5600.0 },
    Sale { region: "south", revenue: 2850.0 },
    Sale { region: "west", revenue: 5550.0 },
];

/// The sales per region, as a table.
#[tool(read_only)]
fn sales() -> Result<Table, ToolError> {
    Ok(Table::from_rows(&SALES)?.with_title("Sales"))
}

/// A bar chart of the sales per region, as a PNG image.
#[tool(read_only)]
fn sales_chart() -> Result<Image, ToolError> {
    let values: Vec<f64> = SALES.iter().map(|sale| sale.revenue).collect();
    Ok(Image::from_bytes(png::bar_chart(&values, 120, 80), "image/png")?
        .with_output("Revenue per region: north, south, west (left to right)."))
}

/// Divide two numbers; dividing by zero is an error the model can read.
#[tool(read_only)]
fn divide(
    /// The dividend.
    numerator: f64,
    /// The divisor.
    denominator: f64,
) -> Result<f64, ToolError> {
    if denominator == 0.0 {
        return Err(ToolError::new("cannot divide by zero"));
    }
    Ok(numerator / denominator)
}

/// How a host shows a tool result: by the artifact's kind when it knows it,
/// else the portable value.
fn render(event: &ToolResultEvent) -> String {
    let mark = if event.is_error { "✗" } else { "✓" };
    let Some(artifact) = event.artifact() else { return format!("{mark} {}: {}", event.name, event.value) };
    let body = match artifact.kind() {
        ArtifactKind::Table => {
            let rows = artifact.payload()["df"]["rows"].as_array().map_or(0, Vec::len);
            format!("a table of {rows} rows\n{}", event.value)
        }
        ArtifactKind::Image => {
            let images = artifact.payload()["images"].as_array().cloned().unwrap_or_default();
            let sizes: Vec<String> = images
                .iter()
                .map(|image| {
                    format!(
                        "{} ({} base64 characters)",
                        image["mime"].as_str().unwrap_or("?"),
                        image["b64"].as_str().map_or(0, str::len)
                    )
                })
                .collect();
            format!("image {}", sizes.join(", "))
        }
        ArtifactKind::Error => format!("error: {}", artifact.payload_str("message").unwrap_or(&event.value)),
        _ => event.value.clone(),
    };
    format!("{mark} {}: {body}", event.name)
}

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (Some(model), Some(prompt)) = (args.next(), args.next()) else {
        eprintln!("usage: agent_loop PROVIDER:MODEL PROMPT");
        return ExitCode::from(2);
    };
    let client = match parse_spec(&model).and_then(|(provider, model)| ModelClient::from_env(provider, model)) {
        Ok(client) => client,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let toolbox = Toolbox::new().tool(sales).tool(sales_chart).tool(divide);
    let agent = Agent::new(client, toolbox).with_system("Use the tools to answer; be brief.");
    let mut events = agent.stream(prompt);
    let mut out = std::io::stdout();
    while let Some(event) = events.next().await {
        match event {
            Ok(AgentEvent::TextDelta(text)) => print!("{text}"),
            Ok(AgentEvent::ToolCallStarted(call)) => println!("\n→ {} {}", call.name, call.arguments),
            Ok(AgentEvent::ToolResult(result)) => println!("{}", render(&result)),
            Ok(AgentEvent::Finished(last)) => {
                println!(
                    "\n[{} requests, {} tokens in, {} out]",
                    last.requests, last.usage.input_tokens, last.usage.output_tokens
                );
            }
            Ok(_) => {}
            Err(error) => {
                eprintln!("error: {error}");
                return ExitCode::FAILURE;
            }
        }
        let _ = out.flush();
    }
    ExitCode::SUCCESS
}
