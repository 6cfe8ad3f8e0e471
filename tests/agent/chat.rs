//! OpenAI Chat Completions against the mock: the scenario streamed and not,
//! tool results as one `role: tool` message per call right after the
//! assistant message, text only.

use codeagent::agent::AgentEvent;
use codeagent::provider::{self, Provider, Strictness};
use serde_json::{Value, json};

use crate::mock::{Answer, Mock};
use crate::scenario::{self, ANSWER, Call, PROMPT};

pub fn script(calls: &[Call], stream: bool) -> Vec<Answer> {
    let usage = |input: u64, output: u64| json!({"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output});
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-test",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let done = Answer::Sse(vec![(String::new(), "[DONE]".to_owned())]);
    if !stream {
        let tool_calls: Vec<Value> = calls
            .iter()
            .map(|call| json!({"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}))
            .collect();
        let whole = |message: Value, finish: &str, usage: Value| {
            Answer::Json(json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-test",
                "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": null}], "usage": usage}))
        };
        return vec![
            whole(
                json!({"role": "assistant", "content": "Let me use the tools.", "tool_calls": tool_calls, "refusal": null}),
                "tool_calls",
                usage(10, 5),
            ),
            whole(json!({"role": "assistant", "content": ANSWER, "refusal": null}), "stop", usage(20, 7)),
        ];
    }
    let mut first = vec![
        chunk(json!({"role": "assistant", "content": "Let me "}), Value::Null),
        chunk(json!({"content": "use the tools."}), Value::Null),
    ];
    for (index, call) in calls.iter().enumerate() {
        first.push(chunk(
            json!({"tool_calls": [{"index": index, "id": call.id, "type": "function", "function": {"name": call.name, "arguments": ""}}]}),
            Value::Null,
        ));
        let (head, tail) = call.arguments.split_at(call.arguments.len() / 2);
        for piece in [head, tail] {
            first.push(chunk(json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}), Value::Null));
        }
    }
    first.push(chunk(json!({}), json!("tool_calls")));
    first.push(json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-test", "choices": [], "usage": usage(10, 5)}));
    let (head, tail) = ANSWER.split_at(9);
    let second = vec![
        chunk(json!({"role": "assistant", "content": head}), Value::Null),
        chunk(json!({"content": tail}), json!("stop")),
        json!({"id": "chatcmpl-2", "object": "chat.completion.chunk", "created": 0, "model": "gpt-test", "choices": [], "usage": usage(20, 7)}),
    ];
    let with_done = |events: Vec<Value>| match (Answer::data(events), &done) {
        (Answer::Sse(mut events), Answer::Sse(end)) => {
            events.extend(end.iter().cloned());
            Answer::Sse(events)
        }
        _ => unreachable!(),
    };
    vec![with_done(first), with_done(second)]
}

pub async fn play(stream: bool) -> (Mock, Vec<AgentEvent>, Vec<Call>) {
    let calls = scenario::calls(|index| format!("call_{index}"), "math_add", true);
    let (mock, events) = scenario::play(Provider::OpenAiChat, "gpt-test", "/v1", script(&calls, stream), stream).await;
    (mock, events, calls)
}

async fn check(stream: bool) {
    let (mock, events, calls) = play(stream).await;
    let auth = [("authorization", "Bearer test-key")];
    let received = scenario::requests(&mock, &events, &calls, "/v1/chat/completions", &auth).await;
    let offered = provider::tools(&scenario::toolbox(), Provider::OpenAiChat, Strictness::Lenient).unwrap();
    let first = &received[0].body;
    assert_eq!(first["model"], "gpt-test");
    assert_eq!(first["messages"], json!([{"role": "user", "content": PROMPT}]));
    assert_eq!(first["tools"], offered.tools);
    assert_eq!(first["stream"], stream);
    assert_eq!(first.get("stream_options").is_some(), stream);

    let second = &received[1].body;
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2 + calls.len(), "the prompt, the assistant message, one tool message per call");
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|call| json!({"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}))
        .collect();
    assert_eq!(messages[1], json!({"role": "assistant", "content": "Let me use the tools.", "tool_calls": tool_calls}));
    let values = scenario::values(&events, &calls);
    for (index, call) in calls.iter().enumerate() {
        assert_eq!(messages[2 + index], json!({"role": "tool", "tool_call_id": call.id, "content": values[index]}));
    }
    assert!(!second.to_string().contains(&scenario::chart_b64().await), "Chat Completions gets text only");
    scenario::check_nothing_for_the_host_only(second);
}

#[tokio::test]
async fn chat_completions_streamed() {
    check(true).await;
}

#[tokio::test]
async fn chat_completions_whole() {
    check(false).await;
}

#[tokio::test]
#[ignore = "needs the interop Python environment: bash tests/interop/install.sh, then cargo test -- --include-ignored"]
async fn chat_completions_requests_validate_against_the_openai_sdk() {
    let mut bodies = play(true).await.0.bodies();
    bodies.extend(play(false).await.0.bodies());
    scenario::validate(Provider::OpenAiChat, &bodies);
}
