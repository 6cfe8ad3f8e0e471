//! OpenAI Responses against the mock: the scenario streamed and not; the
//! output items (a reasoning item too) go back as they came, each result is a
//! `function_call_output` with the `call_id`, the image an `input_image` data URL.

use codeagent::agent::AgentEvent;
use codeagent::provider::{self, Provider, Strictness};
use serde_json::{Value, json};

use crate::mock::{Answer, Mock};
use crate::scenario::{self, ANSWER, Call, PROMPT};

fn message(id: &str, text: &str) -> Value {
    json!({"type": "message", "id": id, "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}]})
}

fn function_call(index: usize, call: &Call) -> Value {
    json!({"type": "function_call", "id": format!("fc_{index}"), "call_id": call.id, "name": call.name,
        "arguments": call.arguments, "status": "completed"})
}

fn first_output(calls: &[Call]) -> Vec<Value> {
    let mut output =
        vec![json!({"type": "reasoning", "id": "rs_1", "summary": []}), message("msg_1", "Let me use the tools.")];
    output.extend(calls.iter().enumerate().map(|(index, call)| function_call(index, call)));
    output
}

fn usage(input: u64, output: u64) -> Value {
    json!({"input_tokens": input, "output_tokens": output, "total_tokens": input + output})
}

fn response(output: Vec<Value>, usage: Value) -> Value {
    json!({"id": "resp_1", "object": "response", "created_at": 0, "status": "completed", "model": "gpt-test",
        "output": output, "usage": usage})
}

pub fn script(calls: &[Call], stream: bool) -> Vec<Answer> {
    if !stream {
        return vec![
            Answer::Json(response(first_output(calls), usage(10, 5))),
            Answer::Json(response(vec![message("msg_2", ANSWER)], usage(20, 7))),
        ];
    }
    let mut first = vec![json!({"type": "response.created", "response": {"id": "resp_1", "status": "in_progress"}})];
    let reasoning = json!({"type": "reasoning", "id": "rs_1", "summary": []});
    first.push(json!({"type": "response.output_item.added", "output_index": 0, "item": reasoning}));
    first.push(json!({"type": "response.output_item.done", "output_index": 0, "item": reasoning}));
    first.push(json!({"type": "response.output_item.added", "output_index": 1,
        "item": {"type": "message", "id": "msg_1", "status": "in_progress", "role": "assistant", "content": []}}));
    for delta in ["Let me ", "use the tools."] {
        first.push(json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 1, "content_index": 0, "delta": delta}));
    }
    first.push(json!({"type": "response.output_item.done", "output_index": 1, "item": message("msg_1", "Let me use the tools.")}));
    for (index, call) in calls.iter().enumerate() {
        let output_index = index + 2;
        let mut started = function_call(index, call);
        started["arguments"] = json!("");
        started["status"] = json!("in_progress");
        first.push(json!({"type": "response.output_item.added", "output_index": output_index, "item": started}));
        let (head, tail) = call.arguments.split_at(call.arguments.len() / 2);
        for delta in [head, tail] {
            first.push(json!({"type": "response.function_call_arguments.delta", "item_id": format!("fc_{index}"),
                "output_index": output_index, "delta": delta}));
        }
        first.push(json!({"type": "response.function_call_arguments.done", "item_id": format!("fc_{index}"),
            "output_index": output_index, "arguments": call.arguments}));
        first.push(json!({"type": "response.output_item.done", "output_index": output_index, "item": function_call(index, call)}));
    }
    first.push(json!({"type": "response.completed", "response": response(first_output(calls), usage(10, 5))}));
    let (head, tail) = ANSWER.split_at(9);
    let second = vec![
        json!({"type": "response.output_item.added", "output_index": 0,
            "item": {"type": "message", "id": "msg_2", "status": "in_progress", "role": "assistant", "content": []}}),
        json!({"type": "response.output_text.delta", "item_id": "msg_2", "output_index": 0, "content_index": 0, "delta": head}),
        json!({"type": "response.output_text.delta", "item_id": "msg_2", "output_index": 0, "content_index": 0, "delta": tail}),
        json!({"type": "response.output_item.done", "output_index": 0, "item": message("msg_2", ANSWER)}),
        json!({"type": "response.completed", "response": response(vec![message("msg_2", ANSWER)], usage(20, 7))}),
    ];
    vec![Answer::typed(first), Answer::typed(second)]
}

pub async fn play(stream: bool) -> (Mock, Vec<AgentEvent>, Vec<Call>) {
    let calls = scenario::calls(|index| format!("call_r{index}"), "math_add", true);
    let script = script(&calls, stream);
    let (mock, events) = scenario::play(Provider::OpenAiResponses, "gpt-test", "/v1", script, stream).await;
    (mock, events, calls)
}

async fn check(stream: bool) {
    let (mock, events, calls) = play(stream).await;
    let auth = [("authorization", "Bearer test-key")];
    let received = scenario::requests(&mock, &events, &calls, "/v1/responses", &auth).await;
    let offered = provider::tools(&scenario::toolbox(), Provider::OpenAiResponses, Strictness::Lenient).unwrap();
    let first = &received[0].body;
    assert_eq!(first["input"], json!([{"role": "user", "content": PROMPT}]));
    assert_eq!(first["tools"], offered.tools);
    assert_eq!(first["stream"], stream);

    let input = received[1].body["input"].as_array().unwrap().clone();
    let output = first_output(&calls);
    assert_eq!(input.len(), 1 + output.len() + calls.len());
    assert_eq!(input[1..=output.len()], output[..], "the output items go back as they came");
    let values = scenario::values(&events, &calls);
    let chart = format!("data:image/png;base64,{}", scenario::chart_b64().await);
    for (index, call) in calls.iter().enumerate() {
        let result = &input[1 + output.len() + index];
        let expected = if call.name == "chart" {
            json!([{"type": "input_text", "text": values[index]}, {"type": "input_image", "image_url": chart}])
        } else {
            json!(values[index])
        };
        assert_eq!(*result, json!({"type": "function_call_output", "call_id": call.id, "output": expected}));
    }
    scenario::check_nothing_for_the_host_only(&received[1].body);
}

#[tokio::test]
async fn responses_streamed() {
    check(true).await;
}

#[tokio::test]
async fn responses_whole() {
    check(false).await;
}

#[tokio::test]
#[ignore = "needs the interop Python environment: bash tests/interop/install.sh, then cargo test -- --include-ignored"]
async fn responses_requests_validate_against_the_openai_sdk() {
    let mut bodies = play(true).await.0.bodies();
    bodies.extend(play(false).await.0.bodies());
    scenario::validate(Provider::OpenAiResponses, &bodies);
}
