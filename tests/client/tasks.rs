//! The client following tasks (`ClientBuilder::tasks`): a tool the server
//! runs as a task is polled to its end, its question answered by the
//! client's handler, in 2026-07-28 and in a legacy session, in process and
//! over HTTP; a task that fails is the task's error; dropping the call
//! cancels the task; a client that did not declare the extension is refused
//! a tool that runs only as a task.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use codeagent::ask::Elicitation;
use codeagent::client::{Client, ClientError, ElicitAnswer, Handlers, Protocol};
use codeagent::server::http::HttpOptions;
use codeagent::tools::State;
use codeagent::{Context, ProtocolVersion, Server, ToolError, Toolbox};
use serde_json::json;
use tokio::net::TcpListener;

/// A yes or no.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Go {
    /// Go on?
    go: bool,
}

/// Asks, then works `steps` steps of 20 ms (only as a task); notes a cancellation.
#[codeagent::tool(task(required))]
async fn job(
    ctx: &Context,
    /// How many 20 ms steps to work.
    steps: u32,
    stopped: State<Arc<AtomicBool>>,
) -> Result<String, ToolError> {
    let go = matches!(ctx.elicit::<Go>("Start the job?").await?, Elicitation::Accepted(Go { go: true }));
    for step in 0..steps {
        ctx.progress(f64::from(step), Some(f64::from(steps)), None);
        tokio::select! {
            () = tokio::time::sleep(Duration::from_millis(20)) => {}
            () = ctx.cancelled() => {
                stopped.store(true, Ordering::SeqCst);
                return Err(ToolError::new("stopped"));
            }
        }
    }
    Ok(format!(
        "{} after {steps} steps in task {}",
        if go { "done" } else { "skipped" },
        ctx.task_id().unwrap_or("none")
    ))
}

/// Panics, as a task.
#[codeagent::tool(task)]
async fn broken() -> String {
    panic!("the job's disk is full")
}

fn server(stopped: &Arc<AtomicBool>) -> Server {
    Server::new(Toolbox::new().with_state(Arc::clone(stopped)).tool(job).tool(broken))
        .with_name("tasks-own")
        .with_task_poll_interval(Duration::from_millis(20))
}

fn handlers() -> Handlers {
    Handlers::new().on_elicitation(|_question| async {
        ElicitAnswer::Accept(serde_json::from_value(json!({"go": true})).expect("an answer"))
    })
}

async fn clients(server: Server, protocol: Protocol, tasks: bool) -> [Client; 2] {
    let builder = || {
        let builder = Client::builder().protocol(protocol).handlers(handlers());
        if tasks { builder.tasks() } else { builder }
    };
    let (client_side, server_side) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_side);
    let in_process = server.clone();
    tokio::spawn(async move { in_process.serve(server_read, server_write).await });
    let (read, write) = tokio::io::split(client_side);
    let local = builder().stream(read, write).await.expect("connecting in process");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let url = format!("http://{}/mcp", listener.local_addr().expect("an address"));
    tokio::spawn(async move { server.serve_http_on(listener, HttpOptions::new()).await });
    let remote = builder().http(&url).await.expect("connecting over HTTP");
    [local, remote]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_is_followed_to_its_result_in_both_eras() {
    let stopped = Arc::new(AtomicBool::new(false));
    for protocol in [Protocol::Negotiate, Protocol::Only(ProtocolVersion::V2025_11_25)] {
        for client in clients(server(&stopped), protocol, true).await {
            let output = client.call("job", json!({"steps": 3})).await.expect("the task's result");
            let text = output.text();
            assert!(text.starts_with("done after 3 steps in task "), "{protocol:?}: {text}");
            assert!(!text.ends_with("none"), "it ran as a task: {text}");
            let failed = client.call("broken", json!({})).await.expect_err("a failed task");
            assert_eq!(failed.rpc_code(), Some(-32603), "{failed}");
            assert!(failed.to_string().contains("the job's disk is full"), "{failed}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropping_the_call_or_its_timeout_cancels_the_task() {
    let stopped = Arc::new(AtomicBool::new(false));
    for client in clients(server(&stopped), Protocol::Negotiate, true).await {
        stopped.store(false, Ordering::SeqCst);
        let timed_out = client.call("job", json!({"steps": 10_000})).timeout(Duration::from_millis(300)).await;
        assert!(matches!(timed_out, Err(ClientError::Timeout { .. })), "{timed_out:?}");
        for _ in 0..200 {
            if stopped.load(Ordering::SeqCst) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert!(stopped.load(Ordering::SeqCst), "the tool saw tasks/cancel");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_extension_a_task_only_tool_is_refused() {
    let stopped = Arc::new(AtomicBool::new(false));
    for client in clients(server(&stopped), Protocol::Negotiate, false).await {
        let refused = client.call("job", json!({"steps": 1})).await.expect_err("refused");
        assert_eq!(refused.rpc_code(), Some(-32021), "{refused}");
        assert!(refused.to_string().contains("io.modelcontextprotocol/tasks"), "{refused}");
        // An optional task tool is an ordinary call for it.
        let ordinary = client.call("broken", json!({})).await.expect("an ordinary call");
        assert!(ordinary.is_error() && ordinary.text().contains("panicked"), "{:?}", ordinary.raw());
    }
}
