//! Any JSON as the arguments of a tool call, decoded into the tool's typed
//! arguments (serde, then the constraints its input schema states): through
//! `toolbox.tools().call`, and through the stdio server in a legacy and a
//! 2026-07-28 `tools/call`. A call either runs or is a clean error result
//! (never a panic, never a protocol error for bad arguments), and a call that
//! runs had arguments its advertised input schema accepts once the ones it
//! does not declare are left out (the toolbox drops those, as hosts such as
//! Gemini CLI add their own).
//!
//! The first byte picks the tool; the rest is the JSON text.
#![no_main]

use std::collections::HashMap;
use std::sync::OnceLock;

use codeagent::Toolbox;
use codeagent_fuzz::{MESSAGE_LIMIT, check_output, initialize, modern_meta, request, responses_to, runtime, serve};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const TOOLS: [&str; 13] = [
    "add",
    "greet",
    "narrow",
    "sets",
    "meet",
    "draw",
    "order",
    "stats",
    "show",
    "link",
    "confirm",
    "model_and_roots",
    "sampler",
];

fn toolbox() -> &'static Toolbox {
    static TOOLBOX: OnceLock<Toolbox> = OnceLock::new();
    TOOLBOX.get_or_init(codeagent_fuzz::toolbox)
}

/// Each tool's input schema, compiled once.
fn validators() -> &'static HashMap<&'static str, jsonschema::Validator> {
    static VALIDATORS: OnceLock<HashMap<&'static str, jsonschema::Validator>> = OnceLock::new();
    VALIDATORS.get_or_init(|| {
        TOOLS
            .iter()
            .map(|name| {
                let definition = toolbox().tools().definition(name).unwrap_or_else(|| panic!("no tool {name}"));
                let validator = jsonschema::validator_for(&definition.input_schema)
                    .unwrap_or_else(|error| panic!("the input schema of {name} does not compile: {error}"));
                (*name, validator)
            })
            .collect()
    })
}

/// `arguments` without the top-level properties tool `name` does not declare,
/// as the toolbox passes them on.
fn declared(name: &str, mut arguments: Value) -> Value {
    let definition = toolbox().tools().definition(name).unwrap_or_else(|| panic!("no tool {name}"));
    let properties = definition.input_schema.get("properties").and_then(Value::as_object);
    if definition.input_schema.get("additionalProperties") == Some(&Value::Bool(false))
        && let Value::Object(map) = &mut arguments
    {
        map.retain(|key, _| properties.is_some_and(|properties| properties.contains_key(key)));
    }
    arguments
}

fuzz_target!(|input: &[u8]| {
    let Some((&pick, text)) = input.split_first() else { return };
    let Ok(arguments) = serde_json::from_slice::<Value>(text) else { return };
    let name = TOOLS[usize::from(pick) % TOOLS.len()];

    // The toolbox's own call API, detached from any client.
    let called = runtime().block_on(toolbox().tools().call(name, arguments.clone()));
    match (&called, &arguments) {
        (Ok(result), Value::Object(_) | Value::Null) => {
            assert!(!result.value().is_empty() || !result.is_error(), "an error result without a message");
            let asks = matches!(name, "confirm" | "model_and_roots");
            if !result.is_error() && !asks {
                let checked = declared(name, if arguments.is_null() { json!({}) } else { arguments.clone() });
                if let Err(error) = validators()[name].validate(&checked) {
                    panic!("{name} ran with arguments its schema refuses ({error}): {checked}");
                }
            }
        }
        (Err(error), other) => {
            assert!(!other.is_object() && !other.is_null(), "a call with object arguments failed to start: {error}")
        }
        (Ok(_), other) => panic!("a call with non-object arguments ran: {other}"),
    }

    // The same through the server: legacy, then 2026-07-28.
    let params = json!({"name": name, "arguments": arguments});
    let mut legacy = initialize("2025-11-25");
    let first = request(1, "tools/call", params.clone());
    let mut modern_params = params;
    modern_params["_meta"] = modern_meta();
    let second = request(2, "tools/call", modern_params);
    // A line over the server's message limit is refused before it is read:
    // its error cannot name the request's id.
    let too_long = [first.len() - 1 > MESSAGE_LIMIT, second.len() - 1 > MESSAGE_LIMIT];
    legacy.extend(first);
    legacy.extend(second);
    let messages = check_output(&serve(legacy));
    let refused = messages
        .iter()
        .filter(|message| {
            message["id"].is_null() && message["error"]["message"].as_str().is_some_and(|text| text.contains("exceeds"))
        })
        .count();
    assert_eq!(
        refused,
        too_long.iter().filter(|long| **long).count(),
        "one refusal per line over the limit: {messages:?}"
    );
    for (id, too_long) in [json!(1), json!(2)].into_iter().zip(too_long) {
        let answers: Vec<&Value> = responses_to(&messages, id.clone()).collect();
        if too_long {
            assert!(answers.is_empty(), "call {id}, over the message limit, was answered: {messages:?}");
            continue;
        }
        assert_eq!(answers.len(), 1, "call {id} was answered {} times: {messages:?}", answers.len());
        let answer = answers[0];
        if let (Some(error), Value::Object(_) | Value::Null) = (answer.get("error"), &arguments) {
            panic!("object arguments gave a protocol error: {error}");
        }
    }
});
