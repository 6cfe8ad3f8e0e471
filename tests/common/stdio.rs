//! The stdio test client: `Server::serve` over in-memory pipes, a JSON line
//! per message, every message read validated against the official schema of
//! its era (see `codeagent_test_support::wire`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codeagent::Server;
use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tokio::task::JoinHandle;

use super::WAIT;
use super::checks::Checks;
use super::tools::toolbox;

/// A test client on in-memory pipes, validating everything it reads.
pub struct Client {
    pub input: Option<DuplexStream>,
    pub output: BufReader<DuplexStream>,
    pub partial: Vec<u8>,
    pub serving: Option<JoinHandle<std::io::Result<()>>>,
    /// The era bookkeeping and validation of what the server writes.
    pub checks: Checks,
}

impl Client {
    pub fn start(server: Server) -> Client {
        let (input, server_input) = tokio::io::duplex(64 * 1024);
        let (server_output, output) = tokio::io::duplex(1024 * 1024);
        let serving = tokio::spawn(async move { server.serve(server_input, server_output).await });
        Client::over(input, output, serving)
    }

    /// A client writing to `input` and reading `output`, whose server's end
    /// is `serving`.
    fn over(input: DuplexStream, output: DuplexStream, serving: JoinHandle<std::io::Result<()>>) -> Client {
        Client {
            input: Some(input),
            output: BufReader::new(output),
            partial: Vec::new(),
            serving: Some(serving),
            checks: Checks::new(true),
        }
    }

    pub fn new() -> Client {
        Client::start(Server::new(toolbox()))
    }

    /// A client of a program serving MCP on its stdio (an example binary):
    /// `command` is started with piped standard input and output (standard
    /// error goes to the test's), bridged to the same in-memory pipes as
    /// [`start`](Client::start). Closing the input closes the program's
    /// standard input, so it ends as a stdio server does at EOF; `finish`
    /// waits for that and fails unless it exits with status 0.
    pub fn spawn(mut command: std::process::Command) -> Client {
        use std::io::{Read, Write};
        use std::process::Stdio;

        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
        let (mut child_in, mut child_out) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
        let (input, mut from_test) = tokio::io::duplex(64 * 1024);
        let (mut to_test, output) = tokio::io::duplex(1024 * 1024);
        let runtime = tokio::runtime::Handle::current();
        // Blocking threads carry the bytes; each ends when its side closes.
        let handle = runtime.clone();
        std::thread::spawn(move || {
            let mut buffer = [0; 8192];
            while let Ok(read @ 1..) = handle.block_on(tokio::io::AsyncReadExt::read(&mut from_test, &mut buffer)) {
                if child_in.write_all(&buffer[..read]).and_then(|()| child_in.flush()).is_err() {
                    break;
                }
            }
        });
        let handle = runtime.clone();
        std::thread::spawn(move || {
            let mut buffer = [0; 8192];
            while let Ok(read @ 1..) = child_out.read(&mut buffer) {
                if handle.block_on(to_test.write_all(&buffer[..read])).is_err() {
                    break;
                }
            }
        });
        let serving = runtime.spawn_blocking(move || {
            let status = child.wait()?;
            if status.success() {
                Ok(())
            } else {
                Err(std::io::Error::other(format!("the program ended with {status}")))
            }
        });
        Client::over(input, output, serving)
    }

    /// Writes `bytes` as they are (add the newline yourself).
    pub async fn send_bytes(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("input still open");
        input.write_all(bytes).await.expect("writing to the server");
        input.flush().await.unwrap();
    }

    /// Writes one line of text.
    pub async fn send_line(&mut self, text: &str) {
        let mut line = text.as_bytes().to_vec();
        line.push(b'\n');
        self.send_bytes(&line).await;
    }

    /// Notes what the responses to `message` (a request, notification or
    /// batch) should look like.
    pub fn register(&mut self, message: &Value) {
        self.checks.register(message);
    }

    pub async fn send(&mut self, message: Value) {
        self.register(&message);
        self.send_line(&message.to_string()).await;
    }

    pub async fn request(&mut self, id: impl Into<Value>, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "id": id.into(), "method": method, "params": params })).await;
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params })).await;
    }

    /// Closes the server's input (its stdin reaches EOF).
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// The next line, or `None` at EOF or after `within`.
    pub async fn line(&mut self, within: Duration) -> Option<Option<Vec<u8>>> {
        match tokio::time::timeout(within, self.output.read_until(b'\n', &mut self.partial)).await {
            Err(_) => None,
            Ok(Err(error)) => panic!("reading from the server: {error}"),
            Ok(Ok(0)) => {
                assert!(self.partial.is_empty(), "the server ended in the middle of a line");
                Some(None)
            }
            Ok(Ok(_)) => {
                let mut line = std::mem::take(&mut self.partial);
                assert_eq!(line.pop(), Some(b'\n'), "the server ended in the middle of a line");
                Some(Some(line))
            }
        }
    }

    /// The next message, validated, or `None` if nothing arrives `within`.
    pub async fn recv_within(&mut self, within: Duration) -> Option<Value> {
        let line = match self.line(within).await? {
            Some(line) => line,
            None => panic!("the server closed its output while a message was expected"),
        };
        let text = std::str::from_utf8(&line).expect("the server writes UTF-8");
        assert!(!text.contains('\n') && !text.trim().is_empty(), "one message per line: {text:?}");
        let message: Value = serde_json::from_str(text).unwrap_or_else(|error| panic!("not JSON ({error}): {text}"));
        self.validate(&message);
        Some(message)
    }

    /// The next message, validated; fails after [`WAIT`].
    pub async fn recv(&mut self) -> Value {
        match self.recv_within(WAIT).await {
            Some(message) => message,
            None => panic!("no message from the server within {WAIT:?}"),
        }
    }

    /// Asserts the server writes nothing for `within`.
    pub async fn assert_quiet(&mut self, within: Duration) {
        if let Some(message) = self.recv_within(within).await {
            panic!("expected no message, got {message}");
        }
    }

    /// Asserts the server's output ends (after serve() returned).
    pub async fn assert_eof(&mut self) {
        match self.line(WAIT).await {
            Some(None) => {}
            Some(Some(line)) => panic!("expected EOF, got {}", String::from_utf8_lossy(&line)),
            None => panic!("the server's output did not end within {WAIT:?}"),
        }
    }

    /// Reads until the response with `id`, returning the notifications that
    /// came before it and the response; any other response fails.
    pub async fn response_with_notes(&mut self, id: &Value) -> (Vec<Value>, Value) {
        let mut notes = Vec::new();
        loop {
            let message = self.recv().await;
            if message.get("method").is_some() {
                notes.push(message);
            } else if message.get("id") == Some(id) {
                return (notes, message);
            } else {
                panic!("waiting for the response to {id}, got {message}");
            }
        }
    }

    /// Reads the response with `id`; no notification may come before it.
    pub async fn response(&mut self, id: impl Into<Value>) -> Value {
        let id = id.into();
        let (notes, response) = self.response_with_notes(&id).await;
        assert!(notes.is_empty(), "unexpected notifications before the response to {id}: {notes:?}");
        response
    }

    /// Sends a request and returns its response (no notifications allowed).
    pub async fn call(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let id = id.into();
        self.request(id.clone(), method, params).await;
        self.response(id).await
    }

    /// Sends a request and returns its result, failing on an error response.
    pub async fn result(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let response = self.call(id, method, params).await;
        assert!(response.get("error").is_none(), "expected a result, got {response}");
        response["result"].clone()
    }

    /// Sends a request and returns its error object, failing on a result.
    pub async fn error(&mut self, id: impl Into<Value>, method: &str, params: Value) -> Value {
        let response = self.call(id, method, params).await;
        assert!(response.get("result").is_none(), "expected an error, got {response}");
        response["error"].clone()
    }

    /// The legacy handshake at `version`: `initialize`, then `notifications/initialized`.
    pub async fn initialize(&mut self, version: &str) -> Value {
        let result = self.result("init", "initialize", init_params(version)).await;
        self.notify("notifications/initialized", json!({})).await;
        result
    }

    /// A `ping`, answered: proves the server read everything sent before it.
    pub async fn sync(&mut self) {
        let id = json!(format!("sync-{}", SYNC.fetch_add(1, Ordering::Relaxed)));
        assert_eq!(self.result(id, "ping", json!({})).await, json!({}));
    }

    /// A modern `tools/list`, answered: like [`sync`](Self::sync) for modern tests.
    pub async fn sync_modern(&mut self) {
        let id = json!(format!("sync-{}", SYNC.fetch_add(1, Ordering::Relaxed)));
        self.result(id, "tools/list", modern(json!({}))).await;
    }

    /// Closes the input and waits for `serve` to return.
    pub async fn finish(mut self) -> std::io::Result<()> {
        self.close_input();
        let serving = self.serving.take().unwrap();
        tokio::time::timeout(WAIT, serving).await.expect("serve() returns after EOF").expect("serve() did not panic")
    }

    /// Validates one message the server wrote.
    #[track_caller]
    pub fn validate(&mut self, message: &Value) {
        self.checks.validate(message);
    }
}

pub static SYNC: AtomicUsize = AtomicUsize::new(0);

pub fn init_params(version: &str) -> Value {
    json!({
        "protocolVersion": version,
        "capabilities": {},
        "clientInfo": { "name": "server-tests", "version": "1.0.0" }
    })
}

/// The `_meta` of a modern request, plus `extra` keys.
pub fn modern_meta(extra: Value) -> Value {
    let mut meta = json!({
        PROTOCOL_VERSION_KEY: "2026-07-28",
        CLIENT_CAPABILITIES_KEY: {},
        CLIENT_INFO_KEY: { "name": "server-tests", "version": "1.0.0" },
    });
    if let Value::Object(extra) = extra {
        meta.as_object_mut().unwrap().extend(extra);
    }
    meta
}

/// `params` of a modern request.
pub fn modern(params: Value) -> Value {
    modern_with(json!({}), params)
}

/// `params` of a modern request whose `_meta` also has `extra`.
pub fn modern_with(extra: Value, mut params: Value) -> Value {
    params.as_object_mut().expect("params object").insert("_meta".into(), modern_meta(extra));
    params
}

pub fn call_params(name: &str, arguments: Value) -> Value {
    json!({ "name": name, "arguments": arguments })
}

/// The text of a tool result's first content block.
pub fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content in {result}"))
}

pub fn tool_names(list: &Value) -> Vec<&str> {
    list["tools"].as_array().unwrap().iter().map(|tool| tool["name"].as_str().unwrap()).collect()
}

#[track_caller]
pub fn assert_error(error: &Value, code: i64, needle: &str) {
    assert_eq!(error["code"], code, "{error}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(needle), "the message {message:?} should contain {needle:?}");
}

/// Reads the next message and asserts it is an error with `code` and id `id`.
pub async fn expect_error(client: &mut Client, id: Value, code: i64) -> Value {
    let message = client.recv().await;
    assert_eq!(message.get("id"), Some(&id), "{message}");
    assert_eq!(message["error"]["code"], code, "{message}");
    message["error"].clone()
}
