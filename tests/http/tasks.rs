//! Tasks across instances: two servers sharing one store (as behind a load
//! balancer) answer for each other's tasks, and a task whose instance dies
//! ends `failed` within seconds instead of staying `working` until its TTL.
//! The same with real Redis and nginx: `tests/cluster/test_cluster.py`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use codeagent::server::http::HttpOptions;
use codeagent::server::store::{MemoryStore, Store};
use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY};
use codeagent::{Context, Server, ToolError, Toolbox};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::common::bounded;
use crate::common::http::{modern_post, request, start};

/// What `long_job` asks for.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Note {
    /// A note for the result.
    note: String,
}

/// Waits `seconds`, or until cancelled; asks first when `ask` is true.
#[codeagent::tool(task)]
async fn long_job(
    ctx: &Context,
    /// How many seconds to wait.
    seconds: u64,
    /// Whether to ask the person for a note first.
    ask: bool,
) -> Result<String, ToolError> {
    let mut note = String::new();
    if ask {
        note = ctx.elicit::<Note>("A note?").await?.accepted().map_or_else(String::new, |answer| answer.note);
    }
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs(seconds)) => Ok(format!("slept {seconds} s {note}")),
        () = ctx.cancelled() => Err(ToolError::new("cancelled")),
    }
}

fn server() -> Server {
    Server::new(Toolbox::new().tool(long_job)).with_name("tasks-instances").with_version("1.0.0")
}

/// A 2026-07-28 request of a client declaring the tasks extension.
fn declaring(id: impl Into<Value>, method: &str, mut params: Value) -> Value {
    params["_meta"] = json!({
        PROTOCOL_VERSION_KEY: "2026-07-28",
        CLIENT_CAPABILITIES_KEY: {"elicitation": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}},
        CLIENT_INFO_KEY: {"name": "tasks-instances-test", "version": "1.0.0"},
    });
    request(id, method, params)
}

/// Sends `message` to the instance at `addr`; its result (JSON or SSE).
async fn result(addr: std::net::SocketAddr, message: &Value) -> Value {
    let response = modern_post(addr, message).send().await;
    let status = response.status;
    let (_, body) = response.exchange().await;
    assert!(body.get("error").is_none(), "{status}: {} answered an error: {body}", message["method"]);
    body["result"].clone()
}

async fn status_of(addr: std::net::SocketAddr, id: &str) -> Value {
    result(addr, &declaring("get", "tasks/get", json!({"taskId": id}))).await
}

async fn until(addr: std::net::SocketAddr, id: &str, within: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let task = status_of(addr, id).await;
        if done(&task) {
            return task;
        }
        assert!(start.elapsed() < within, "task {id} did not get there within {within:?}: {task}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_made_on_one_instance_is_polled_answered_and_cancelled_through_another() {
    bounded(async {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let first = start(server(), HttpOptions::new().with_store(Arc::clone(&store))).await;
        let second = start(server(), HttpOptions::new().with_store(store)).await;
        // Asked through the second instance, answered there, finished on the first.
        let created = result(first.addr, &declaring(1, "tools/call", json!({"name": "long_job", "arguments": {"seconds": 0, "ask": true}}))).await;
        assert_eq!(created["resultType"], "task", "{created}");
        let id = created["taskId"].as_str().expect("a task id").to_owned();
        let asking = until(second.addr, &id, Duration::from_secs(10), |task| task["status"] == "input_required").await;
        let key = asking["inputRequests"].as_object().expect("questions").keys().next().expect("a key").clone();
        let answer = json!({"taskId": id, "inputResponses": {key: {"action": "accept", "content": {"note": "from the other side"}}}});
        assert_eq!(result(second.addr, &declaring(2, "tasks/update", answer)).await["resultType"], "complete");
        let done = until(second.addr, &id, Duration::from_secs(10), |task| task["status"] == "completed").await;
        assert_eq!(done["result"]["content"][0]["text"], "slept 0 s from the other side", "{done}");
        // Cancelled through the second instance, while the first runs it.
        let created = result(first.addr, &declaring(3, "tools/call", json!({"name": "long_job", "arguments": {"seconds": 600, "ask": false}}))).await;
        let id = created["taskId"].as_str().expect("a task id").to_owned();
        assert_eq!(status_of(second.addr, &id).await["status"], "working", "the other instance sees it at once");
        assert_eq!(result(second.addr, &declaring(4, "tasks/cancel", json!({"taskId": id}))).await["resultType"], "complete");
        let cancelled = until(first.addr, &id, Duration::from_secs(10), |task| task["status"] != "working").await;
        assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    })
    .await;
}

/// An instance in a runtime of its own, to be killed with its runtime.
struct Doomed {
    addr: std::net::SocketAddr,
    runtime: tokio::runtime::Runtime,
}

fn doomed(store: Arc<dyn Store>) -> Doomed {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().expect("a runtime");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("binding 127.0.0.1:0");
    listener.set_nonblocking(true).expect("a non-blocking socket");
    let addr = listener.local_addr().expect("an address");
    runtime.spawn(async move {
        let listener = TcpListener::from_std(listener).expect("a tokio listener");
        let _ = server().with_task_lease(LEASE).serve_http_on(listener, HttpOptions::new().with_store(store)).await;
    });
    Doomed { addr, runtime }
}

/// The lease of the instances below: a tenth of the default, so that the
/// test waits a fraction of a second, not the default's seconds, for a lease
/// to lapse (the logic does not depend on its length).
const LEASE: Duration = Duration::from_millis(500);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_task_of_an_instance_that_died_fails_within_a_lease() {
    bounded(async {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let doomed = doomed(Arc::clone(&store));
        let survivor = start(server().with_task_lease(LEASE), HttpOptions::new().with_store(store)).await;
        let created = result(
            doomed.addr,
            &declaring(1, "tools/call", json!({"name": "long_job", "arguments": {"seconds": 3600, "ask": false}})),
        )
        .await;
        let id = created["taskId"].as_str().expect("a task id").to_owned();
        assert_eq!(status_of(survivor.addr, &id).await["status"], "working");
        // Still working three leases later, while its instance renews the lease.
        tokio::time::sleep(LEASE * 3).await;
        assert_eq!(status_of(survivor.addr, &id).await["status"], "working", "a live instance's task stays working");
        let killed = Instant::now();
        tokio::task::spawn_blocking(move || doomed.runtime.shutdown_background()).await.expect("the instance is gone");
        let failed = until(survivor.addr, &id, Duration::from_secs(15), |task| task["status"] != "working").await;
        let took = killed.elapsed();
        eprintln!("the dead instance's task failed {took:?} after the kill");
        assert_eq!(failed["status"], "failed", "{failed}");
        assert_eq!(failed["error"]["code"], -32603, "{failed}");
        let message = failed["error"]["message"].as_str().expect("a message");
        assert!(message.contains("stopped before it ended"), "says why: {message}");
        assert!(took < LEASE * 6, "failed within the lease and a renewal, not the TTL: {took:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_past_its_ttl_is_gone() {
    bounded(async {
        let endpoint = start(server().with_task_ttl(Duration::from_millis(400)), HttpOptions::new()).await;
        let created = result(
            endpoint.addr,
            &declaring(1, "tools/call", json!({"name": "long_job", "arguments": {"seconds": 0, "ask": false}})),
        )
        .await;
        assert_eq!(created["ttlMs"], 400, "{created}");
        let id = created["taskId"].as_str().expect("a task id").to_owned();
        let done = until(endpoint.addr, &id, Duration::from_secs(5), |task| task["status"] == "completed").await;
        assert_eq!(done["ttlMs"], 400);
        tokio::time::sleep(Duration::from_millis(500)).await;
        let response = modern_post(endpoint.addr, &declaring(2, "tasks/get", json!({"taskId": id}))).send().await;
        let (_, body) = response.exchange().await;
        assert_eq!(body["error"]["code"], -32602, "an expired task is unknown: {body}");
        assert!(body["error"]["message"].as_str().unwrap_or_default().contains("expired"), "{body}");
    })
    .await;
}
