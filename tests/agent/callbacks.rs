//! The callback forms of the seed: `run` (sync callback), `run_async` (async
//! callback, awaited before the run goes on) and `run_blocking` (no runtime).

use std::sync::{Arc, Mutex};

use codeagent::agent::{Agent, AgentError};
use codeagent::prelude::*;

use crate::mock::{Answer, Mock};
use crate::replies;

/// Greet someone.
#[tool]
fn greet(
    /// Who.
    name: String,
) -> Text {
    Text::new(format!("Hello, {name}!"))
}

fn script() -> Vec<Answer> {
    vec![
        replies::calls(&[("g1", "greet", r#"{"name": "Ada"}"#), ("g2", "greet", r#"{"name": "Bob"}"#)]),
        replies::text("Greeted."),
    ]
}

#[tokio::test]
async fn run_calls_back_with_every_tool_result() {
    let mock = Mock::start(script()).await;
    let agent = Agent::new(replies::client(&mock.url), Toolbox::new().tool(greet));
    let mut seen = Vec::new();
    let last = agent.run("greet", |event| seen.push((event.id.clone(), event.value.clone()))).await.unwrap();
    seen.sort();
    assert_eq!(seen, [("g1".to_owned(), "Hello, Ada!".to_owned()), ("g2".to_owned(), "Hello, Bob!".to_owned())]);
    assert_eq!(last.text, "Greeted.");
}

#[tokio::test]
async fn run_async_awaits_each_callback() {
    let mock = Mock::start(script()).await;
    let agent = Agent::new(replies::client(&mock.url), Toolbox::new().tool(greet));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let last = agent
        .run_async("greet", |event| {
            let seen = Arc::clone(&seen);
            async move {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                seen.lock().unwrap().push(serde_json::to_value(&event).unwrap());
            }
        })
        .await
        .unwrap();
    assert_eq!(last.text, "Greeted.");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 2);
    let keys: Vec<&String> = seen[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["id", "name", "display", "value", "is_error", "artifact"], "the seed's keys, in its order");
}

#[test]
fn run_blocking_needs_no_runtime_and_refuses_to_block_one() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mock = runtime.block_on(Mock::start(script()));
    let agent = Agent::new(replies::client(&mock.url), Toolbox::new().tool(greet));
    let mut count = 0;
    let last = agent.run_blocking("greet", |_| count += 1).unwrap();
    assert_eq!((last.text.as_str(), count), ("Greeted.", 2));
    let inside = runtime.block_on(async { agent.run_blocking("greet", |_| {}) });
    assert!(matches!(inside, Err(AgentError::InsideRuntime)), "{inside:?}");
}
