//! Every example, run as the program a user runs: each binary is started as
//! a child process and driven as a client would drive it, over stdio
//! (`common::stdio::Client::spawn`, every message validated against the
//! official schema of its era) or over HTTP (`common::http`), or run to its
//! end with arguments; the assertions are on what a user would notice (the
//! resource's text, the prompt's messages, the tool's answer, the app's own
//! page next to `/mcp`). The conformance fixture is smoke-tested here too; the
//! official suite runs against it in `tests/conformance/run.sh`.
//!
//! The binaries are built first with `cargo build --examples` (a no-op after
//! `cargo test`, which builds them; with `--features agent` when this test is,
//! which adds `agent_loop`; with `--features auth` when this test is, which
//! adds `gateway_for_callers`; the OAuth examples need the issuer of
//! `tests/auth`, so they are ignored unless asked for).

use crate::common;

#[allow(dead_code, reason = "the examples use part of the helpers for outside programs")]
use crate::child;

#[cfg(feature = "agent")]
#[allow(dead_code, unreachable_pub, reason = "the agent tests' scripted provider, of which this uses a part")]
#[path = "../agent/mock.rs"]
mod mock;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::http::{Call, Session, open_session, request};
use common::stdio::{Client, text};
use common::{V2025_06, WAIT, bounded};
use hyper::{Method, StatusCode};
use serde_json::{Value, json};

/// The directory of the examples built next to this test binary
/// (`target/<profile>/examples/`), after building them once (a no-op when
/// they are fresh: with the features this test was built with).
fn built() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test binary's path");
        let profile = exe.parent().and_then(Path::parent).expect("target/<profile>/deps/<test binary>").to_owned();
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut build = Command::new(cargo);
        // Without the variables cargo sets for a test run (this package's name,
        // version and manifest): build scripts that watch them (ring's does)
        // would otherwise see them change, run again, and have every later
        // build of the same target directory rebuild what depends on them.
        for (name, _) in std::env::vars_os() {
            let name = name.to_string_lossy();
            if name.starts_with("CARGO_PKG_")
                || name.starts_with("CARGO_BIN_EXE_")
                || ["CARGO_MANIFEST_DIR", "CARGO_MANIFEST_PATH", "CARGO_MANIFEST_LINKS", "CARGO_CRATE_NAME", "OUT_DIR"]
                    .contains(&name.as_ref())
            {
                build.env_remove(name.as_ref());
            }
        }
        build.args([
            "build",
            "--quiet",
            "--examples",
            "--manifest-path",
            concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"),
        ]);
        // The features this test was built with, so that the build is the one
        // cargo just made for it (fresh) rather than another build of the crate.
        let features: Vec<&str> = [
            ("agent", cfg!(feature = "agent")),
            ("auth", cfg!(feature = "auth")),
            ("redis", cfg!(feature = "redis")),
            ("testing", cfg!(feature = "testing")),
            ("tls", cfg!(feature = "tls")),
            ("rate-limit", cfg!(feature = "rate-limit")),
            ("otel", cfg!(feature = "otel")),
        ]
        .into_iter()
        .filter_map(|(feature, on)| on.then_some(feature))
        .collect();
        if features.is_empty() {
            // As the README's `cargo test --workspace` built them: with the
            // features of every member (cargo-codeagent's `tls` too).
            build.arg("--workspace");
        } else {
            // As `.ci/run`'s later stages build them: `-p codeagent --features ...`.
            build.args(["--features", &features.join(",")]);
        }
        if profile.file_name().is_some_and(|name| name == "release") {
            build.arg("--release");
        }
        let finished = child::run_to_end(build, Duration::from_secs(1800));
        assert!(finished.status.is_some_and(|status| status.success()), "cargo build --examples: {}", finished.stderr);
        profile.join("examples")
    })
}

/// The example `name`'s binary.
fn example(name: &str) -> PathBuf {
    let binary = built().join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(binary.is_file(), "no example binary at {}", binary.display());
    binary
}

/// Runs `test` within the time limit of every test, once the examples are built
/// (which may take minutes the first time, so it is not counted).
async fn after_build(test: impl std::future::Future<Output = ()>) {
    tokio::task::spawn_blocking(built).await.expect("the examples are built");
    bounded(test).await;
}

/// The stdio server `name`, initialized at 2025-06-18 with `capabilities`.
async fn stdio(name: &str, capabilities: Value) -> Client {
    let mut client = Client::spawn(Command::new(example(name)));
    let params = json!({"protocolVersion": "2025-06-18", "capabilities": capabilities,
        "clientInfo": {"name": "examples-test", "version": "1.0.0"}});
    client.result("init", "initialize", params).await;
    client.notify("notifications/initialized", json!({})).await;
    client
}

/// A tools/call of `name`: its result (a tool error is a result too).
async fn call(client: &mut Client, id: i64, name: &str, arguments: Value) -> Value {
    client.result(id, "tools/call", json!({"name": name, "arguments": arguments})).await
}

/// A child process, killed when dropped.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A free loopback address.
fn free_address() -> SocketAddr {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap()
}

/// Starts example `name` with `args` and waits until it listens on `address`.
async fn listening(name: &str, args: &[&str], address: SocketAddr) -> Running {
    let mut command = Command::new(example(name));
    command.args(args).stdin(Stdio::null()).stderr(Stdio::null());
    let mut running = Running(command.spawn().unwrap());
    let started = Instant::now();
    while tokio::net::TcpStream::connect(address).await.is_err() {
        assert!(running.0.try_wait().unwrap().is_none(), "{name} exited before listening on {address}");
        assert!(started.elapsed() < WAIT, "{name} did not listen on {address} within {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    running
}

/// `GET path` on `address`: the status and the body.
async fn get_page(address: SocketAddr, path: &str) -> (StatusCode, String) {
    let response = Call::new(address, Method::GET).at_path(path).send().await;
    let status = response.status;
    (status, String::from_utf8_lossy(&response.bytes().await).into_owned())
}

/// Runs example `name` with `args` to its end: its exit code and standard output.
fn run(name: &str, args: &[&str]) -> (i32, String) {
    let mut command = Command::new(example(name));
    command.args(args);
    let finished = child::run_to_end(command, WAIT);
    let status = finished.status.unwrap_or_else(|| panic!("{name} {args:?} did not finish"));
    (status.code().unwrap_or(-1), finished.stdout)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gallery_answers_a_call_and_a_read() {
    after_build(async {
        let mut client = stdio("gallery", json!({})).await;
        assert_eq!(text(&call(&mut client, 1, "add", json!({"a": 2, "b": 3})).await), "5");
        let read = client.result(2, "resources/read", json!({"uri": "gallery://readme"})).await;
        assert!(read["contents"][0]["text"].as_str().unwrap().starts_with("# codeagent gallery"), "{read}");
        client.finish().await.expect("the gallery exits at EOF");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resources_prompts_reads_notes_and_fills_its_prompt() {
    after_build(async {
        let mut client = stdio("resources_prompts", json!({})).await;
        let listed = client.result(1, "resources/list", json!({})).await;
        assert_eq!(listed["resources"][0]["uri"], "notes://index", "{listed}");
        assert_eq!(listed["resources"][0]["title"], "The notebook");
        let index = client.result(2, "resources/read", json!({"uri": "notes://index"})).await;
        assert!(index["contents"][0]["text"].as_str().unwrap().contains("- [garden](notes://notes/garden)"), "{index}");
        let templates = client.result(3, "resources/templates/list", json!({})).await;
        assert_eq!(templates["resourceTemplates"][0]["uriTemplate"], "notes://notes/{name}");
        let note = client.result(4, "resources/read", json!({"uri": "notes://notes/garden"})).await;
        assert_eq!(
            note["contents"][0],
            json!({"uri": "notes://notes/garden", "mimeType": "text/plain",
            "text": "water the tomatoes on Friday"})
        );
        let missing = client.error(5, "resources/read", json!({"uri": "notes://notes/taxes"})).await;
        assert!(missing["message"].as_str().unwrap().contains("no note called `taxes`"), "{missing}");

        let prompt = client
            .result(
                6,
                "prompts/get",
                json!({"name": "review_note",
            "arguments": {"name": "groceries", "focus": "what is missing for a cake"}}),
            )
            .await;
        let messages: Vec<&str> =
            prompt["messages"].as_array().unwrap().iter().map(|m| m["content"]["text"].as_str().unwrap()).collect();
        assert_eq!(
            messages,
            [
                "Here is my note `groceries`: eggs, flour, two lemons",
                "Review it and point out what is missing for a cake."
            ]
        );
        let completion = client
            .result(
                7,
                "completion/complete",
                json!({"ref": {"type": "ref/prompt", "name": "review_note"},
            "argument": {"name": "name", "value": "g"}}),
            )
            .await;
        assert_eq!(completion["completion"]["values"], json!(["groceries", "garden"]));
        client.finish().await.expect("exits at EOF");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn toolbox_impl_tools_share_one_stock() {
    after_build(async {
        let mut client = stdio("toolbox_impl", json!({})).await;
        let restock = json!({"item": "apples", "units": 5});
        assert_eq!(text(&call(&mut client, 1, "restock", restock.clone()).await), "apples: 5 in stock");
        assert_eq!(text(&call(&mut client, 2, "restock", restock).await), "apples: 10 in stock");
        let refused = call(&mut client, 3, "take", json!({"item": "apples", "units": 11})).await;
        assert_eq!(refused["isError"], true);
        assert!(text(&refused).contains("only 10 apples in stock, cannot take 11"), "{refused}");
        let took = call(&mut client, 4, "take", json!({"item": "apples", "units": 4})).await;
        assert_eq!(text(&took), "took 4 apples, 6 left");
        let list = call(&mut client, 5, "list", json!({})).await;
        assert!(text(&list).contains("| apples | 6 |"), "{list}");
        client.finish().await.expect("exits at EOF");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn axum_app_serves_its_own_routes_and_mcp_on_one_state() {
    after_build(async {
        let address = free_address();
        let _app = listening("axum_app", &[&address.to_string()], address).await;
        assert_eq!(get_page(address, "/").await, (StatusCode::OK, "Hello, visitor number 1!\n".to_owned()));
        assert_eq!(get_page(address, "/").await.1, "Hello, visitor number 2!\n");
        assert_eq!(get_page(address, "/health").await, (StatusCode::OK, "ok\n".to_owned()));

        let session = open_session(address, V2025_06).await;
        let call = |id, name: &str| session.call(id, "tools/call", json!({"name": name}), "CallToolResult");
        assert_eq!(call(1, "visits").await["result"]["content"][0]["text"], "The home page was visited 2 times.");
        assert_eq!(call(2, "reset_visits").await["result"]["content"][0]["text"], "2");
        assert_eq!(get_page(address, "/").await.1, "Hello, visitor number 1!\n", "the tool reset the app's counter");
    })
    .await;
}

/// What `session_version` answers in `session`.
async fn session_version(session: &Session) -> Value {
    session.call(1, "tools/call", json!({"name": "session_version"}), "CallToolResult").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_store_keeps_a_session_across_a_restart() {
    after_build(async {
        let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("codeagent-custom-store-{}-{stamp}", std::process::id()));
        let dir_arg = dir.to_str().unwrap().to_owned();
        let first = free_address();
        let server = listening("custom_store", &[&first.to_string(), &dir_arg], first).await;
        let session = open_session(first, V2025_06).await;
        let answer = session_version(&session).await;
        assert_eq!(answer["result"]["content"][0]["text"], "This session speaks 2025-06-18.");
        let files: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|entry| entry.unwrap().file_name().into_string().unwrap()).collect();
        assert!(files.contains(&format!("session_{}", session.id)), "the session is a file: {files:?}");
        drop(server);

        // Another process, on another port, with the same directory: the same session.
        let second = free_address();
        let _server = listening("custom_store", &[&second.to_string(), &dir_arg], second).await;
        let resumed = Session { addr: second, id: session.id.clone(), version: V2025_06 };
        let answer = session_version(&resumed).await;
        assert_eq!(answer["result"]["content"][0]["text"], "This session speaks 2025-06-18.");
        let unknown = Session { addr: second, id: "no-such-session".into(), version: V2025_06 };
        let response = unknown.post().json(&request(2, "tools/list", json!({}))).send().await;
        assert_eq!(response.status, StatusCode::NOT_FOUND, "an unknown session is still refused");
        let _ = std::fs::remove_dir_all(&dir);
    })
    .await;
}

#[cfg(feature = "provider")]
#[test]
fn provider_tools_writes_each_format_and_runs_a_mapped_call() {
    let body = |provider: &str| {
        let (code, stdout) = run("provider_tools", &[provider]);
        assert_eq!(code, 0, "{provider}: {stdout}");
        serde_json::from_str::<Value>(&stdout).unwrap()
    };
    let openai = body("openai");
    let function = &openai["tools"][0]["function"];
    assert_eq!((&function["name"], &function["strict"]), (&json!("inventory_count"), &json!(true)), "{openai}");
    assert_eq!(function["parameters"]["additionalProperties"], false);
    assert_eq!(openai["messages"][0]["content"], "How many pears are left?");
    let anthropic = body("anthropic");
    assert_eq!(anthropic["tools"][1]["name"], "inventory_order", "{anthropic}");
    assert_eq!(anthropic["tools"][1]["input_schema"]["required"], json!(["item", "units"]));
    let gemini = body("gemini");
    assert_eq!(gemini["tools"][0]["functionDeclarations"][0]["name"], "inventory.count", "Gemini takes `.`: {gemini}");
    assert_eq!(body("openai-responses")["tools"][0]["name"], "inventory_count");

    let (code, stdout) = run("provider_tools", &["openai", "inventory_count", r#"{"item": "pears"}"#]);
    assert_eq!((code, stdout.as_str()), (0, "inventory.count: 12 pears in stock\n"));
    let (code, stdout) = run("provider_tools", &["anthropic", "inventory_order", r#"{"item": "plums", "units": 0}"#]);
    assert_eq!(code, 1, "the bound on `units` is checked: {stdout}");
    assert!(stdout.contains("units"), "{stdout}");
    assert_eq!(run("provider_tools", &["openai", "inventory.count", "{}"]).0, 2, "not the name OpenAI was offered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn budgets_send_a_preview_and_a_link_to_the_whole() {
    after_build(async {
        let mut client = stdio("budgets", json!({})).await;
        let cut = call(&mut client, 1, "build_log", json!({"lines": 500})).await;
        let preview = text(&cut);
        assert!(preview.len() < 3 * 1024 && preview.starts_with("[00001] compiling crate-1\n"), "{preview}");
        assert!(!preview.contains("finished: 500 crates built"), "{preview}");
        let link = &cut["content"][1];
        assert_eq!(link["type"], "resource_link", "{cut}");
        let uri = link["uri"].as_str().unwrap();
        assert!(uri.starts_with("codeagent://results/") && preview.contains(uri), "{cut}");

        let read = client.result(2, "resources/read", json!({"uri": uri})).await;
        let whole: Value = serde_json::from_str(read["contents"][0]["text"].as_str().unwrap()).unwrap();
        let text_of_whole = whole["content"][0]["text"].as_str().unwrap();
        assert!(text_of_whole.ends_with("[00500] compiling crate-500\nfinished: 500 crates built\n"), "{whole}");

        let summary = call(&mut client, 3, "build_summary", json!({"crates": 20_000})).await;
        assert!(text(&summary).len() > 2 * 1024 && summary["content"].as_array().unwrap().len() == 1, "its own budget");
        let raw = call(&mut client, 4, "raw_log", json!({"lines": 2000})).await;
        assert!(text(&raw).ends_with("finished: 2000 crates built\n"), "never cut");
        client.finish().await.expect("exits at EOF");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ui_view_is_named_by_the_tool_and_served() {
    after_build(async {
        let apps = json!({"extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}});
        let mut client = stdio("ui_view", apps).await;
        let tools = client.result(1, "tools/list", json!({})).await;
        assert_eq!(tools["tools"][0]["_meta"]["ui"]["resourceUri"], "ui://sales/bars", "{tools}");
        let view = client.result(2, "resources/read", json!({"uri": "ui://sales/bars"})).await;
        assert_eq!(view["contents"][0]["mimeType"], "text/html;profile=mcp-app");
        let html = view["contents"][0]["text"].as_str().unwrap();
        assert!(html.starts_with("<!DOCTYPE html>") && html.contains("\"ui/notifications/tool-result\""), "{html}");
        let result = call(&mut client, 3, "revenue_chart", json!({"min_revenue": 3000})).await;
        assert_eq!(
            result["structuredContent"],
            json!({"bars": [{"region": "north", "revenue": 5600.0}, {"region": "west", "revenue": 5550.0}]})
        );
        client.finish().await.expect("exits at EOF");
    })
    .await;
}

/// The next message, a request of `method` to the client; answers it with `result`.
async fn answer(client: &mut Client, method: &str, result: Value) -> Value {
    let question = client.recv().await;
    assert_eq!(question["method"], method, "{question}");
    client.send(json!({"jsonrpc": "2.0", "id": question["id"], "result": result})).await;
    question
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn asking_asks_for_the_roots_the_model_and_the_person() {
    after_build(async {
        let everything = json!({"roots": {}, "sampling": {}, "elicitation": {}});
        let mut client = stdio("asking", everything).await;
        client
            .request(1, "tools/call", json!({"name": "name_project", "arguments": {"purpose": "tracks sales"}}))
            .await;
        // The root the client offers: this repository, as a `file://` URI.
        let root = format!("file://{}", env!("CARGO_MANIFEST_DIR"));
        answer(&mut client, "roots/list", json!({"roots": [{"uri": root, "name": "shop"}]})).await;
        let reply = json!({"role": "assistant", "content": {"type": "text", "text": "sales-tracker"}, "model": "m-1"});
        let sampling = answer(&mut client, "sampling/createMessage", reply).await;
        let prompt = sampling["params"]["messages"][0]["content"]["text"].as_str().unwrap();
        assert!(prompt.ends_with("that does this: tracks sales"), "{sampling}");
        let choice = json!({"action": "accept", "content": {"accept": false, "other": "till"}});
        let elicitation = answer(&mut client, "elicitation/create", choice).await;
        assert_eq!(elicitation["params"]["message"], "Name the project in shop `sales-tracker` (suggested by m-1)?");
        let done = client.response(1).await;
        assert_eq!(text(&done["result"]), format!("{root} is now `till`."));

        // A client that cannot sample is told so, in an error result.
        let mut client = stdio("asking", json!({"roots": {}})).await;
        client.request(1, "tools/call", json!({"name": "name_project", "arguments": {"purpose": "x"}})).await;
        answer(
            &mut client,
            "roots/list",
            json!({"roots": [{"uri": format!("file://{}", env!("CARGO_MANIFEST_DIR"))}]}),
        )
        .await;
        let refused = client.response(1).await;
        assert_eq!(refused["result"]["isError"], true);
        assert!(text(&refused["result"]).contains("sampling"), "{refused}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conformance_fixture_serves_the_suites_tools() {
    after_build(async {
        let mut client = stdio("conformance_fixture", json!({})).await;
        let simple = call(&mut client, 1, "test_simple_text", json!({})).await;
        assert_eq!(text(&simple), "This is a simple text response for testing.");
        client.finish().await.expect("exits at EOF");
    })
    .await;
}

/// A streamed Chat Completions answer: `content`, then `calls` (name, arguments), then the usage.
#[cfg(feature = "agent")]
fn chat_stream(content: &str, calls: &[(&str, &str)], usage: (u64, u64)) -> mock::Answer {
    let chunk = |delta: Value, finish: Value| {
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-x",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let mut chunks = vec![chunk(json!({"role": "assistant", "content": content}), Value::Null)];
    for (index, (name, arguments)) in calls.iter().enumerate() {
        let call = json!({"index": index, "id": format!("c{index}"), "type": "function",
            "function": {"name": name, "arguments": arguments}});
        chunks.push(chunk(json!({"tool_calls": [call]}), Value::Null));
    }
    chunks.push(chunk(json!({}), json!(if calls.is_empty() { "stop" } else { "tool_calls" })));
    let (input, output) = usage;
    chunks.push(
        json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0, "model": "gpt-x", "choices": [],
        "usage": {"prompt_tokens": input, "completion_tokens": output, "total_tokens": input + output}}),
    );
    let mut events: Vec<(String, String)> = chunks.iter().map(|chunk| (String::new(), chunk.to_string())).collect();
    events.push((String::new(), "[DONE]".to_owned()));
    mock::Answer::Sse(events)
}

#[cfg(feature = "agent")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agent_loop_renders_each_event_of_a_run() {
    let calls = [("sales", "{}"), ("sales_chart", "{}"), ("divide", r#"{"numerator":1,"denominator":0}"#)];
    let script =
        vec![chat_stream("Let me use the tools.", &calls, (10, 5)), chat_stream("North sold most.", &[], (20, 7))];
    let provider = mock::Mock::start(script).await;
    let mut command = Command::new(example("agent_loop"));
    command.args(["openai:gpt-x", "Show the sales"]).env("OPENAI_BASE_URL", format!("{}/v1", provider.url));
    command.env("OPENAI_API_KEY", "k");
    let finished = tokio::task::spawn_blocking(move || child::run_to_end(command, WAIT)).await.unwrap();
    assert!(finished.status.is_some_and(|status| status.success()), "{}", finished.stderr);
    for expected in [
        "Let me use the tools.",
        "→ sales {}",
        "✓ sales: a table of 3 rows",
        "✓ sales_chart: image image/png (",
        "✗ divide: error: cannot divide by zero",
        "North sold most.",
        "[2 requests, 30 tokens in, 12 out]",
    ] {
        assert!(finished.stdout.contains(expected), "{expected:?} missing from:\n{}", finished.stdout);
    }
    assert_eq!(
        provider.bodies()[0]["messages"][0],
        json!({"role": "system", "content": "Use the tools to answer; be brief."})
    );
}

/// A client (`codeagent::client`) of the gallery at `address`.
async fn gallery_client(address: SocketAddr) -> codeagent::client::Client {
    codeagent::client::Client::builder()
        .http(&format!("http://{address}/mcp"))
        .await
        .expect("connecting to the gallery")
}

#[test]
fn gallery_mounts_another_server_for_list_and_call() {
    let inner = example("gallery");
    let mount = format!("inner={}", inner.display());
    let (code, listing) = run("gallery", &["--mount", &mount, "--list"]);
    assert_eq!(code, 0, "{listing}");
    let listing: Value = serde_json::from_str(&listing).unwrap();
    let names: Vec<&str> =
        listing["tools"].as_array().unwrap().iter().filter_map(|tool| tool["name"].as_str()).collect();
    assert!(
        names.contains(&"add") && names.contains(&"inner_add") && names.contains(&"inner_sales_table"),
        "{names:?}"
    );
    let (code, out) = run("gallery", &["--mount", &mount, "--call", "inner_add", r#"{"a": 2, "b": 3}"#]);
    assert_eq!(code, 0, "{out}");
    let event: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(event["value"], "5");
    assert_eq!(event["name"], "inner_add");
    let (code, _) = run("gallery", &["--mount", "inner=/no/such/server", "--list"]);
    assert_eq!(code, 2, "a server that does not start is a usage error");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gallery_is_a_gateway_to_a_stdio_server_over_http() {
    after_build(async {
        let (gateway_address, direct_address) = (free_address(), free_address());
        let mount = format!("inner={}", example("gallery").display());
        let gateway_at = gateway_address.to_string();
        let _gateway = listening("gallery", &["--mount", &mount, "--http", &gateway_at], gateway_address).await;
        let direct_at = direct_address.to_string();
        let _direct = listening("gallery", &["--http", &direct_at], direct_address).await;
        let gateway = gallery_client(gateway_address).await;
        let direct = gallery_client(direct_address).await;
        // A rich result arrives through the gateway as the gallery sends it.
        for (tool, arguments) in
            [("sales_table", json!({"region": "west"})), ("show_diff", json!({})), ("revenue_chart", json!({}))]
        {
            let through = gateway.call(format!("inner_{tool}"), arguments.clone()).await.unwrap();
            let straight = direct.call(tool, arguments).await.unwrap();
            assert_eq!(through.raw()["content"], straight.raw()["content"], "{tool}");
            assert_eq!(through.raw()["structuredContent"], straight.raw()["structuredContent"], "{tool}");
            assert_eq!(
                through.result().artifact().map(|artifact| artifact.kind_name().to_owned()),
                straight.result().artifact().map(|artifact| artifact.kind_name().to_owned()),
                "{tool}"
            );
        }
        let read = gateway.read_resource("inner+gallery://readme").await.unwrap();
        assert!(read.text().unwrap().starts_with("# codeagent gallery"), "{read:?}");
    })
    .await;
}

/// The OAuth examples, against the real issuer of `tests/auth` and a
/// protected server in this process.
#[cfg(feature = "auth")]
mod oauth {
    use super::*;
    use crate::issuer::Issuer;
    use codeagent::Server;
    use codeagent::prelude::*;
    use codeagent::server::auth::ResourceServer;
    use codeagent::server::http::HttpOptions;

    /// What the token the protected server verified says.
    #[tool(read_only)]
    fn token_seen(ctx: &Context) -> String {
        let Some(caller) = ctx.caller() else { return "nobody".to_owned() };
        json!({ "sub": caller.subject(), "aud": caller.claim("aud"), "act": caller.claim("act") }).to_string()
    }

    /// A protected server of `issuer` serving `token_seen`: the endpoint, and its resource.
    async fn protected(issuer: &Issuer) -> (common::http::Endpoint, String) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
        let auth = ResourceServer::new(&issuer.url, &resource);
        let server = Server::new(Toolbox::new().tool(token_seen));
        (common::http::start_on(listener, server, HttpOptions::new().with_resource_server(auth)).await, resource)
    }

    /// What the protected server saw of a call through the gateway at `gateway` by `token`'s holder.
    async fn seen_through(gateway: SocketAddr, token: &str) -> Value {
        let caller = codeagent::client::Client::builder()
            .header("authorization", format!("Bearer {token}"))
            .http(&format!("http://{gateway}/mcp"))
            .await
            .expect("connecting to the gateway");
        let output = caller.call("docs_token_seen", json!({})).await.expect("calling through the gateway");
        let text = output.raw()["content"][0]["text"].as_str().unwrap_or_default().to_owned();
        serde_json::from_str(&text).unwrap_or_else(|_| panic!("not what the server saw: {}", output.raw()))
    }

    /// Starts `command` and waits until it listens on `address`.
    async fn listening_as(mut command: Command, address: SocketAddr) -> Running {
        command.stdin(Stdio::null()).stderr(Stdio::null());
        let mut running = Running(command.spawn().unwrap());
        let started = Instant::now();
        while tokio::net::TcpStream::connect(address).await.is_err() {
            assert!(running.0.try_wait().unwrap().is_none(), "exited before listening on {address}");
            assert!(started.elapsed() < WAIT, "did not listen on {address} within {WAIT:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        running
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs the issuer: run bash tests/auth/install.sh"]
    async fn client_credentials_calls_a_protected_tool_as_its_client() {
        after_build(async {
            let issuer = Issuer::start().await;
            issuer.client("reporting-agent", "r3port").await;
            let (_server, resource) = protected(&issuer).await;
            let mut command = Command::new(example("client_credentials"));
            command.args([&issuer.url, &resource, "token_seen"]);
            command.env("CLIENT_ID", "reporting-agent").env("CLIENT_SECRET", "r3port").env_remove("CLIENT_KEY");
            let finished = tokio::task::spawn_blocking(move || child::run_to_end(command, WAIT)).await.unwrap();
            assert!(finished.status.is_some_and(|status| status.success()), "{}", finished.stderr);
            let seen: Value = serde_json::from_str(finished.stdout.trim()).expect("what the server saw");
            assert_eq!(seen["sub"], "reporting-agent", "{seen}");
            assert_eq!(seen["aud"], resource.as_str());

            let mut wrong = Command::new(example("client_credentials"));
            wrong.args([&issuer.url, &resource, "token_seen"]).env("CLIENT_ID", "reporting-agent");
            wrong.env("CLIENT_SECRET", "wrong").env_remove("CLIENT_KEY");
            let finished = tokio::task::spawn_blocking(move || child::run_to_end(wrong, WAIT)).await.unwrap();
            assert!(finished.status.is_some_and(|status| !status.success()));
            assert!(finished.stderr.contains("invalid_client"), "{}", finished.stderr);
        })
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs the issuer: run bash tests/auth/install.sh"]
    async fn gateway_for_callers_reaches_the_mounted_server_with_each_callers_exchanged_token() {
        after_build(async {
            let issuer = Issuer::start().await;
            issuer.client("gateway", "g4teway").await;
            let (_server, resource) = protected(&issuer).await;
            let address = free_address();
            let mut command = Command::new(example("gateway_for_callers"));
            command.args([&issuer.url, &resource, &address.to_string()]);
            command.env("GATEWAY_CLIENT_ID", "gateway").env("GATEWAY_SECRET", "g4teway");
            let _gateway = listening_as(command, address).await;
            let alice = issuer.mint(json!({ "sub": "alice", "aud": format!("http://{address}/mcp") })).await;
            let seen = seen_through(address, &alice).await;
            assert_eq!(seen["sub"], "alice", "{seen}");
            assert_eq!(seen["aud"], resource.as_str(), "{seen}");
            assert_eq!(seen["act"], json!({ "sub": "gateway" }), "{seen}");
        })
        .await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    #[ignore = "needs the issuer: run bash tests/auth/install.sh"]
    async fn the_command_line_mounts_a_protected_server_for_its_callers() {
        after_build(async {
            let issuer = Issuer::start().await;
            issuer.client("gateway", "g4teway").await;
            let (_server, resource) = protected(&issuer).await;
            let address = free_address();
            let own = format!("http://{address}/mcp");
            let mut command = Command::new(example("gallery"));
            command.args(["--mount", &format!("docs={resource}"), "--client-credentials", "gateway:GW_SECRET"]);
            command.args(["--token-exchange", "--issuer", &issuer.url]);
            command.args(["--http", &address.to_string(), "--auth-issuer", &issuer.url, "--auth-resource", &own]);
            command.env("GW_SECRET", "g4teway");
            let _gateway = listening_as(command, address).await;
            let bob = issuer.mint(json!({ "sub": "bob", "aud": own })).await;
            let seen = seen_through(address, &bob).await;
            assert_eq!(seen["sub"], "bob", "{seen}");
            assert_eq!(seen["aud"], resource.as_str(), "{seen}");
            assert_eq!(seen["act"], json!({ "sub": "gateway" }), "{seen}");

            // Without --token-exchange: the gateway's own client credentials.
            let plain_address = free_address();
            let mut plain = Command::new(example("gallery"));
            plain.args(["--mount", &format!("docs={resource}"), "--client-credentials", "gateway:GW_SECRET"]);
            plain.args(["--http", &plain_address.to_string()]).env("GW_SECRET", "g4teway");
            let _plain = listening_as(plain, plain_address).await;
            let seen = gallery_client(plain_address).await.call("docs_token_seen", json!({})).await.unwrap();
            let seen: Value = serde_json::from_str(seen.raw()["content"][0]["text"].as_str().unwrap()).unwrap();
            assert_eq!(seen["sub"], "gateway", "{seen}");
            assert_eq!(seen["aud"], resource.as_str(), "{seen}");

            // The secret's variable unset: a usage error naming it, before anything is served.
            let mut unset = Command::new(example("gallery"));
            unset.args(["--mount", &format!("docs={resource}"), "--client-credentials", "gateway:GW_UNSET", "--list"]);
            let finished = tokio::task::spawn_blocking(move || child::run_to_end(unset, WAIT)).await.unwrap();
            assert_eq!(finished.status.and_then(|status| status.code()), Some(2));
            assert!(finished.stderr.contains("`GW_UNSET`"), "{}", finished.stderr);
        })
        .await;
    }
}
