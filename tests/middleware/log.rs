//! The request log and the span per request, as a `tracing` subscriber
//! receives them.

use std::io::Write;
use std::sync::{Mutex, OnceLock};

use codeagent::server::middleware::RequestLog;
use codeagent::server::trace::Trace;
use serde_json::json;

use super::{call, modern, server};
use crate::common::V2025_11;
use crate::common::client::{Client, Transport};

over_both!(
    the_request_log_names_method_tool_outcome_and_duration,
    the_span_continues_the_callers_traceparent,
    a_hostile_name_cannot_forge_a_log_line_or_drive_the_terminal
);

/// Everything the test subscriber wrote.
fn written() -> &'static Mutex<Vec<u8>> {
    static WRITTEN: OnceLock<Mutex<Vec<u8>>> = OnceLock::new();
    WRITTEN.get_or_init(|| Mutex::new(Vec::new()))
}

struct Capture;

impl Write for Capture {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        written().lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Installs (once per process) a subscriber writing every event, with its
/// spans' fields, to [`written`].
fn capture() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let subscriber = tracing_subscriber::fmt()
            .with_writer(|| Capture)
            .with_ansi(false)
            .with_max_level(tracing::Level::INFO)
            .finish();
        tracing::subscriber::set_global_default(subscriber).expect("the only subscriber of this test binary");
    });
}

/// The lines written so far that contain `marker`.
fn lines_with(marker: &str) -> Vec<String> {
    let written = String::from_utf8_lossy(&written().lock().unwrap()).into_owned();
    written.lines().filter(|line| line.contains(marker)).map(str::to_owned).collect()
}

async fn the_request_log_names_method_tool_outcome_and_duration(transport: Transport) {
    capture();
    let mut client = Client::start(transport, server().with_middleware(RequestLog::new())).await;
    client.initialize(V2025_11).await;
    let marker = format!("log-{transport}");
    client.result(1, "tools/call", call("greet", json!({"name": marker}))).await;
    client.result(2, "tools/call", modern(call("add", json!({"a": "not a number", "b": 1})))).await;
    client.error(3, "tools/call", call("no_such_tool", json!({}))).await;
    // The log line is written once the response is decided: wait for the third.
    let lines = wait_for(|| {
        let written = String::from_utf8_lossy(&written().lock().unwrap()).into_owned();
        written.contains("no_such_tool")
    })
    .await;
    assert!(lines, "{transport}: the log has the three requests");
    let greet = lines_with("name=\"greet\"");
    assert!(
        greet.iter().any(|line| line.contains("codeagent::request")
            && line.contains("method=\"tools/call\"")
            && line.contains("version=\"2025-11-25\"")
            && line.contains("outcome=\"ok\"")
            && line.contains(" ms=")),
        "{transport}: {greet:?}"
    );
    let add = lines_with("name=\"add\"");
    assert!(
        add.iter().any(|line| line.contains("version=\"2026-07-28\"") && line.contains("outcome=\"tool_error\"")),
        "{transport}: invalid arguments are a tool error: {add:?}"
    );
    let unknown = lines_with("name=\"no_such_tool\"");
    assert!(
        unknown.iter().any(|line| line.contains("outcome=\"error\"") && line.contains("code=-32602")),
        "{transport}: {unknown:?}"
    );
}

async fn the_span_continues_the_callers_traceparent(transport: Transport) {
    capture();
    let server = server().with_middleware(Trace::new()).with_middleware(RequestLog::new());
    let mut client = Client::start(transport, server).await;
    let trace_id = if transport == Transport::Stdio {
        "0af7651916cd43dd8448eb211c80319c"
    } else {
        "1bf7651916cd43dd8448eb211c80319d"
    };
    let traceparent = format!("00-{trace_id}-b7ad6b7169203331-01");
    let params = modern(json!({"name": "add", "arguments": {"a": 1, "b": 2}, "_meta": {"traceparent": traceparent}}));
    client.result(1, "tools/call", params).await;
    assert!(wait_for(|| !lines_with(trace_id).is_empty()).await, "{transport}: the log line is in the span");
    let lines = lines_with(trace_id);
    // The request log's event is written inside the span, whose fields the
    // formatter prints: the method, the tool and the caller's trace.
    assert!(
        lines.iter().any(|line| line.contains("mcp.request{")
            && line.contains("mcp.method.name=\"tools/call\"")
            && line.contains("gen_ai.tool.name=\"add\"")
            && line.contains("parent_span_id=\"b7ad6b7169203331\"")),
        "{transport}: {lines:?}"
    );
}

/// A tool name and a trace id sent by a client (issue #34: log forging,
/// terminal injection): written escaped, on the request's own line.
async fn a_hostile_name_cannot_forge_a_log_line_or_drive_the_terminal(transport: Transport) {
    capture();
    let server = server().with_middleware(Trace::new()).with_middleware(RequestLog::new());
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    let marker = format!("forged-{transport}");
    let hostile = format!("x\n2026-12-07T00:00:00Z  INFO {marker} admin logged in\u{1b}]0;pwned\u{7}\u{1b}[2J");
    client.error(1, "tools/call", call(&hostile, json!({}))).await;
    assert!(wait_for(|| !lines_with(&marker).is_empty()).await, "{transport}: the request is logged");
    let written = String::from_utf8_lossy(&written().lock().unwrap()).into_owned();
    for line in written.lines().filter(|line| line.contains(&marker)) {
        assert!(line.contains("codeagent::request"), "{transport}: a line of its own was forged: {line}");
        assert!(!line.contains('\u{1b}') && !line.contains('\u{7}'), "{transport}: raw control characters: {line:?}");
    }
}

/// Waits (up to five seconds) for `done`.
async fn wait_for(done: impl Fn() -> bool) -> bool {
    for _ in 0..100 {
        if done() {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    done()
}
