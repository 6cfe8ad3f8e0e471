//! Whole Chat Completions answers for the behaviour tests.

use codeagent::agent::{ModelClient, RetryPolicy};
use codeagent::provider::Provider;
use serde_json::{Value, json};

use crate::mock::Answer;

fn completion(message: Value, finish: &str) -> Answer {
    Answer::Json(json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "gpt-test",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}))
}

/// An answer without calls.
pub fn text(text: &str) -> Answer {
    completion(json!({"role": "assistant", "content": text}), "stop")
}

/// An answer asking for `calls`: `(id, tool, arguments JSON)`.
pub fn calls(calls: &[(&str, &str, &str)]) -> Answer {
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|(id, name, arguments)| json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}))
        .collect();
    completion(json!({"role": "assistant", "content": null, "tool_calls": tool_calls}), "tool_calls")
}

/// A Chat Completions client of the mock at `url`, not retrying.
pub fn client(url: &str) -> ModelClient {
    ModelClient::new(Provider::OpenAiChat, "gpt-test")
        .with_base_url(format!("{url}/v1"))
        .with_retry(RetryPolicy::none())
}
