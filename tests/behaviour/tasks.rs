//! Tools run as tasks (the tasks extension, `io.modelcontextprotocol/tasks`),
//! over both transports: a declaring client gets a task it polls to its
//! result, answers the task's questions with `tasks/update`, cancels it, and
//! hears of it on `subscriptions/listen`; any other client gets an ordinary
//! result or the extension's `-32021`. Every message is checked against the
//! extension's official schema. (Several instances: `tests/http/tasks.rs`.)

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use codeagent::ask::Elicitation;
use codeagent::tools::State;
use codeagent::{Context, Server, ToolError, Toolbox};
use serde_json::{Value, json};

use super::{call, modern_with, text};
use crate::common::client::{Client, Transport};
use crate::common::{INVALID_PARAMS, V2025_11};

over_both!(
    a_declaring_client_gets_a_task_it_polls_to_the_result,
    other_clients_get_an_ordinary_result_or_the_extensions_refusal,
    a_task_question_is_answered_with_tasks_update,
    a_cancelled_task_ends_cancelled_and_its_tool_sees_it,
    progress_becomes_the_status_message_and_a_panic_fails_the_task,
    a_task_is_found_only_by_its_caller,
    listening_to_a_task_hears_each_status_until_it_ends,
    a_legacy_session_that_declared_the_extension_gets_tasks,
    a_detaching_tool_asks_with_the_request_then_goes_on_as_a_task,
);

const EXTENSION: &str = "io.modelcontextprotocol/tasks";
const MISSING_CAPABILITY: i64 = -32021;

/// Counts `seconds` down, reporting each step; stops when cancelled.
#[codeagent::tool(task)]
async fn countdown(
    ctx: &Context,
    /// How many seconds to count down from.
    seconds: u64,
    stopped: State<Arc<AtomicBool>>,
) -> Result<String, ToolError> {
    for left in (1..=seconds).rev() {
        ctx.progress((seconds - left) as f64, Some(seconds as f64), Some(&format!("{left} seconds left")));
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(100)) => {}
            () = ctx.cancelled() => {
                stopped.store(true, Ordering::SeqCst);
                return Err(ToolError::new("stopped"));
            }
        }
    }
    Ok(format!("done after {seconds} steps, in task {}", ctx.task_id().unwrap_or("none")))
}

/// A yes or no.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Go {
    /// Whether to go ahead.
    go: bool,
}

/// Asks before it does anything (only as a task).
#[codeagent::tool(task(required))]
async fn ask_first(ctx: &Context) -> Result<String, ToolError> {
    Ok(match ctx.elicit::<Go>("Go ahead?").await? {
        Elicitation::Accepted(Go { go: true }) => "went ahead".to_owned(),
        _ => "stayed".to_owned(),
    })
}

/// Panics as a task.
#[codeagent::tool(task)]
async fn crash() -> String {
    panic!("out of cheese")
}

/// A name.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Name {
    /// The name.
    name: String,
}

/// Asks for a name with the request, then greets from a task.
#[codeagent::tool(task(detach))]
async fn greet_later(ctx: &Context) -> Result<String, ToolError> {
    let name = ctx.question("name").elicit::<Name>("Who?").await?.accepted().map_or("nobody".to_owned(), |n| n.name);
    ctx.detach().await;
    Ok(format!("Hello, {name}, from {}", if ctx.task_id().is_some() { "a task" } else { "the request" }))
}

fn tasks_server() -> (Server, Arc<AtomicBool>) {
    let stopped = Arc::new(AtomicBool::new(false));
    let toolbox =
        Toolbox::new().with_state(Arc::clone(&stopped)).tool(countdown).tool(ask_first).tool(crash).tool(greet_later);
    let server = Server::new(toolbox)
        .with_name("tasks-test")
        .with_version("1.0.0")
        .with_task_poll_interval(Duration::from_millis(50))
        // Callers named by the test's `_meta` (an authorisation layer's job elsewhere).
        .around(|mut request, next| async move {
            let caller =
                request.meta().and_then(|meta| meta.get("test/caller")).and_then(Value::as_str).map(str::to_owned);
            if let Some(caller) = caller {
                request.set_caller(codeagent::toolbox::Caller::new(caller));
            }
            next.run(request).await
        });
    (server, stopped)
}

fn declaring() -> Value {
    json!({"elicitation": {}, "extensions": {EXTENSION: {}}})
}

/// A 2026-07-28 request of a client declaring the extension.
fn with_tasks(params: Value) -> Value {
    modern_with(params, declaring())
}

/// Polls task `id` until `done` holds of it; every state seen.
async fn poll_until(client: &mut Client, id: &str, done: impl Fn(&Value) -> bool) -> Vec<Value> {
    let mut seen = Vec::new();
    for attempt in 0..200 {
        let task = client.result(format!("get-{id}-{attempt}"), "tasks/get", with_tasks(json!({"taskId": id}))).await;
        let finished = done(&task);
        seen.push(task);
        if finished {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("task {id} never got there: {:?}", seen.last());
}

fn ended(task: &Value) -> bool {
    matches!(task["status"].as_str(), Some("completed" | "failed" | "cancelled"))
}

async fn create(client: &mut Client, id: &str, params: Value) -> String {
    let created = client.result(id, "tools/call", params).await;
    assert_eq!(created["resultType"], "task", "{}: {created}", client.transport);
    for absent in ["result", "error", "inputRequests", "requestState", "content"] {
        assert!(created.get(absent).is_none(), "a CreateTaskResult without `{absent}`: {created}");
    }
    created["taskId"].as_str().expect("a task id").to_owned()
}

async fn a_declaring_client_gets_a_task_it_polls_to_the_result(transport: Transport) {
    let (server, _) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let discovered = client.result(0, "server/discover", modern_with(json!({}), json!({}))).await;
    assert_eq!(discovered["capabilities"]["extensions"][EXTENSION], json!({}), "{transport}: {discovered}");
    let id = create(&mut client, "c1", with_tasks(call("countdown", json!({"seconds": 3})))).await;
    assert!(id.len() >= 32, "an unguessable id: {id}");
    // The task exists as soon as the client hears of it.
    let states = poll_until(&mut client, &id, ended).await;
    let last = states.last().expect("a state");
    assert_eq!(last["status"], "completed", "{transport}: {last}");
    assert_eq!(last["resultType"], "complete");
    assert_eq!(text(&last["result"]), format!("done after 3 steps, in task {id}"), "{transport}");
    assert!(states.iter().any(|task| task["status"] == "working"), "{transport}: seen working first: {states:?}");
    assert_eq!(last["pollIntervalMs"], 50);
    assert!(last["ttlMs"].as_u64().is_some_and(|ttl| ttl > 0));
    // Cancelling an ended task is acknowledged and changes nothing.
    let ack = client.result("x", "tasks/cancel", with_tasks(json!({"taskId": id}))).await;
    assert_eq!(ack["resultType"], "complete");
    let again = client.result("g", "tasks/get", with_tasks(json!({"taskId": id}))).await;
    assert_eq!(again["status"], "completed", "{transport}: {again}");
}

async fn other_clients_get_an_ordinary_result_or_the_extensions_refusal(transport: Transport) {
    let (server, _) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let plain = client.result(1, "tools/call", modern_with(call("countdown", json!({"seconds": 1})), json!({}))).await;
    assert_eq!(plain["resultType"], "complete", "{transport}: {plain}");
    assert!(text(&plain).starts_with("done after 1 steps, in task none"), "{transport}: {plain}");
    let refused = client.error(2, "tools/call", modern_with(call("ask_first", json!({})), json!({}))).await;
    assert_eq!(refused["code"], MISSING_CAPABILITY, "{transport}: {refused}");
    assert_eq!(refused["data"]["requiredCapabilities"]["extensions"][EXTENSION], json!({}), "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("`ask_first`"), "names the tool: {refused}");
    for (id, method) in [(3, "tasks/get"), (4, "tasks/cancel")] {
        let error = client.error(id, method, modern_with(json!({"taskId": "anything"}), json!({}))).await;
        assert_eq!(error["code"], MISSING_CAPABILITY, "{transport} {method}: {error}");
    }
    let unknown = client.error(5, "tasks/get", with_tasks(json!({"taskId": "0123456789abcdef0123456789abcdef"}))).await;
    assert_eq!(unknown["code"], INVALID_PARAMS, "{transport}: {unknown}");
    assert!(
        unknown["message"].as_str().unwrap().contains("0123456789abcdef0123456789abcdef"),
        "names the id: {unknown}"
    );
    let malformed = client.error(7, "tasks/get", with_tasks(json!({"taskId": "<script>"}))).await;
    assert_eq!(malformed["code"], INVALID_PARAMS, "{transport}: {malformed}");
    assert!(!malformed["message"].as_str().unwrap().contains("<script>"), "not echoed: {malformed}");
    let ids: Vec<String> = (0..101).map(|i| format!("{i:032x}")).collect();
    let many = client.error(8, "subscriptions/listen", with_tasks(json!({"notifications": {"taskIds": ids}}))).await;
    assert_eq!(many["code"], INVALID_PARAMS, "{transport}: at most 100 tasks a stream: {many}");
    let removed = client.error(6, "tasks/result", with_tasks(json!({"taskId": "x"}))).await;
    assert_eq!(removed["code"], -32601, "tasks/result is not a method of the extension: {removed}");
}

async fn a_task_question_is_answered_with_tasks_update(transport: Transport) {
    let (server, _) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let id = create(&mut client, "c", with_tasks(call("ask_first", json!({})))).await;
    let states = poll_until(&mut client, &id, |task| task["status"] == "input_required").await;
    let asking = states.last().expect("a state");
    let requests = asking["inputRequests"].as_object().expect("inputRequests");
    assert_eq!(requests.len(), 1, "{asking}");
    let (key, request) = requests.iter().next().expect("a question");
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["message"], "Go ahead?");
    // An answer of the wrong shape is refused, naming the question; unknown keys are ignored.
    let wrong = client
        .error("w", "tasks/update", with_tasks(json!({"taskId": id, "inputResponses": {key: {"go": true}}})))
        .await;
    assert_eq!(wrong["code"], INVALID_PARAMS, "{transport}: {wrong}");
    assert!(wrong["message"].as_str().unwrap().contains(key.as_str()), "{wrong}");
    let ignored = json!({"taskId": id, "inputResponses": {"never-asked": {"action": "accept", "content": {}}}});
    assert_eq!(client.result("i", "tasks/update", with_tasks(ignored)).await["resultType"], "complete");
    let still = client.result("s", "tasks/get", with_tasks(json!({"taskId": id}))).await;
    assert_eq!(still["status"], "input_required", "{transport}: {still}");
    let answer = json!({"taskId": id, "inputResponses": {key: {"action": "accept", "content": {"go": true}}}});
    let ack = client.result("u", "tasks/update", with_tasks(answer)).await;
    assert_eq!(ack, json!({"resultType": "complete", "_meta": ack["_meta"]}), "an empty acknowledgement: {ack}");
    let done = poll_until(&mut client, &id, ended).await;
    let last = done.last().expect("a state");
    assert_eq!(last["status"], "completed", "{transport}: {last}");
    assert_eq!(text(&last["result"]), "went ahead");
}

async fn a_cancelled_task_ends_cancelled_and_its_tool_sees_it(transport: Transport) {
    let (server, stopped) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let id = create(&mut client, "c", with_tasks(call("countdown", json!({"seconds": 600})))).await;
    let ack = client.result("x", "tasks/cancel", with_tasks(json!({"taskId": id}))).await;
    assert_eq!(ack["resultType"], "complete");
    assert!(ack.get("status").is_none(), "an acknowledgement, not a task: {ack}");
    let states = poll_until(&mut client, &id, ended).await;
    assert_eq!(states.last().expect("a state")["status"], "cancelled", "{transport}: {states:?}");
    for _ in 0..100 {
        if stopped.load(Ordering::SeqCst) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{transport}: the tool never saw its cancellation");
}

async fn progress_becomes_the_status_message_and_a_panic_fails_the_task(transport: Transport) {
    let (server, _) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let id = create(&mut client, "c", with_tasks(call("countdown", json!({"seconds": 4})))).await;
    let states = poll_until(&mut client, &id, |task| {
        task["statusMessage"].as_str().is_some_and(|message| message.ends_with("seconds left")) || ended(task)
    })
    .await;
    let last = states.last().expect("a state");
    assert_eq!(last["status"], "working", "{transport}: progress while it runs: {states:?}");
    let crashed = create(&mut client, "p", with_tasks(call("crash", json!({})))).await;
    let states = poll_until(&mut client, &crashed, ended).await;
    let failed = states.last().expect("a state");
    assert_eq!(failed["status"], "failed", "{transport}: {failed}");
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert!(failed["error"]["message"].as_str().unwrap().contains("out of cheese"), "{failed}");
    assert!(failed.get("result").is_none(), "{failed}");
}

async fn a_task_is_found_only_by_its_caller(transport: Transport) {
    let (server, _) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let as_ada = |mut params: Value| {
        params["_meta"] = json!({"test/caller": "ada"});
        with_tasks(params)
    };
    let id = create(&mut client, "c", as_ada(call("countdown", json!({"seconds": 600})))).await;
    let mine = client.result("g", "tasks/get", as_ada(json!({"taskId": id}))).await;
    assert_eq!(mine["status"], "working", "{transport}: {mine}");
    let mut as_bob = with_tasks(json!({"taskId": id}));
    as_bob["_meta"]["test/caller"] = json!("bob");
    for (request, method) in [("b1", "tasks/get"), ("b2", "tasks/cancel")] {
        let error = client.error(request, method, as_bob.clone()).await;
        assert_eq!(error["code"], INVALID_PARAMS, "{transport} {method}: another caller's task is unknown: {error}");
    }
    let anonymous = client.error("n", "tasks/get", with_tasks(json!({"taskId": id}))).await;
    assert_eq!(anonymous["code"], INVALID_PARAMS, "{transport}: {anonymous}");
    client.result("x", "tasks/cancel", as_ada(json!({"taskId": id}))).await;
}

async fn listening_to_a_task_hears_each_status_until_it_ends(transport: Transport) {
    let (server, _) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let refused = client
        .error("l0", "subscriptions/listen", modern_with(json!({"notifications": {"taskIds": ["x"]}}), json!({})))
        .await;
    assert_eq!(refused["code"], MISSING_CAPABILITY, "{transport}: {refused}");
    let id = create(&mut client, "c", with_tasks(call("ask_first", json!({})))).await;
    client
        .send_request(
            "l",
            "subscriptions/listen",
            with_tasks(json!({"notifications": {"taskIds": [id, "not-a-task"]}})),
        )
        .await;
    let acknowledged = client.next_notification().await;
    assert_eq!(acknowledged["method"], "notifications/subscriptions/acknowledged", "{transport}: {acknowledged}");
    assert_eq!(acknowledged["params"]["notifications"]["taskIds"], json!([id]), "only known tasks: {acknowledged}");
    let asking = next_task_status(&mut client, &id, "input_required").await;
    let key =
        asking["params"]["inputRequests"].as_object().expect("inputRequests").keys().next().expect("a key").clone();
    let answer = json!({"taskId": id, "inputResponses": {key: {"action": "accept", "content": {"go": false}}}});
    client.send_request("u", "tasks/update", with_tasks(answer)).await;
    let done = next_task_status(&mut client, &id, "completed").await;
    assert_eq!(text(&done["params"]["result"]), "stayed", "{transport}: {done}");
    assert_eq!(done["params"]["_meta"][codeagent::server::SUBSCRIPTION_ID_KEY], "l", "{done}");
}

/// The next `notifications/tasks` of task `id` with `status` (earlier ones and other messages skipped).
async fn next_task_status(client: &mut Client, id: &str, status: &str) -> Value {
    for _ in 0..50 {
        let message = client.recv().await;
        if message["method"] == "notifications/tasks"
            && message["params"]["taskId"] == id
            && message["params"]["status"] == status
        {
            return message;
        }
    }
    panic!("{}: no notifications/tasks with status {status}", client.transport);
}

async fn a_legacy_session_that_declared_the_extension_gets_tasks(transport: Transport) {
    let (server, _) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let initialized = client.initialize_with(V2025_11, json!({"extensions": {EXTENSION: {}}})).await;
    assert_eq!(initialized["capabilities"]["extensions"][EXTENSION], json!({}), "{transport}: {initialized}");
    let created = client.result(1, "tools/call", call("countdown", json!({"seconds": 1}))).await;
    let id = created["taskId"].as_str().expect("a task").to_owned();
    let mut done = Value::Null;
    for attempt in 0..200 {
        done = client.result(format!("g{attempt}"), "tasks/get", json!({"taskId": id})).await;
        if ended(&done) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(done["status"], "completed", "{transport}: {done}");
    // A legacy session without it: an ordinary call, or the refusal.
    let mut plain = Client::start(transport, tasks_server().0).await;
    plain.initialize(V2025_11).await;
    assert!(text(&plain.result(1, "tools/call", call("countdown", json!({"seconds": 1}))).await).starts_with("done"));
    assert_eq!(plain.error(2, "tools/call", call("ask_first", json!({}))).await["code"], MISSING_CAPABILITY);
}

async fn a_detaching_tool_asks_with_the_request_then_goes_on_as_a_task(transport: Transport) {
    let (server, _) = tasks_server();
    let mut client = Client::start(transport, server).await;
    let round = client.result(1, "tools/call", with_tasks(call("greet_later", json!({})))).await;
    assert_eq!(round["resultType"], "input_required", "{transport}: asked with the request first: {round}");
    assert!(round.get("taskId").is_none(), "{round}");
    let mut retry = with_tasks(call("greet_later", json!({})));
    retry["inputResponses"] = json!({"name": {"action": "accept", "content": {"name": "Grace"}}});
    retry["requestState"] = round["requestState"].clone();
    let id = create(&mut client, "2", retry).await;
    let states = poll_until(&mut client, &id, ended).await;
    assert_eq!(text(&states.last().expect("a state")["result"]), "Hello, Grace, from a task", "{transport}");
    // Without the extension it is an ordinary call that asks and answers.
    let plain =
        client.result(3, "tools/call", modern_with(call("greet_later", json!({})), json!({"elicitation": {}}))).await;
    assert_eq!(plain["resultType"], "input_required", "{transport}: {plain}");
}
