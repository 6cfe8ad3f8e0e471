//! Offering a toolbox to an LLM API without MCP (`codeagent::provider`,
//! feature `provider`, a default): the tool definitions in each API's wire
//! format and strict form, put in a request body, and a model's tool call
//! mapped back to the toolbox's name and run.
//!
//! ```sh
//! cargo run --example provider_tools -- openai       # the body of a Chat Completions request
//! cargo run --example provider_tools -- anthropic    # ... of a Messages request
//! cargo run --example provider_tools -- gemini       # ... of a generateContent request
//! # run a call the model made, by the name the API knows (`.` became `_`):
//! cargo run --example provider_tools -- openai inventory_count '{"item": "pears"}'
//! ```

use std::process::ExitCode;

use codeagent::prelude::*;
use codeagent::provider::{self, Provider, Strictness};
use serde_json::{Value, json};

/// Count the units of an item in the inventory.
#[tool(name = "inventory.count", read_only)]
fn count(
    /// The item, such as `pears`.
    item: String,
) -> String {
    let units = match item.as_str() {
        "pears" => 12,
        "plums" => 4,
        _ => 0,
    };
    format!("{units} {item} in stock")
}

/// Order more units of an item.
#[tool(name = "inventory.order")]
fn order(
    /// The item.
    item: String,
    /// How many units (1 to 100).
    #[schemars(range(min = 1, max = 100))]
    units: u32,
) -> String {
    format!("ordered {units} {item}")
}

/// The request body a client would POST, with `tools` in the provider's format.
fn request(provider: Provider, tools: Value) -> Value {
    let prompt = "How many pears are left?";
    match provider {
        Provider::OpenAiChat => {
            json!({"model": "gpt-4.1", "messages": [{"role": "user", "content": prompt}], "tools": tools})
        }
        Provider::OpenAiResponses => json!({"model": "gpt-4.1", "input": prompt, "tools": tools}),
        Provider::Anthropic => json!({"model": "claude-sonnet-4-5", "max_tokens": 1024,
            "messages": [{"role": "user", "content": prompt}], "tools": tools}),
        _ => json!({"contents": [{"role": "user", "parts": [{"text": prompt}]}], "tools": [tools]}),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(provider) = args.first().and_then(|name| name.parse::<Provider>().ok()) else {
        eprintln!("usage: provider_tools openai|openai-responses|anthropic|gemini [TOOL ARGUMENTS_JSON]");
        return ExitCode::from(2);
    };
    let toolbox = Toolbox::new().tool(count).tool(order);
    // Gemini has no strict form of a definition: its request constrains calls instead.
    let strictness = if provider == Provider::Gemini { Strictness::Lenient } else { Strictness::Strict };
    let offered = match provider::tools(&toolbox, provider, strictness) {
        Ok(offered) => offered,
        Err(refused) => {
            refused.iter().for_each(|not_strict| eprintln!("{not_strict}"));
            return ExitCode::from(2);
        }
    };
    let [_, name, arguments] = args.as_slice() else {
        println!("{:#}", request(provider, offered.tools));
        return ExitCode::SUCCESS;
    };
    // The model's call: the API's name back to the toolbox's, then an ordinary call.
    let Some(tool) = offered.names.tool(name) else {
        eprintln!("the model called `{name}`, which was not offered");
        return ExitCode::from(2);
    };
    let arguments: Value = serde_json::from_str(arguments).unwrap_or(Value::Null);
    match toolbox.tools().call(tool, arguments).await {
        Ok(result) => {
            println!("{tool}: {}", result.value()); // what goes back to the model as the tool's output
            if result.is_error() { ExitCode::FAILURE } else { ExitCode::SUCCESS }
        }
        Err(error) => {
            eprintln!("{error}");
            ExitCode::from(2)
        }
    }
}
