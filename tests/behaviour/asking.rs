//! Tools that ask the client, over both transports: in the legacy era a real
//! request to the client (its own id, answered by the client's response, given
//! up with `notifications/cancelled` when the call stops); in 2026-07-28 an
//! `input_required` result and a retry carrying the answers and the sealed
//! `requestState`. A client is never asked what it did not declare.

use codeagent::ask::Sampling;
use codeagent::{Server, ToolError, Toolbox};
use serde_json::{Value, json};

use super::{call, modern_with, text};
use crate::common::client::{Client, Transport};
use crate::common::tools::confirm;
use crate::common::{INVALID_PARAMS, QUIET, V2025_06, V2025_11};

over_both!(
    a_legacy_question_is_a_request_answered_by_the_client,
    the_model_and_the_roots_are_asked_too,
    a_client_that_did_not_declare_is_never_asked,
    a_cancelled_call_gives_up_its_question,
    an_error_answer_reaches_the_tool,
    a_modern_call_asks_with_input_required_and_completes_on_the_retry,
    a_tampered_or_foreign_state_is_refused,
    an_answer_of_the_wrong_shape_is_asked_again,
    a_tool_needing_a_capability_is_refused_before_it_runs,
);

/// Asks the model, then the roots.
#[codeagent::tool]
async fn model_and_roots(ctx: &codeagent::Context) -> Result<String, ToolError> {
    let answer = ctx.sample(Sampling::new(10).with_system_prompt("Be brief.").user("Hi?")).await?;
    let roots = ctx.roots().await?;
    Ok(format!("{} from {}; roots: {}", answer.text().unwrap_or("?"), answer.model, roots.len()))
}

/// Needs sampling.
#[codeagent::tool(requires = ["sampling"])]
fn sampler() -> String {
    "allowed".to_owned()
}

fn asking_server() -> Server {
    let toolbox = Toolbox::new().tool(confirm).tool(model_and_roots).tool(sampler);
    Server::new(toolbox).with_name("asking-test").with_version("1.0.0")
}

fn everything() -> Value {
    json!({"elicitation": {}, "sampling": {}, "roots": {"listChanged": true}})
}

async fn legacy(transport: Transport, capabilities: Value) -> Client {
    let mut client = Client::start(transport, asking_server()).await;
    client.initialize_with(V2025_11, capabilities).await;
    client
}

/// The next message, which must be a request to the client for `method`.
async fn question(client: &mut Client, method: &str) -> Value {
    let message = client.recv().await;
    assert_eq!(message["method"], method, "{}: {message}", client.transport);
    assert!(message["id"].is_string(), "a question has an id of its own: {message}");
    message
}

async fn answer(client: &mut Client, question: &Value, result: Value) {
    client.send_raw(json!({"jsonrpc": "2.0", "id": question["id"], "result": result})).await;
}

async fn a_legacy_question_is_a_request_answered_by_the_client(transport: Transport) {
    let mut client = legacy(transport, everything()).await;
    for (id, answer_given, expected) in [
        (1, json!({"action": "accept", "content": {"ok": true}}), "ok: true"),
        (2, json!({"action": "decline"}), "declined"),
        (3, json!({"action": "cancel"}), "cancelled"),
    ] {
        client.send_request(id, "tools/call", call("confirm", json!({}))).await;
        let asked = question(&mut client, "elicitation/create").await;
        assert_eq!(asked["params"]["message"], "Go ahead?");
        assert_eq!(
            asked["params"]["requestedSchema"],
            json!({"type": "object", "properties": {"ok": {"type": "boolean", "description": "Go ahead?"}}, "required": ["ok"]})
        );
        assert_eq!(asked["params"]["mode"], "form", "{transport}: 2025-11-25 names the mode");
        answer(&mut client, &asked, answer_given).await;
        let (_, response) = client.response_with_notes(&json!(id)).await;
        assert_eq!(text(&response["result"]), expected, "{transport}: {response}");
    }
    // 2025-06-18 has elicitation without `mode`.
    let mut older = Client::start(transport, asking_server()).await;
    older.initialize_with(V2025_06, everything()).await;
    older.send_request(1, "tools/call", call("confirm", json!({}))).await;
    let asked = question(&mut older, "elicitation/create").await;
    assert!(asked["params"].get("mode").is_none(), "{transport}: {asked}");
    answer(&mut older, &asked, json!({"action": "accept", "content": {"ok": false}})).await;
    let (_, response) = older.response_with_notes(&json!(1)).await;
    assert_eq!(text(&response["result"]), "ok: false");
}

async fn the_model_and_the_roots_are_asked_too(transport: Transport) {
    let mut client = legacy(transport, everything()).await;
    client.send_request(1, "tools/call", call("model_and_roots", json!({}))).await;
    let sampling = question(&mut client, "sampling/createMessage").await;
    assert_eq!(
        sampling["params"],
        json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi?"}}], "systemPrompt": "Be brief.", "maxTokens": 10})
    );
    let reply = json!({"role": "assistant", "content": {"type": "text", "text": "Hello"}, "model": "m-1"});
    answer(&mut client, &sampling, reply).await;
    let roots = question(&mut client, "roots/list").await;
    assert_ne!(roots["id"], sampling["id"], "each question has its own id");
    answer(&mut client, &roots, json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b", "name": "B"}]})).await;
    let (_, response) = client.response_with_notes(&json!(1)).await;
    assert_eq!(text(&response["result"]), "Hello from m-1; roots: 2", "{transport}: {response}");
}

async fn a_client_that_did_not_declare_is_never_asked(transport: Transport) {
    let mut client = legacy(transport, json!({"sampling": {}})).await;
    let result = client.result(1, "tools/call", call("confirm", json!({}))).await;
    assert_eq!(result["isError"], true, "{transport}: {result}");
    assert!(text(&result).contains("`elicitation` capability"), "{transport}: {result}");
    client.assert_quiet(QUIET).await;
}

async fn a_cancelled_call_gives_up_its_question(transport: Transport) {
    let mut client = legacy(transport, everything()).await;
    client.send_request(7, "tools/call", call("confirm", json!({}))).await;
    let asked = question(&mut client, "elicitation/create").await;
    client.notify("notifications/cancelled", json!({"requestId": 7, "reason": "changed my mind"})).await;
    let given_up = client.recv().await;
    assert_eq!(given_up["method"], "notifications/cancelled", "{transport}: {given_up}");
    assert_eq!(given_up["params"]["requestId"], asked["id"], "{transport}: {given_up}");
    // A late answer is ignored, and the cancelled call is not answered.
    answer(&mut client, &asked, json!({"action": "accept", "content": {"ok": true}})).await;
    client.assert_quiet(QUIET).await;
}

async fn an_error_answer_reaches_the_tool(transport: Transport) {
    let mut client = legacy(transport, everything()).await;
    client.send_request(1, "tools/call", call("confirm", json!({}))).await;
    let asked = question(&mut client, "elicitation/create").await;
    let refusal = json!({"jsonrpc": "2.0", "id": asked["id"], "error": {"code": -32600, "message": "no forms today"}});
    client.send_raw(refusal).await;
    let (_, response) = client.response_with_notes(&json!(1)).await;
    assert_eq!(response["result"]["isError"], true, "{transport}: {response}");
    assert!(text(&response["result"]).contains("no forms today"), "{transport}: {response}");
}

/// A 2026-07-28 `tools/call` of `name`, with `extra` params and `capabilities`.
fn modern_call(name: &str, extra: Value, capabilities: Value) -> Value {
    let mut params = call(name, json!({}));
    params.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
    modern_with(params, capabilities)
}

async fn a_modern_call_asks_with_input_required_and_completes_on_the_retry(transport: Transport) {
    let mut client = Client::start(transport, asking_server()).await;
    let first = client.result(1, "tools/call", modern_call("model_and_roots", json!({}), everything())).await;
    assert_eq!(first["resultType"], "input_required", "{transport}: {first}");
    assert_eq!(first["inputRequests"]["sampling-1"]["method"], "sampling/createMessage", "{transport}: {first}");
    let state = first["requestState"].as_str().expect("a requestState").to_owned();
    let sampled = json!({"role": "assistant", "content": {"type": "text", "text": "Hello"}, "model": "m-1"});
    let retry = json!({"inputResponses": {"sampling-1": sampled}, "requestState": state});
    let second = client.result(2, "tools/call", modern_call("model_and_roots", retry, everything())).await;
    assert_eq!(second["resultType"], "input_required", "{transport}: the roots are asked next: {second}");
    assert_eq!(second["inputRequests"].as_object().unwrap().keys().collect::<Vec<_>>(), ["roots-2"]);
    assert_ne!(second["requestState"], json!(state), "each round seals a new state");
    // The second state carries the first answer: only the new one is sent.
    let retry = json!({"inputResponses": {"roots-2": {"roots": [{"uri": "file:///a"}]}}, "requestState": second["requestState"]});
    let done = client.result(3, "tools/call", modern_call("model_and_roots", retry, everything())).await;
    assert_eq!(done["resultType"], "complete", "{transport}: {done}");
    assert_eq!(text(&done), "Hello from m-1; roots: 1", "{transport}: {done}");
}

async fn a_tampered_or_foreign_state_is_refused(transport: Transport) {
    let mut client = Client::start(transport, asking_server()).await;
    let first = client.result(1, "tools/call", modern_call("confirm", json!({}), everything())).await;
    let state = first["requestState"].as_str().unwrap().to_owned();
    let answer = json!({"elicitation-1": {"action": "accept", "content": {"ok": true}}});
    let tampered = format!("{state}x");
    let retry = json!({"inputResponses": answer, "requestState": tampered});
    let error = client.error(2, "tools/call", modern_call("confirm", retry, everything())).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains("requestState"), "{transport}: {error}");
    // Valid, but another tool's.
    let retry = json!({"inputResponses": answer, "requestState": state});
    let error = client.error(3, "tools/call", modern_call("model_and_roots", retry, everything())).await;
    assert!(error["message"].as_str().unwrap().contains("another call"), "{transport}: {error}");
    // Its own call completes with it.
    let retry = json!({"inputResponses": answer, "requestState": state});
    let done = client.result(4, "tools/call", modern_call("confirm", retry, everything())).await;
    assert_eq!(text(&done), "ok: true", "{transport}: {done}");
}

async fn an_answer_of_the_wrong_shape_is_asked_again(transport: Transport) {
    let mut client = Client::start(transport, asking_server()).await;
    for responses in [json!({"elicitation-1": 12345}), json!({"wrong_key": {"action": "accept"}}), Value::Null] {
        let retry = json!({"inputResponses": responses});
        let again = client.result(1, "tools/call", modern_call("confirm", retry, everything())).await;
        assert_eq!(again["resultType"], "input_required", "{transport}: {responses} -> {again}");
    }
    let error =
        client.error(2, "tools/call", modern_call("confirm", json!({"inputResponses": [1]}), everything())).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    // Only what the client declared is asked: without sampling, the tool's first question fails.
    let result = client.result(3, "tools/call", modern_call("model_and_roots", json!({}), json!({"roots": {}}))).await;
    assert_eq!(result["isError"], true, "{transport}: {result}");
    assert!(text(&result).contains("`sampling` capability"), "{transport}: {result}");
}

async fn a_tool_needing_a_capability_is_refused_before_it_runs(transport: Transport) {
    let mut client = Client::start(transport, asking_server()).await;
    let error = client.error(1, "tools/call", modern_call("sampler", json!({}), json!({}))).await;
    assert_eq!(error["code"], -32021, "{transport}: {error}");
    assert_eq!(error["data"]["requiredCapabilities"], json!({"sampling": {}}), "{transport}: {error}");
    // 2026-07-28 defines this error's data whole (the client validates it).
    assert!(error["data"].get("_meta").is_none(), "{transport}: {error}");
    let allowed = client.result(2, "tools/call", modern_call("sampler", json!({}), everything())).await;
    assert_eq!(text(&allowed), "allowed");
    let mut old = legacy(transport, json!({})).await;
    let error = old.error(1, "tools/call", call("sampler", json!({}))).await;
    assert_eq!(error["code"], -32021, "{transport}: {error}");
    assert_error_artifact(&error, transport);
    let unknown = old.error(2, "tools/call", call("no_such_tool", json!({}))).await;
    assert_error_artifact(&unknown, transport);
}

/// A call the engine refuses carries, in `data._meta`, the error artifact a
/// tool returning `ToolError` with the same message would have.
fn assert_error_artifact(error: &Value, transport: Transport) {
    let artifact = &error["data"]["_meta"]["dev.codeagent/artifact"];
    assert_eq!(artifact["kind"], "error", "{transport}: {error}");
    assert_eq!(artifact["status"], "error", "{transport}: {error}");
    assert_eq!(artifact["payload"]["message"], error["message"], "{transport}: {error}");
}
