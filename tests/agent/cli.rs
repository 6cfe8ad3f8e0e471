//! `--agent` from the command line: the gallery example against each mock,
//! streamed and not (stdout: one JSON line per tool result, equal to what
//! `--call` prints, then the answer), and the one-line errors.
//! (`examples/agent_loop.rs`, a host rendering the events, is run by
//! `tests/programs/examples.rs` with the other examples.)
//!
//! The binaries are the examples built next to this test: `cargo build
//! --examples --features agent` first when running `--test agent` alone.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use codeagent::provider::Provider;
use serde_json::Value;

use crate::mock::{Answer, Mock};
use crate::scenario::{ANSWER, Call};
use crate::{anthropic, chat, gemini, responses};

const VARIABLES: [&str; 6] = [
    "OPENAI_BASE_URL",
    "OPENAI_API_KEY",
    "ANTHROPIC_BASE_URL",
    "ANTHROPIC_API_KEY",
    "GEMINI_BASE_URL",
    "GEMINI_API_KEY",
];

/// An example built next to this test binary.
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile = exe.parent().and_then(Path::parent).unwrap();
    let binary = profile.join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(binary.is_file(), "{} is not built: run `cargo build --examples --features agent` first", binary.display());
    binary
}

/// Runs `binary` with `args` and only the provider variables in `env`.
async fn run(binary: PathBuf, args: Vec<String>, env: Vec<(&'static str, String)>) -> Output {
    tokio::task::spawn_blocking(move || {
        let mut command = Command::new(binary);
        command.args(args).env("CODEAGENT_LOG", "info");
        for variable in VARIABLES {
            command.env_remove(variable);
        }
        command.envs(env).output().unwrap()
    })
    .await
    .unwrap()
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes).lines().map(str::to_owned).collect()
}

/// What `gallery --call NAME ARGS` prints, as JSON.
async fn call(name: &str, arguments: &str) -> Value {
    let output = run(example("gallery"), vec!["--call".into(), name.into(), arguments.into()], vec![]).await;
    serde_json::from_slice(&output.stdout).unwrap()
}

fn calls(provider: Provider, stream: bool) -> Vec<Call> {
    let id = |index: usize| match provider {
        Provider::Gemini if !stream => format!("call_1_{index}"),
        _ => format!("id_{index}"),
    };
    [
        ("add", r#"{"a":2,"b":3}"#, false),
        ("divide", r#"{"numerator":1,"denominator":0}"#, true),
        ("revenue_chart", "{}", false),
    ]
    .into_iter()
    .enumerate()
    .map(|(index, (name, arguments, fails))| Call { id: id(index), name, arguments: arguments.into(), fails })
    .collect()
}

fn script(provider: Provider, calls: &[Call], stream: bool) -> Vec<Answer> {
    match provider {
        Provider::OpenAiChat => chat::script(calls, stream),
        Provider::OpenAiResponses => responses::script(calls, stream),
        Provider::Anthropic => anthropic::script(calls, stream),
        _ => gemini::script(calls, stream),
    }
}

fn env(provider: Provider, url: &str) -> Vec<(&'static str, String)> {
    match provider {
        Provider::OpenAiChat | Provider::OpenAiResponses => {
            vec![("OPENAI_BASE_URL", format!("{url}/v1")), ("OPENAI_API_KEY", "k".into())]
        }
        Provider::Anthropic => vec![("ANTHROPIC_BASE_URL", url.to_owned()), ("ANTHROPIC_API_KEY", "k".into())],
        _ => vec![("GEMINI_BASE_URL", format!("{url}/v1beta")), ("GEMINI_API_KEY", "k".into())],
    }
}

fn agent_args(model: &str, stream: bool) -> Vec<String> {
    let mode = if stream { "--stream" } else { "--no-stream" };
    ["--agent", "Add, divide and chart.", "--model", model, mode].map(str::to_owned).to_vec()
}

#[tokio::test]
async fn the_gallery_runs_the_loop_against_every_provider() {
    let expected = [
        call("add", r#"{"a":2,"b":3}"#).await,
        call("divide", r#"{"numerator":1,"denominator":0}"#).await,
        call("revenue_chart", "{}").await,
    ];
    for provider in Provider::ALL {
        for stream in [true, false] {
            let calls = calls(provider, stream);
            let mock = Mock::start(script(provider, &calls, stream)).await;
            let output =
                run(example("gallery"), agent_args(&format!("{provider}:model-x"), stream), env(provider, &mock.url))
                    .await;
            let context = format!("{provider} stream={stream}: {}", String::from_utf8_lossy(&output.stderr));
            assert!(output.status.success(), "{context}");
            let stdout = lines(&output.stdout);
            assert_eq!(stdout.len(), 4, "three events and the answer: {stdout:?} {context}");
            assert_eq!(stdout[3], ANSWER);
            let mut events: Vec<Value> = stdout[..3].iter().map(|line| serde_json::from_str(line).unwrap()).collect();
            events.sort_by_key(|event| event["id"].as_str().unwrap().to_owned());
            for ((event, call), direct) in events.iter().zip(&calls).zip(&expected) {
                assert_eq!(event["id"], call.id.as_str(), "{context}");
                assert_eq!(event["name"], direct["name"]);
                assert_eq!(event["value"], direct["value"], "{context}");
                assert_eq!(event["artifact"], direct["artifact"], "{context}");
                assert_eq!(event["is_error"], call.fails);
            }
            assert_eq!(mock.received().len(), 2, "{context}");
            assert_eq!(mock.received()[0].body["model"].as_str().unwrap_or("model-x"), "model-x");
            assert!(!String::from_utf8_lossy(&output.stderr).contains("\"artifact\""), "logs hold no events");
        }
    }
}

#[tokio::test]
async fn the_loop_calls_the_tools_of_a_mounted_server() {
    // The gallery mounted into the gallery: the model calls the mounted `inner_add`.
    let provider = Provider::OpenAiChat;
    let calls = [Call { id: "id_0".into(), name: "inner_add", arguments: r#"{"a":2,"b":3}"#.into(), fails: false }];
    let mock = Mock::start(script(provider, &calls, false)).await;
    let mut args = vec!["--mount".to_owned(), format!("inner={}", example("gallery").display())];
    args.extend(agent_args(&format!("{provider}:model-x"), false));
    let output = run(example("gallery"), args, env(provider, &mock.url)).await;
    let context = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{context}");
    let stdout = lines(&output.stdout);
    assert_eq!(stdout.len(), 2, "one event and the answer: {stdout:?} {context}");
    let event: Value = serde_json::from_str(&stdout[0]).unwrap();
    assert_eq!(event["name"], "inner_add");
    assert_eq!(event["value"], "5");
    // The model was offered the mounted tools with the gallery's own.
    let offered = mock.received()[0].body["tools"].to_string();
    assert!(offered.contains("\"inner_add\"") && offered.contains("\"add\""), "{offered}");
}

/// Exactly one stderr line, starting `error: `; the exit code.
fn one_error(output: &Output) -> (i32, String) {
    let stderr = lines(&output.stderr);
    assert_eq!(stderr.len(), 1, "{stderr:?}");
    assert!(stderr[0].starts_with("error: "), "{stderr:?}");
    assert!(output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stdout));
    (output.status.code().unwrap(), stderr[0].clone())
}

#[tokio::test]
async fn failures_are_one_line_on_stderr() {
    let gallery = || example("gallery");
    let missing = run(gallery(), agent_args("anthropic:claude-x", true), vec![]).await;
    assert_eq!(one_error(&missing), (2, "error: ANTHROPIC_API_KEY is not set: anthropic needs an API key".into()));
    let public = run(gallery(), agent_args("openai:gpt-x", true), vec![]).await;
    assert_eq!(one_error(&public), (2, "error: OPENAI_API_KEY is not set: openai needs an API key".into()));

    let bad = run(gallery(), agent_args("mistral:large", true), vec![]).await;
    let (code, line) = one_error(&bad);
    assert_eq!(code, 2);
    assert!(line.contains("bad model `mistral:large`: unknown provider `mistral`"), "{line}");

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let unreachable = run(gallery(), agent_args("gemini:g", false), env(Provider::Gemini, &url)).await;
    let (code, line) = one_error(&unreachable);
    assert_eq!(code, 1);
    assert!(line.starts_with(&format!("error: cannot reach {url}/v1beta/models/g:generateContent: ")), "{line}");

    let body = r#"{"error": {"message": "Incorrect API key provided: k.", "type": "invalid_request_error"}}"#;
    let mock = Mock::start(vec![Answer::Status(401, vec![], body.into())]).await;
    let refused =
        run(gallery(), agent_args("openai-responses:gpt-x", true), env(Provider::OpenAiResponses, &mock.url)).await;
    let (code, line) = one_error(&refused);
    assert_eq!(code, 1);
    assert_eq!(line, format!("error: {}/v1/responses answered HTTP 401: Incorrect API key provided: k.", mock.url));
}
