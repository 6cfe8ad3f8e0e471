//! Anthropic Messages against the mock: the scenario streamed and not; the
//! content blocks (a signed thinking block too) go back as they came, the
//! results are one user message of `tool_result` blocks, `is_error` on
//! failures, the image a base64 `image` block inside its `tool_result`.

use codeagent::agent::AgentEvent;
use codeagent::provider::{self, Provider, Strictness};
use serde_json::{Value, json};

use crate::mock::{Answer, Mock};
use crate::scenario::{self, ANSWER, Call, PROMPT};

fn blocks(calls: &[Call]) -> Vec<Value> {
    let mut blocks = vec![
        json!({"type": "thinking", "thinking": "I should use them.", "signature": "sig-1"}),
        json!({"type": "text", "text": "Let me use the tools."}),
    ];
    blocks.extend(
        calls.iter().map(|call| json!({"type": "tool_use", "id": call.id, "name": call.name, "input": call.json()})),
    );
    blocks
}

fn message(content: Vec<Value>, stop: &str, input: u64, output: u64) -> Value {
    json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test", "content": content,
        "stop_reason": stop, "stop_sequence": null, "usage": {"input_tokens": input, "output_tokens": output}})
}

pub fn script(calls: &[Call], stream: bool) -> Vec<Answer> {
    if !stream {
        return vec![
            Answer::Json(message(blocks(calls), "tool_use", 10, 5)),
            Answer::Json(message(vec![json!({"type": "text", "text": ANSWER})], "end_turn", 20, 7)),
        ];
    }
    let start = |input: u64| json!({"type": "message_start", "message": message(vec![], "", input, 1)});
    let delta = |index: usize, delta: Value| json!({"type": "content_block_delta", "index": index, "delta": delta});
    let block_start =
        |index: usize, block: Value| json!({"type": "content_block_start", "index": index, "content_block": block});
    let stop = |index: usize| json!({"type": "content_block_stop", "index": index});
    let end = |reason: &str, output: u64| {
        [
            json!({"type": "message_delta", "delta": {"stop_reason": reason, "stop_sequence": null}, "usage": {"output_tokens": output}}),
            json!({"type": "message_stop"}),
        ]
    };
    let mut first = vec![start(10), json!({"type": "ping"})];
    first.push(block_start(0, json!({"type": "thinking", "thinking": "", "signature": ""})));
    first.push(delta(0, json!({"type": "thinking_delta", "thinking": "I should use them."})));
    first.push(delta(0, json!({"type": "signature_delta", "signature": "sig-1"})));
    first.push(stop(0));
    first.push(block_start(1, json!({"type": "text", "text": ""})));
    first.push(delta(1, json!({"type": "text_delta", "text": "Let me "})));
    first.push(delta(1, json!({"type": "text_delta", "text": "use the tools."})));
    first.push(stop(1));
    for (index, call) in calls.iter().enumerate() {
        first.push(block_start(index + 2, json!({"type": "tool_use", "id": call.id, "name": call.name, "input": {}})));
        let (head, tail) = call.arguments.split_at(call.arguments.len() / 2);
        for piece in [head, tail] {
            first.push(delta(index + 2, json!({"type": "input_json_delta", "partial_json": piece})));
        }
        first.push(stop(index + 2));
    }
    first.extend(end("tool_use", 5));
    let (head, tail) = ANSWER.split_at(9);
    let mut second = vec![start(20), block_start(0, json!({"type": "text", "text": ""}))];
    second.push(delta(0, json!({"type": "text_delta", "text": head})));
    second.push(delta(0, json!({"type": "text_delta", "text": tail})));
    second.push(stop(0));
    second.extend(end("end_turn", 7));
    vec![Answer::typed(first), Answer::typed(second)]
}

pub async fn play(stream: bool) -> (Mock, Vec<AgentEvent>, Vec<Call>) {
    // Only a streamed tool_use can carry arguments that are not JSON.
    let calls = scenario::calls(|index| format!("toolu_0{index}"), "math_add", stream);
    let (mock, events) = scenario::play(Provider::Anthropic, "claude-test", "", script(&calls, stream), stream).await;
    (mock, events, calls)
}

async fn check(stream: bool) {
    let (mock, events, calls) = play(stream).await;
    let headers = [("x-api-key", "test-key"), ("anthropic-version", "2023-06-01")];
    let received = scenario::requests(&mock, &events, &calls, "/v1/messages", &headers).await;
    assert!(received.iter().all(|request| request.headers.get("authorization").is_none()));
    let offered = provider::tools(&scenario::toolbox(), Provider::Anthropic, Strictness::Lenient).unwrap();
    let first = &received[0].body;
    assert_eq!(first["messages"], json!([{"role": "user", "content": PROMPT}]));
    assert_eq!(first["tools"], offered.tools);
    assert_eq!(first["max_tokens"], 4096);
    assert_eq!(first["stream"], stream);

    let messages = received[1].body["messages"].as_array().unwrap().clone();
    assert_eq!(messages.len(), 3, "the prompt, the assistant message, one user message with every result");
    assert_eq!(messages[1], json!({"role": "assistant", "content": blocks(&calls)}), "signed thinking echoed");
    let values = scenario::values(&events, &calls);
    let chart = scenario::chart_b64().await;
    let results: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(index, call)| {
            let mut content = vec![json!({"type": "text", "text": values[index]})];
            if call.name == "chart" {
                content.push(
                    json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": chart}}),
                );
            }
            let mut result = json!({"type": "tool_result", "tool_use_id": call.id, "content": content});
            if call.fails {
                result["is_error"] = json!(true);
            }
            result
        })
        .collect();
    assert_eq!(messages[2], json!({"role": "user", "content": results}));
    scenario::check_nothing_for_the_host_only(&received[1].body);
}

#[tokio::test]
async fn anthropic_streamed() {
    check(true).await;
}

#[tokio::test]
async fn anthropic_whole() {
    check(false).await;
}

#[tokio::test]
#[ignore = "needs the interop Python environment: bash tests/interop/install.sh, then cargo test -- --include-ignored"]
async fn anthropic_requests_validate_against_the_anthropic_sdk() {
    let mut bodies = play(true).await.0.bodies();
    bodies.extend(play(false).await.0.bodies());
    scenario::validate(Provider::Anthropic, &bodies);
}
