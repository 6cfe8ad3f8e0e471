//! Every way a request reaches a scoped tool, resource, template or prompt,
//! each refused without the scope and served with it (issue #34): alone and
//! in a 2025-03-26 batch, in a legacy session and in 2026-07-28, and a
//! task's methods. And what belongs to a caller stays theirs: a legacy
//! session, a `requestState`, a kept result.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use codeagent::ProtocolVersion;
use codeagent::Server;
use codeagent::prelude::*;
use codeagent::server::auth::ResourceServer;
use codeagent::server::http::HttpOptions;
use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY};
use hyper::StatusCode;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::common::http::{Call, Endpoint, initialize_request, modern, modern_post, post, request, start_on};
use crate::issuer::Issuer;

const IGNORED: &str = "needs the issuer: run bash tests/auth/install.sh";

/// The code of a request refused for a scope where no HTTP status can say
/// it (with `Forbidden: ...` and the scopes in `data`).
const FORBIDDEN: i64 = codeagent::server::jsonrpc::INVALID_REQUEST;

/// The regions a template completes.
fn regions(typed: &str, _given: &BTreeMap<String, String>) -> Vec<String> {
    ["north", "south"].iter().filter(|region| region.starts_with(typed)).map(|region| (*region).to_owned()).collect()
}

/// One region's records, a template whose variable is completed: reading
/// or completing it needs `sales:write`.
fn region_records() -> impl codeagent::resources::Resource {
    codeagent::resources::ResourceSpec::template("sales://regions/{name}", "region_records")
        .expect("a template")
        .with_scope("sales:write")
        .with_completer("name", codeagent::completion::Completer::new(regions))
        .serve(|read| async move { format!("{}: 1200", read.variable("name").unwrap_or_default()) })
}

/// A prompt to plan a purge: getting or completing it needs `sales:write`.
#[prompt(scopes = ["sales:write"])]
fn plan_purge(
    /// The region to purge.
    #[complete(regions)]
    region: String,
) -> String {
    format!("Purge {region}?")
}

/// Purges a region, as a task: it and its task's methods need `sales:write`.
#[tool(task, destructive, scopes = ["sales:write"])]
async fn purge(
    /// The region to purge, such as "eu-west".
    region: String,
) -> String {
    tokio::time::sleep(Duration::from_millis(200)).await;
    format!("purged {region}")
}

#[derive(Deserialize, schemars::JsonSchema)]
struct Confirm {
    /// Go ahead?
    confirm: bool,
}

/// Asks before it answers (a 2026-07-28 round carries a `requestState`).
#[tool]
async fn confirm_first(ctx: &Context) -> Result<String, ToolError> {
    match ctx.elicit::<Confirm>("Go ahead?").await? {
        codeagent::ask::Elicitation::Accepted(Confirm { confirm: true }) => Ok("done".to_owned()),
        _ => Ok("kept".to_owned()),
    }
}

/// A result too large for its budget: kept whole, a link given.
#[tool(result_budget(value = 64))]
fn big_report() -> String {
    "x".repeat(4096)
}

/// The endpoint with every scoped kind of item, its resource identifier.
async fn endpoint(issuer: &Issuer) -> (Endpoint, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
    let auth = ResourceServer::new(&issuer.url, &resource).with_scopes_supported(["sales:read", "sales:write"]);
    let toolbox = Toolbox::new()
        .tool(crate::delete_region)
        .tool(purge)
        .tool(confirm_first)
        .tool(big_report)
        .resource(crate::ledger)
        .resource(region_records())
        .prompt(crate::plan_deletion)
        .prompt(plan_purge);
    (start_on(listener, Server::new(toolbox), HttpOptions::new().with_resource_server(auth)).await, resource)
}

/// The requests that name a scoped item, by what they reach.
fn scoped_requests() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("a tool", "tools/call", json!({"name": "delete_region", "arguments": {"region": "north"}})),
        ("a resource", "resources/read", json!({"uri": "sales://ledger"})),
        ("a template", "resources/read", json!({"uri": "sales://regions/north"})),
        ("a prompt", "prompts/get", json!({"name": "plan_deletion"})),
        (
            "a prompt's completion",
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "plan_purge"}, "argument": {"name": "region", "value": "n"}}),
        ),
        (
            "a template's completion",
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "sales://regions/{name}"}, "argument": {"name": "name", "value": "n"}}),
        ),
    ]
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A legacy session of `version` opened with `token`: its id.
async fn open(addr: SocketAddr, version: ProtocolVersion, token: &str) -> String {
    let response = post(addr).header("authorization", bearer(token)).json(&initialize_request(version)).send().await;
    assert_eq!(response.status, StatusCode::OK);
    let session = response.header("mcp-session-id").expect("a session").to_owned();
    response.bytes().await;
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let response = in_session(addr, version, &session, token).json(&initialized).send().await;
    assert_eq!(response.status, StatusCode::ACCEPTED);
    session
}

/// A POST in legacy session `session` with `token`, answered as JSON.
fn in_session(addr: SocketAddr, version: ProtocolVersion, session: &str, token: &str) -> Call {
    let call = post(addr)
        .header("authorization", bearer(token))
        .header("mcp-session-id", session)
        .header("accept", "application/json");
    if version >= ProtocolVersion::V2025_06_18 { call.header("mcp-protocol-version", version.as_str()) } else { call }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn every_entry_path_refuses_a_missing_scope_and_serves_the_granted_one() {
    let _ = IGNORED;
    let issuer = Issuer::start().await;
    let (endpoint, resource) = endpoint(&issuer).await;
    let addr = endpoint.addr;
    let reader = issuer.mint(json!({"aud": resource, "sub": "ada", "scope": "sales:read"})).await;
    let writer = issuer.mint(json!({"aud": resource, "sub": "ada", "scope": "sales:read sales:write"})).await;
    let batched = open(addr, ProtocolVersion::V2025_03_26, &reader).await;
    let legacy = open(addr, ProtocolVersion::V2025_11_25, &reader).await;

    for (what, method, params) in scoped_requests() {
        // 2026-07-28, alone: 403 insufficient_scope, then served.
        let message = modern(1, method, params.clone());
        let response = modern_post(addr, &message).header("authorization", bearer(&reader)).send().await;
        assert_eq!(response.status, StatusCode::FORBIDDEN, "{what}, 2026-07-28");
        let challenge = response.header("www-authenticate").unwrap_or_default().to_owned();
        assert!(challenge.contains(r#"error="insufficient_scope""#), "{what}: {challenge}");
        let response = modern_post(addr, &message).header("authorization", bearer(&writer)).send().await;
        assert_eq!(response.status, StatusCode::OK, "{what}, 2026-07-28");
        let (_, answer) = response.exchange().await;
        assert!(answer.get("result").is_some(), "{what}, 2026-07-28: {answer}");

        // A legacy session, alone: the same.
        let message = request(2, method, params.clone());
        let response = in_session(addr, ProtocolVersion::V2025_11_25, &legacy, &reader).json(&message).send().await;
        assert_eq!(response.status, StatusCode::FORBIDDEN, "{what}, 2025-11-25");
        let response = in_session(addr, ProtocolVersion::V2025_11_25, &legacy, &writer).json(&message).send().await;
        assert_eq!(response.status, StatusCode::OK, "{what}, 2025-11-25");
        let answer = response.json().await;
        assert!(answer.get("result").is_some(), "{what}, 2025-11-25: {answer}");

        // A 2025-03-26 batch of one, and one beside a harmless request: the
        // element is refused with FORBIDDEN naming the scope; the rest is served.
        for batch in [
            json!([request(3, method, params.clone())]),
            json!([request(4, "ping", json!({})), request(3, method, params.clone())]),
        ] {
            let response = in_session(addr, ProtocolVersion::V2025_03_26, &batched, &reader).json(&batch).send().await;
            assert_eq!(response.status, StatusCode::OK, "{what}, batch");
            let answers = response.json().await;
            let answer = answers.as_array().and_then(|answers| answers.iter().find(|answer| answer["id"] == 3));
            let answer = answer.unwrap_or_else(|| panic!("{what}: no answer to the batched request: {answers}"));
            assert_eq!(answer["error"]["code"], FORBIDDEN, "{what}, batch: {answers}");
            assert_eq!(answer["error"]["data"]["missingScopes"], json!(["sales:write"]), "{what}: {answers}");
            if let Some(ping) = answers.as_array().and_then(|answers| answers.iter().find(|answer| answer["id"] == 4)) {
                assert!(ping.get("result").is_some(), "{what}: the harmless request is served: {answers}");
            }
            let response = in_session(addr, ProtocolVersion::V2025_03_26, &batched, &writer).json(&batch).send().await;
            let answers = response.json().await;
            let answer = answers.as_array().and_then(|answers| answers.iter().find(|answer| answer["id"] == 3));
            assert!(answer.is_some_and(|answer| answer.get("result").is_some()), "{what}, batch: {answers}");
        }
    }

    // A task of a scoped tool: its methods need the tool's scopes too.
    let declaring = |id: &str, method: &str, params: Value| {
        let mut message = modern(id, method, params);
        let meta = &mut message["params"]["_meta"];
        meta[CLIENT_CAPABILITIES_KEY] = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
        meta[CLIENT_INFO_KEY] = json!({"name": "paths-test", "version": "1.0.0"});
        message
    };
    let call = declaring("call", "tools/call", json!({"name": "purge", "arguments": {"region": "east"}}));
    let response = modern_post(addr, &call).header("authorization", bearer(&writer)).send().await;
    let (_, created) = response.exchange().await;
    let task = created["result"]["taskId"].as_str().unwrap_or_else(|| panic!("a task: {created}")).to_owned();
    for method in ["tasks/get", "tasks/update", "tasks/cancel"] {
        let mut params = json!({"taskId": task});
        if method == "tasks/update" {
            params["inputResponses"] = json!({});
        }
        let message = declaring("task", method, params);
        let response = modern_post(addr, &message).header("authorization", bearer(&reader)).send().await;
        let (_, answer) = response.exchange().await;
        assert_eq!(answer["error"]["code"], FORBIDDEN, "{method} without the scope: {answer}");
    }
    let message = declaring("task", "tasks/get", json!({"taskId": task}));
    let response = modern_post(addr, &message).header("authorization", bearer(&writer)).send().await;
    let (_, answer) = response.exchange().await;
    assert_eq!(answer["result"]["taskId"], task.as_str(), "tasks/get with the scope: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn a_legacy_session_belongs_to_the_caller_who_opened_it() {
    let issuer = Issuer::start().await;
    let (endpoint, resource) = endpoint(&issuer).await;
    let addr = endpoint.addr;
    let (ada, mallory) = two_subjects(&issuer, &resource).await;
    let version = ProtocolVersion::V2025_11_25;
    let session = open(addr, version, &ada).await;
    let not_found = |response: &crate::common::http::Response, what: &str| {
        assert_eq!(response.status, StatusCode::NOT_FOUND, "{what}: another caller is told the session does not exist");
    };

    // Another subject's valid token with ada's session id: refused as if the
    // session did not exist, for a request, a response, a stream, a resumption
    // and its end.
    let call = request(5, "tools/call", json!({"name": "delete_region", "arguments": {"region": "west"}}));
    not_found(&in_session(addr, version, &session, &mallory).json(&call).send().await, "a request");
    let answer =
        json!({"jsonrpc": "2.0", "id": "codeagent-1", "result": {"action": "accept", "content": {"confirm": true}}});
    not_found(&in_session(addr, version, &session, &mallory).json(&answer).send().await, "a client's answer");
    let stream = |token: &str| {
        crate::common::http::get(addr)
            .header("authorization", bearer(token))
            .header("mcp-session-id", session.clone())
            .header("mcp-protocol-version", version.as_str())
            .header("accept", "text/event-stream")
    };
    not_found(&stream(&mallory).send().await, "its stream");
    not_found(&stream(&mallory).header("last-event-id", "1-0").send().await, "a resumption");
    let end = crate::common::http::delete(addr)
        .header("authorization", bearer(&mallory))
        .header("mcp-session-id", session.clone())
        .header("mcp-protocol-version", version.as_str());
    not_found(&end.send().await, "its end");
    // Ada's session is untouched.
    let response = in_session(addr, version, &session, &ada).json(&call).send().await;
    assert_eq!(response.status, StatusCode::OK, "the owner still uses it");
}

/// Ada's and mallory's tokens, both with every scope, for `endpoint`.
async fn two_subjects(issuer: &Issuer, resource: &str) -> (String, String) {
    let all = "sales:read sales:write";
    let ada = issuer.mint(json!({"aud": resource, "sub": "ada", "scope": all})).await;
    let mallory = issuer.mint(json!({"aud": resource, "sub": "mallory", "scope": all})).await;
    (ada, mallory)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn a_request_state_is_bound_to_the_caller_not_only_to_the_client_it_declares() {
    let issuer = Issuer::start().await;
    let (endpoint, resource) = endpoint(&issuer).await;
    let addr = endpoint.addr;
    let (ada, mallory) = two_subjects(&issuer, &resource).await;
    // Mallory replays ada's round, declaring the same client.
    let first = modern(6, "tools/call", json!({"name": "confirm_first", "arguments": {}}));
    let mut first = first;
    first["params"]["_meta"][CLIENT_CAPABILITIES_KEY] = json!({"elicitation": {"form": {}}});
    let response = modern_post(addr, &first).header("authorization", bearer(&ada)).send().await;
    let (_, round) = response.exchange().await;
    let state =
        round["result"]["requestState"].as_str().unwrap_or_else(|| panic!("a requestState: {round}")).to_owned();
    let key = round["result"]["inputRequests"].as_object().and_then(|requests| requests.keys().next().cloned());
    let key = key.unwrap_or_else(|| panic!("a question: {round}"));
    let mut replay = first.clone();
    replay["params"]["requestState"] = json!(state);
    replay["params"]["inputResponses"] = json!({ key: {"action": "accept", "content": {"confirm": true}} });
    let response = modern_post(addr, &replay).header("authorization", bearer(&mallory)).send().await;
    let (_, refused) = response.exchange().await;
    assert_eq!(refused["error"]["code"], -32602, "mallory's replay: {refused}");
    assert!(refused["error"]["message"].as_str().unwrap_or_default().contains("requestState"), "{refused}");
    let response = modern_post(addr, &replay).header("authorization", bearer(&ada)).send().await;
    let (_, answered) = response.exchange().await;
    assert_eq!(answered["result"]["content"][0]["text"], "done", "ada's own round: {answered}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn a_result_kept_whole_is_read_by_its_caller_only() {
    let issuer = Issuer::start().await;
    let (endpoint, resource) = endpoint(&issuer).await;
    let addr = endpoint.addr;
    let (ada, mallory) = two_subjects(&issuer, &resource).await;
    let message = modern(7, "tools/call", json!({"name": "big_report", "arguments": {}}));
    let response = modern_post(addr, &message).header("authorization", bearer(&ada)).send().await;
    let (_, previewed) = response.exchange().await;
    let text = previewed.to_string();
    let start = text.find("codeagent://results/").unwrap_or_else(|| panic!("a link to the whole: {previewed}"));
    let id: String = text[start + "codeagent://results/".len()..].chars().take_while(char::is_ascii_hexdigit).collect();
    let uri = format!("codeagent://results/{id}");
    let read = modern(8, "resources/read", json!({"uri": uri}));
    let response = modern_post(addr, &read).header("authorization", bearer(&mallory)).send().await;
    let (_, theirs) = response.exchange().await;
    assert!(theirs.get("error").is_some(), "another caller reads nothing: {theirs}");
    let response = modern_post(addr, &read).header("authorization", bearer(&ada)).send().await;
    let (_, own) = response.exchange().await;
    assert!(own["result"]["contents"][0]["text"].as_str().is_some_and(|text| text.contains("xxxx")), "{own}");
}
