//! Gemini against the mock: the scenario streamed (calls with ids) and not
//! (calls without: the ids are made up and not sent back); the parts go back
//! as they came, `thoughtSignature` included; the results are one content of
//! `functionResponse`s, `{"output"}` or `{"error"}`, the image as `inlineData`
//! in its `functionResponse`'s `parts`.

use codeagent::agent::AgentEvent;
use codeagent::provider::{self, Provider, Strictness};
use serde_json::{Value, json};

use crate::mock::{Answer, Mock};
use crate::scenario::{self, ANSWER, Call, PROMPT};

/// The parts of the first answer, as each chunk carries them.
fn chunks(calls: &[Call], stream: bool) -> Vec<Vec<Value>> {
    let function_calls: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(index, call)| {
            let mut function_call = json!({"name": call.name, "args": call.json()});
            if stream {
                function_call["id"] = json!(call.id);
            }
            let mut part = json!({"functionCall": function_call});
            if index == 0 {
                part["thoughtSignature"] = json!("c2lnbmF0dXJl");
            }
            part
        })
        .collect();
    let thought = json!({"text": "The user wants every tool.", "thought": true});
    if stream {
        vec![vec![thought], vec![json!({"text": "Let me "})], vec![json!({"text": "use the tools."})], function_calls]
    } else {
        let mut parts = vec![thought, json!({"text": "Let me use the tools."})];
        parts.extend(function_calls);
        vec![parts]
    }
}

fn chunk(parts: Vec<Value>, last: Option<(u64, u64, u64)>) -> Value {
    let mut candidate = json!({"content": {"role": "model", "parts": parts}, "index": 0});
    let mut chunk = json!({"modelVersion": "gemini-test"});
    if let Some((prompt, candidates, thoughts)) = last {
        candidate["finishReason"] = json!("STOP");
        chunk["usageMetadata"] = json!({"promptTokenCount": prompt, "candidatesTokenCount": candidates,
            "thoughtsTokenCount": thoughts, "totalTokenCount": prompt + candidates + thoughts});
    }
    chunk["candidates"] = json!([candidate]);
    chunk
}

pub fn script(calls: &[Call], stream: bool) -> Vec<Answer> {
    let mut first = chunks(calls, stream);
    let last = first.pop().unwrap();
    let mut first: Vec<Value> = first.into_iter().map(|parts| chunk(parts, None)).collect();
    first.push(chunk(last, Some((10, 4, 1))));
    if !stream {
        let second = chunk(vec![json!({"text": ANSWER})], Some((20, 7, 0)));
        return vec![Answer::Json(first.remove(0)), Answer::Json(second)];
    }
    let (head, tail) = ANSWER.split_at(9);
    let second = vec![chunk(vec![json!({"text": head})], None), chunk(vec![json!({"text": tail})], Some((20, 7, 0)))];
    vec![Answer::data(first), Answer::data(second)]
}

pub async fn play(stream: bool) -> (Mock, Vec<AgentEvent>, Vec<Call>) {
    let id = move |index: usize| if stream { format!("fc-{index}") } else { format!("call_1_{index}") };
    let calls = scenario::calls(id, "math.add", false);
    let (mock, events) =
        scenario::play(Provider::Gemini, "gemini-test", "/v1beta", script(&calls, stream), stream).await;
    (mock, events, calls)
}

async fn check(stream: bool) {
    let (mock, events, calls) = play(stream).await;
    let path = if stream {
        "/v1beta/models/gemini-test:streamGenerateContent?alt=sse"
    } else {
        "/v1beta/models/gemini-test:generateContent"
    };
    let received = scenario::requests(&mock, &events, &calls, path, &[("x-goog-api-key", "test-key")]).await;
    let offered = provider::tools(&scenario::toolbox(), Provider::Gemini, Strictness::Lenient).unwrap();
    let first = &received[0].body;
    assert_eq!(first["contents"], json!([{"role": "user", "parts": [{"text": PROMPT}]}]));
    assert_eq!(first["tools"], json!([offered.tools]));
    assert!(first.get("stream").is_none(), "Gemini says streaming in the URL");

    let contents = received[1].body["contents"].as_array().unwrap().clone();
    assert_eq!(contents.len(), 3, "the prompt, the model's content, one content with every functionResponse");
    let parts: Vec<Value> = chunks(&calls, stream).into_iter().flatten().collect();
    assert_eq!(contents[1], json!({"role": "model", "parts": parts}), "the parts go back as they came");
    assert_eq!(contents[1]["parts"][if stream { 3 } else { 2 }]["thoughtSignature"], "c2lnbmF0dXJl");
    let values = scenario::values(&events, &calls);
    let chart = scenario::chart_b64().await;
    let responses: Vec<Value> = calls
        .iter()
        .enumerate()
        .map(|(index, call)| {
            let key = if call.fails { "error" } else { "output" };
            let mut response = json!({"name": call.name, "response": {key: values[index]}});
            if stream {
                response["id"] = json!(call.id);
            }
            if call.name == "chart" {
                response["parts"] = json!([{"inlineData": {"mimeType": "image/png", "data": chart}}]);
            }
            json!({"functionResponse": response})
        })
        .collect();
    assert_eq!(contents[2], json!({"role": "user", "parts": responses}));
    scenario::check_nothing_for_the_host_only(&received[1].body);
}

#[tokio::test]
async fn gemini_streamed() {
    check(true).await;
}

#[tokio::test]
async fn gemini_whole() {
    check(false).await;
}

#[tokio::test]
#[ignore = "needs the interop Python environment: bash tests/interop/install.sh, then cargo test -- --include-ignored"]
async fn gemini_requests_validate_against_the_google_genai_sdk() {
    let mut bodies = play(true).await.0.bodies();
    bodies.extend(play(false).await.0.bodies());
    scenario::validate(Provider::Gemini, &bodies);
}
