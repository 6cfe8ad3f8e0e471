//! The client against codeagent's own server, in every protocol version,
//! in process (a duplex stream) and over Streamable HTTP.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use codeagent::client::{
    Client, ClientError, ElicitAnswer, Handlers, Listen, Protocol, Root, SamplingRequest, ServerEvent,
};
use codeagent::server::http::HttpOptions;
use codeagent::{ProtocolVersion, Server, Toolbox};
use serde_json::json;
use tokio::net::TcpListener;

use crate::common::tools::{all_tools, observed_until, saw_cancellation};

pub(crate) fn server() -> Server {
    Server::new(all_tools().tool(crate::common::tools::late)).with_name("own").with_version("1.0.0")
}

/// A client of `server` in process, in `protocol`.
pub(crate) async fn in_process(server: Server, protocol: Protocol, handlers: Handlers) -> Client {
    let (client_side, server_side) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server_side);
    tokio::spawn(async move { server.serve(server_read, server_write).await });
    let (read, write) = tokio::io::split(client_side);
    Client::builder().protocol(protocol).handlers(handlers).stream(read, write).await.expect("connecting in process")
}

/// A client of `server` over HTTP on a loopback port, in `protocol`.
pub(crate) async fn over_http(server: Server, protocol: Protocol, handlers: Handlers) -> Client {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move { server.serve_http_on(listener, HttpOptions::new()).await });
    let url = format!("http://{address}/mcp");
    Client::builder().protocol(protocol).handlers(handlers).http(&url).await.expect("connecting over HTTP")
}

async fn both(protocol: Protocol, handlers: Handlers) -> [Client; 2] {
    [in_process(server(), protocol, handlers.clone()).await, over_http(server(), protocol, handlers).await]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn negotiation_prefers_2026_and_any_version_can_be_forced() {
    for client in both(Protocol::Negotiate, Handlers::new()).await {
        assert_eq!(client.protocol_version(), ProtocolVersion::V2026_07_28);
        assert_eq!(client.server_name(), "own");
    }
    for &version in ProtocolVersion::ALL {
        for client in both(Protocol::Only(version), Handlers::new()).await {
            assert_eq!(client.protocol_version(), version);
            let tools = client.list_tools().await.unwrap();
            assert!(tools.iter().any(|tool| tool.name == "add"), "{version}");
            let output = client.call("add", json!({"a": 2, "b": 3})).await.unwrap();
            assert_eq!(output.result().value(), "5", "{version}");
            assert!(!output.is_error());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_name_what_went_wrong() {
    for client in both(Protocol::Negotiate, Handlers::new()).await {
        let unknown = client.call("nope", json!({})).await.unwrap_err();
        assert_eq!(unknown.rpc_code(), Some(-32602), "{unknown}");
        assert!(unknown.to_string().contains("nope"), "{unknown}");
        let bad = client.call("add", json!([1])).await.unwrap_err();
        assert!(matches!(bad, ClientError::Invalid(_)), "{bad}");
        let invalid = client.call("add", json!({"a": "x", "b": 1})).await.unwrap();
        assert!(invalid.is_error(), "{:?}", invalid.raw());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_arrives_and_dropping_a_call_cancels_it() {
    for protocol in [Protocol::Negotiate, Protocol::Only(ProtocolVersion::V2025_11_25)] {
        for client in both(protocol, Handlers::new()).await {
            let seen = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&seen);
            let output = client
                .call("steps", json!({"count": 3}))
                .on_progress(move |progress| sink.lock().unwrap().push(progress.progress))
                .await
                .unwrap();
            assert_eq!(output.result().value(), "3 steps");
            assert_eq!(*seen.lock().unwrap(), [1.0, 2.0, 3.0]);

            let key =
                format!("client-cancel-{:?}-{}", protocol, client.server_name().len() + seen.lock().unwrap().len());
            let key = format!("{key}-{}", rand_suffix());
            let call = client.call("wait", json!({"key": key, "ms": 60_000}));
            let outcome = tokio::time::timeout(Duration::from_millis(300), call).await;
            assert!(outcome.is_err(), "the call should still be running");
            let seen = observed_until(&key, Duration::from_secs(10), saw_cancellation).await;
            assert!(saw_cancellation(&seen), "{protocol:?}: {seen:?}");
        }
    }
}

/// The root the asking tests hand out: this repository's own directory.
pub(crate) fn demo_root() -> String {
    format!("file://{}", env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_times_out_with_a_clear_error() {
    for client in both(Protocol::Negotiate, Handlers::new()).await {
        let error = client
            .call("wait", json!({"key": format!("timeout-{}", rand_suffix()), "ms": 60_000}))
            .timeout(Duration::from_millis(200))
            .await
            .unwrap_err();
        assert!(matches!(error, ClientError::Timeout { .. }), "{error}");
        assert!(error.to_string().contains("tools/call"), "{error}");
    }
}

/// A tool asking all three questions (the asking example's).
pub(crate) mod asking {
    use codeagent::ask::{Elicitation, Sampling};
    use codeagent::prelude::*;
    use schemars::JsonSchema;
    use serde::Deserialize;

    #[derive(Deserialize, JsonSchema)]
    pub(super) struct Choice {
        /// Use it?
        pub(super) accept: bool,
    }

    /// Ask roots, a model, and the person.
    #[tool]
    pub(crate) async fn name_project(ctx: &Context) -> Result<String, ToolError> {
        let roots = ctx.roots().await?;
        let root = roots.first().map(|root| root.uri.clone()).unwrap_or_default();
        let sampled = ctx.sample(Sampling::new(20).user("Suggest a name")).await?;
        let name = sampled.text().unwrap_or_default().to_owned();
        Ok(match ctx.elicit::<Choice>(format!("Call {root} `{name}`?")).await? {
            Elicitation::Accepted(Choice { accept: true }) => format!("{root} is `{name}`"),
            _ => "declined".to_owned(),
        })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn questions_are_answered_by_handlers_in_both_eras() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&asked);
    let handlers = Handlers::new()
        .with_roots(vec![Root::new(demo_root())])
        .on_sampling(|_request: SamplingRequest| async { Ok(SamplingRequest::text_answer("mock", "demo-app")) })
        .on_elicitation(move |question| {
            record.lock().unwrap().push(question.message().to_owned());
            async { ElicitAnswer::Accept(serde_json::from_value(json!({"accept": true})).unwrap()) }
        });
    let toolbox = Toolbox::new().tool(asking::name_project);
    for protocol in [Protocol::Negotiate, Protocol::Only(ProtocolVersion::V2025_11_25)] {
        let server = Server::new(toolbox.clone());
        let clients = [
            in_process(server.clone(), protocol, handlers.clone()).await,
            over_http(server, protocol, handlers.clone()).await,
        ];
        for client in clients {
            let output = client.call("name_project", json!({})).await.unwrap();
            assert_eq!(output.text(), format!("{} is `demo-app`", demo_root()), "{protocol:?}: {:?}", output.raw());
        }
    }
    let question = format!("Call {} `demo-app`?", demo_root());
    assert!(asked.lock().unwrap().iter().all(|asked| *asked == question));

    // No handlers: the server is told the client cannot answer.
    let client = in_process(Server::new(toolbox), Protocol::Negotiate, Handlers::new()).await;
    let refused = client.call("name_project", json!({})).await;
    match refused {
        Ok(output) => assert!(output.is_error(), "{:?}", output.raw()),
        Err(error) => assert!(error.to_string().contains("roots"), "{error}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changes_and_resources_are_followed() {
    for protocol in [Protocol::Negotiate, Protocol::Only(ProtocolVersion::V2025_11_25)] {
        let server = server();
        let toolbox = server.toolbox().clone();
        for client in [
            in_process(server.clone(), protocol, Handlers::new()).await,
            over_http(server.clone(), protocol, Handlers::new()).await,
        ] {
            let mut events = client.events();
            let _listening = client.listen(Listen::lists()).await.unwrap();
            let resources = client.list_resources().await.unwrap();
            assert!(!resources.is_empty());
            let uri = resources[0].uri.clone();
            let read = client.read_resource(&uri).await.unwrap();
            assert_eq!(read.contents[0].uri(), uri.as_str());
            toolbox.tools().remove("late");
            let event = tokio::time::timeout(Duration::from_secs(10), async {
                loop {
                    match events.recv().await {
                        Ok(ServerEvent::ToolsChanged) => return true,
                        Ok(_) => {}
                        Err(_) => return false,
                    }
                }
            })
            .await;
            assert_eq!(event, Ok(true), "{protocol:?}");
            toolbox.tools().try_add(crate::common::tools::late).unwrap();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_server_process_is_an_error_naming_its_exit() {
    let mut command = tokio::process::Command::new("sh");
    command.args(["-c", "echo 'no such tool server' >&2; exit 3"]);
    let error = Client::builder().stdio(command).await.unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, ClientError::Closed { .. }), "{text}");
    assert!(text.contains("exit status: 3") && text.contains("no such tool server"), "{text}");

    let mut command = tokio::process::Command::new("sh");
    command.args(["-c", "read line; echo 'not json'; echo '{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}'; sleep 5"]);
    let error = Client::builder().timeout(Duration::from_millis(500)).stdio(command).await.unwrap_err();
    let text = error.to_string();
    assert!(matches!(error, ClientError::Timeout { .. }), "{text}");
    assert!(text.contains("id 99"), "{text}");
}
