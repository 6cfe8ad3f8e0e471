//! The one scenario every wire format plays: a first answer asking for eight
//! calls at once (a success, a tool error, an unknown tool, a panic, an image,
//! two calls that can only finish together, arguments that are not JSON),
//! then a final answer. What the host sees is checked here; what the provider
//! receives, in each format's file.

use std::time::Duration;

use codeagent::agent::{Agent, AgentEvent, FinalMessage, ModelClient, RetryPolicy};
use codeagent::prelude::*;
use codeagent::{ToolResultEvent, provider::Provider};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::sync::Barrier;

use crate::checker;
use crate::mock::{Answer, Mock, Received};

#[path = "../../examples/gallery/png.rs"]
mod png;

/// Add two integers.
#[tool(name = "math.add")]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Divide two numbers; dividing by zero is a tool error.
#[tool]
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

/// A bar chart.
#[tool]
fn chart() -> Result<Image, ToolError> {
    Ok(Image::from_bytes(png::bar_chart(&[1.0, 2.0], 8, 12), "image/png")?.with_output("Two bars."))
}

/// Always panics.
#[tool]
fn explode() -> String {
    panic!("boom")
}

/// Where the two `meet` calls wait for each other.
pub struct Meeting(Barrier);

/// Meets the other side: finishes only once both calls run at the same time.
#[tool]
async fn meet(
    /// left or right.
    side: String,
    meeting: State<Meeting>,
) -> Result<String, ToolError> {
    match tokio::time::timeout(Duration::from_secs(5), meeting.0.0.wait()).await {
        Ok(_) => Ok(format!("{side} met the other side")),
        Err(_) => Err(ToolError::new(format!("{side} waited alone: the calls did not run concurrently"))),
    }
}

/// The scenario's tools, with a fresh meeting point.
pub fn toolbox() -> Toolbox {
    Toolbox::new().tool(add).tool(divide).tool(chart).tool(explode).tool(meet).with_state(Meeting(Barrier::new(2)))
}

/// The prompt.
pub const PROMPT: &str = "Use every tool.";
/// The model's last answer.
pub const ANSWER: &str = "All done: 2 + 3 = 5.";

/// One call of the first answer, as the provider names the tool.
#[derive(Clone, Debug)]
pub struct Call {
    pub id: String,
    pub name: &'static str,
    /// The arguments as JSON text (not always valid JSON).
    pub arguments: String,
    /// Whether the host must see an error.
    pub fails: bool,
}

impl Call {
    /// The arguments as JSON (`{}` for the one that is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.arguments).unwrap_or_else(|_| json!({}))
    }
}

/// The calls, with ids made by `id`; `add` as `add_name`; with the call whose
/// arguments are not JSON when the format can carry it.
pub fn calls(id: impl Fn(usize) -> String, add_name: &'static str, broken_json: bool) -> Vec<Call> {
    let mut calls = vec![
        (add_name, r#"{"a":2,"b":3}"#, false),
        ("divide", r#"{"numerator":1,"denominator":0}"#, true),
        ("nope", "{}", true),
        ("explode", "{}", true),
        ("chart", "{}", false),
        ("meet", r#"{"side":"left"}"#, false),
        ("meet", r#"{"side":"right"}"#, false),
    ];
    if broken_json {
        calls.push((add_name, r#"{"a": 1,"#, true));
    }
    calls
        .into_iter()
        .enumerate()
        .map(|(index, (name, arguments, fails))| Call { id: id(index), name, arguments: arguments.to_owned(), fails })
        .collect()
}

/// Runs the scenario's agent against `client`; every event, the run's end last.
pub async fn run(client: ModelClient, stream: bool) -> Vec<AgentEvent> {
    let agent = Agent::new(client, toolbox()).with_streaming(stream);
    let events = agent.stream(PROMPT).map(|event| event.expect("the run succeeds")).collect::<Vec<_>>();
    tokio::time::timeout(Duration::from_secs(30), events).await.expect("the run ends within 30 s")
}

/// Plays the scenario for `provider`'s `model` against a mock answering
/// `script`, its API at `base_path` below the mock's root, with the key `test-key`.
pub async fn play(
    provider: Provider,
    model: &str,
    base_path: &str,
    script: Vec<Answer>,
    stream: bool,
) -> (Mock, Vec<AgentEvent>) {
    let mock = Mock::start(script).await;
    let client = ModelClient::new(provider, model)
        .with_base_url(format!("{}{base_path}", mock.url))
        .with_api_key("test-key")
        .with_retry(RetryPolicy::none());
    let events = run(client, stream).await;
    (mock, events)
}

/// Checks the events the host saw, then that the mock received the two
/// requests of the scenario, each at `path` with `headers`; returns them.
pub async fn requests(
    mock: &Mock,
    events: &[AgentEvent],
    calls: &[Call],
    path: &str,
    headers: &[(&str, &str)],
) -> Vec<Received> {
    check_events(events, calls).await;
    let received = mock.received();
    assert_eq!(received.len(), 2, "one request with the prompt, one with the tool results");
    for request in &received {
        assert_eq!(request.path, path);
        for (name, value) in headers {
            assert_eq!(request.headers[*name], *value, "header {name}");
        }
    }
    received
}

/// The tool-result events, in the order they arrived.
pub fn results(events: &[AgentEvent]) -> Vec<&ToolResultEvent> {
    events
        .iter()
        .filter_map(|event| if let AgentEvent::ToolResult(result) = event { Some(result) } else { None })
        .collect()
}

/// The final message.
pub fn last(events: &[AgentEvent]) -> &FinalMessage {
    match events.last() {
        Some(AgentEvent::Finished(last)) => last,
        other => panic!("the run did not end with Finished: {other:?}"),
    }
}

/// What the host must see: each call started in order, one result per call
/// with the right `is_error`, the `math.add` event exactly as `--call` makes
/// it, the image's artifact, the text, the final message.
pub async fn check_events(events: &[AgentEvent], calls: &[Call]) {
    let started: Vec<(&str, &str)> = events
        .iter()
        .filter_map(|event| match event {
            AgentEvent::ToolCallStarted(call) => Some((call.id.as_str(), call.name.as_str())),
            _ => None,
        })
        .collect();
    let expected: Vec<(&str, &str)> = calls
        .iter()
        .map(|call| (call.id.as_str(), if call.name == "math_add" { "math.add" } else { call.name }))
        .collect();
    assert_eq!(started, expected);
    let results = results(events);
    assert_eq!(results.len(), calls.len(), "{results:#?}");
    for call in calls {
        let result = results.iter().find(|result| result.id == call.id).expect("a result per call");
        assert_eq!(result.is_error, call.fails, "{call:?}: {result:?}");
    }
    let added = results.iter().find(|result| result.id == calls[0].id).unwrap();
    let direct =
        toolbox().tools().call("math.add", json!({"a": 2, "b": 3})).await.unwrap().into_event(&calls[0].id, "math.add");
    assert_eq!(**added, direct, "the event equals what --call gives");
    let find = |index: usize| results.iter().find(|result| result.id == calls[index].id).unwrap();
    assert!(find(1).value.contains("cannot divide by zero"), "{:?}", find(1));
    assert!(find(2).value.contains("Unknown tool `nope`"), "{:?}", find(2));
    assert!(find(3).value.contains("panicked: boom"), "{:?}", find(3));
    assert_eq!(find(4).artifact.as_ref().unwrap()["kind"], "image");
    assert_eq!(find(5).value, "left met the other side");
    if let Some(broken) = calls.get(7) {
        assert!(find(7).value.contains("not valid JSON"), "{broken:?}: {:?}", find(7));
    }
    let text: String = events
        .iter()
        .filter_map(|event| if let AgentEvent::TextDelta(text) = event { Some(text.as_str()) } else { None })
        .collect();
    assert_eq!(text, format!("Let me use the tools.{ANSWER}"));
    let last = last(events);
    assert_eq!(last.text, ANSWER);
    assert_eq!(last.requests, 2);
    assert_eq!((last.usage.input_tokens, last.usage.output_tokens), (30, 12), "10 + 20 in, 5 + 7 out");
}

/// The portable value of each call's result, in call order, from the events.
pub fn values(events: &[AgentEvent], calls: &[Call]) -> Vec<String> {
    let results = results(events);
    calls.iter().map(|call| results.iter().find(|result| result.id == call.id).unwrap().value.clone()).collect()
}

/// Neither an artifact nor a display reached the model.
pub fn check_nothing_for_the_host_only(body: &Value) {
    let text = body.to_string();
    assert!(!text.contains("codeagent.tool-artifact"), "an artifact reached the model: {text}");
    assert!(!text.contains("\"display\""), "a display reached the model: {text}");
}

/// The chart's PNG, base64, as the tool makes it.
pub async fn chart_b64() -> String {
    let result = toolbox().tools().call("chart", json!({})).await.unwrap();
    result.artifact().unwrap().payload()["images"][0]["b64"].as_str().unwrap().to_owned()
}

/// Validates `bodies` (requests to `provider`, streamed or not as each says)
/// with the provider's own SDK request types: `tests/providers/check_requests.py`.
pub fn validate(provider: Provider, bodies: &[Value]) {
    let documents: Vec<(String, Value)> =
        bodies.iter().enumerate().map(|(index, body)| (format!("{provider}.{index}.json"), body.clone())).collect();
    let stdout = checker::check("check_requests.py", &documents);
    assert!(stdout.contains(&format!("{} requests checked", bodies.len())), "{stdout}");
}
