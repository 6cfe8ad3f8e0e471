//! Throughput, latency and idle-session memory of MCP servers over
//! Streamable HTTP, side by side.
//!
//! For each server, mode, client count `K` and repetition, the harness starts
//! the server on a free loopback port and opens `K` keep-alive HTTP/1.1
//! connections, one per client (TCP_NODELAY set, as HTTP clients do). Each
//! client sends `tools/call add {a, b}` POSTs one after the other on its
//! connection for a warm-up period and then for the measured period. Every
//! response is checked: the JSON body, or each `data:` event of the SSE
//! stream, must answer the request's id exactly once with the text `a + b`.
//! Any lost, duplicated or wrong response, and any HTTP error, fails the run.
//!
//! Modes:
//!
//! - `legacy-json`: a legacy session per client (`initialize` for 2025-06-18,
//!   `notifications/initialized`, then `Mcp-Session-Id` and
//!   `MCP-Protocol-Version` on every call), `Accept: application/json`.
//! - `legacy-sse`: the same with `Accept: application/json, text/event-stream`.
//! - `modern-json` and `modern-sse`: 2026-07-28 stateless calls (no session;
//!   `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers and the
//!   `_meta` protocol version, client capabilities and client info in the
//!   params), with the same two `Accept` headers.
//!
//! A server that refuses an `Accept` without both types (rmcp) is sent both
//! in the JSON modes too; the harness then requires the answer to be JSON
//! anyway (the server must be configured to prefer JSON). A legacy server
//! that answers `initialize` without a session id (rmcp with
//! `legacy_session_mode: false`) gets calls without one.
//!
//! Servers and modes run alternately (the first position rotates between
//! repetitions and levels); each cell of the table is the median over
//! repetitions. Before each run the harness waits (up to `--wait-idle`
//! seconds) until no compiler is running, and measures a run again (twice at
//! most) when one started during it; the runs that began while compilers
//! still ran are counted and reported as noisy.
//!
//! Memory: for each server of `--memory-servers` (codeagent and rmcp unless
//! told), a fresh process gets
//! `--sessions` legacy sessions (initialize + initialized each, over
//! `--session-connections` connections) which then stay idle; the growth of
//! the server's `VmRSS` divided by the sessions opened is the cost of an idle
//! session. A sample of the sessions is then called to see that they are
//! still live.
//!
//! ```sh
//! http_bench [--duration SECS] [--warmup SECS] [--clients 1,16,64,256] [--reps N]
//!            [--modes legacy-json,legacy-sse,modern-json,modern-sse] [--threads N]
//!            [--sessions N] [--session-connections N] [--memory-servers A,B] [--no-memory] [--no-load]
//!            [--server NAME=MODES=COMMAND ARGS...]... [--verbose] [--wait-idle SECS]
//! ```
//!
//! In `--server`, `{addr}` in the command stands for the address to serve on
//! and MODES is a `+`-separated list of modes (`legacy-sse+modern-sse`); a
//! trailing `!` on the name (`rmcp!=...`) marks a server that needs both
//! types in `Accept`. Without `--server`, it runs codeagent's gallery example
//! (`--http {addr}`) and the rmcp HTTP add server in four configurations, all
//! from the target directory this binary lives in.

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use codeagent_bench::{
    Response, check, compiler_running, cpu_time_of, median, operands, own_cpu_time, percentile, rss_of, wait_for_idle,
};
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1;
use hyper::header::{CONTENT_TYPE, HOST, HeaderValue};
use hyper::{Request, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

const LEGACY_VERSION: &str = "2025-06-18";
const MODERN_VERSION: &str = "2026-07-28";
const ACCEPT_JSON: &str = "application/json";
const ACCEPT_BOTH: &str = "application/json, text/event-stream";

/// How the calls are made and answered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    LegacyJson,
    LegacySse,
    ModernJson,
    ModernSse,
}

impl Mode {
    const ALL: [Mode; 4] = [Mode::LegacyJson, Mode::LegacySse, Mode::ModernJson, Mode::ModernSse];

    fn name(self) -> &'static str {
        match self {
            Mode::LegacyJson => "legacy-json",
            Mode::LegacySse => "legacy-sse",
            Mode::ModernJson => "modern-json",
            Mode::ModernSse => "modern-sse",
        }
    }

    fn parse(text: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|mode| mode.name() == text)
    }

    fn legacy(self) -> bool {
        matches!(self, Mode::LegacyJson | Mode::LegacySse)
    }

    fn sse(self) -> bool {
        matches!(self, Mode::LegacySse | Mode::ModernSse)
    }
}

/// One server under test.
#[derive(Clone, Debug)]
struct ServerSpec {
    name: String,
    program: PathBuf,
    /// The arguments; `{addr}` is replaced by the address to serve on.
    args: Vec<String>,
    modes: Vec<Mode>,
    /// Whether it refuses an `Accept` without both JSON and SSE.
    needs_both: bool,
}

impl ServerSpec {
    fn accept(&self, mode: Mode) -> &'static str {
        if mode.sse() || self.needs_both { ACCEPT_BOTH } else { ACCEPT_JSON }
    }
}

struct Options {
    duration: Duration,
    warmup: Duration,
    clients: Vec<usize>,
    reps: usize,
    modes: Vec<Mode>,
    threads: usize,
    sessions: usize,
    session_connections: usize,
    memory: bool,
    /// The servers whose idle sessions are measured.
    memory_servers: Vec<String>,
    load: bool,
    servers: Vec<ServerSpec>,
    verbose: bool,
    wait_idle: Duration,
}

fn usage() -> ! {
    eprintln!(
        "usage: http_bench [--duration SECS] [--warmup SECS] [--clients 1,16,64,256] [--reps N]\n\
         \x20                 [--modes legacy-json,legacy-sse,modern-json,modern-sse] [--threads N]\n\
         \x20                 [--sessions N] [--session-connections N] [--memory-servers A,B] [--no-memory] [--no-load]\n\
         \x20                 [--server NAME=MODES=COMMAND ARGS...]... [--verbose] [--wait-idle SECS]"
    );
    std::process::exit(2)
}

fn parse_options() -> Options {
    let mut options = Options {
        duration: Duration::from_secs(2),
        warmup: Duration::from_millis(500),
        clients: vec![1, 16, 64, 256],
        reps: 5,
        modes: Mode::ALL.to_vec(),
        threads: 1,
        sessions: 10_000,
        session_connections: 64,
        memory: true,
        memory_servers: vec!["codeagent".to_owned(), "rmcp".to_owned()],
        load: true,
        servers: Vec::new(),
        verbose: false,
        wait_idle: Duration::from_secs(120),
    };
    let mut args = std::env::args().skip(1);
    let number = |value: Option<String>| -> usize {
        value.and_then(|v| v.replace('_', "").parse().ok()).unwrap_or_else(|| usage())
    };
    let seconds = |value: Option<String>| -> Duration {
        value
            .and_then(|v| v.parse::<f64>().ok())
            .and_then(|s| Duration::try_from_secs_f64(s).ok())
            .unwrap_or_else(|| usage())
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--duration" => options.duration = seconds(args.next()),
            "--warmup" => options.warmup = seconds(args.next()),
            "--reps" => options.reps = number(args.next()),
            "--threads" => options.threads = number(args.next()),
            "--sessions" => options.sessions = number(args.next()),
            "--session-connections" => options.session_connections = number(args.next()),
            "--clients" => {
                let list = args.next().unwrap_or_else(|| usage());
                options.clients = list.split(',').map(|k| k.trim().parse().unwrap_or_else(|_| usage())).collect();
            }
            "--modes" => {
                let list = args.next().unwrap_or_else(|| usage());
                options.modes = list.split(',').map(|m| Mode::parse(m.trim()).unwrap_or_else(|| usage())).collect();
            }
            "--server" => {
                let spec = args.next().unwrap_or_else(|| usage());
                let mut parts = spec.splitn(3, '=');
                let (Some(name), Some(modes), Some(command)) = (parts.next(), parts.next(), parts.next()) else {
                    usage()
                };
                let (name, needs_both) = name.strip_suffix('!').map_or((name, false), |name| (name, true));
                let modes = modes.split('+').map(|m| Mode::parse(m).unwrap_or_else(|| usage())).collect();
                let mut words = command.split_whitespace().map(str::to_owned);
                let program = PathBuf::from(words.next().unwrap_or_else(|| usage()));
                options.servers.push(ServerSpec {
                    name: name.to_owned(),
                    program,
                    args: words.collect(),
                    modes,
                    needs_both,
                });
            }
            "--memory-servers" => {
                let list = args.next().unwrap_or_else(|| usage());
                options.memory_servers = list.split(',').map(|name| name.trim().to_owned()).collect();
            }
            "--no-memory" => options.memory = false,
            "--no-load" => options.load = false,
            "--verbose" | "-v" => options.verbose = true,
            "--wait-idle" => options.wait_idle = seconds(args.next()),
            _ => usage(),
        }
    }
    if options.reps == 0 || options.clients.contains(&0) || options.threads == 0 || options.session_connections == 0 {
        usage();
    }
    if options.servers.is_empty() {
        options.servers = default_servers();
    }
    for server in &options.servers {
        if server.program.components().count() > 1 && !server.program.exists() {
            eprintln!(
                "http_bench: {} not found at {} (build it first: bench/http.sh)",
                server.name,
                server.program.display()
            );
            std::process::exit(2);
        }
    }
    options
}

/// codeagent's gallery and rmcp's add server as it ships, with TCP_NODELAY,
/// and configured to answer JSON.
fn default_servers() -> Vec<ServerSpec> {
    let dir = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)).unwrap_or_default();
    let rmcp = |name: &str, flags: &[&str], modes: &[Mode]| {
        let mut args = vec!["--listen".to_owned(), "{addr}".to_owned()];
        args.extend(flags.iter().map(|flag| (*flag).to_owned()));
        ServerSpec {
            name: name.to_owned(),
            program: dir.join("rmcp_http_add_server"),
            args,
            modes: modes.to_vec(),
            needs_both: true,
        }
    };
    let sse = [Mode::LegacySse, Mode::ModernSse];
    let json = [Mode::LegacyJson, Mode::ModernJson];
    vec![
        ServerSpec {
            name: "codeagent".to_owned(),
            program: dir.join("examples").join("gallery"),
            args: vec!["--http".to_owned(), "{addr}".to_owned()],
            modes: Mode::ALL.to_vec(),
            needs_both: false,
        },
        rmcp("rmcp", &[], &sse),
        rmcp("rmcp-nodelay", &["--nodelay"], &sse),
        rmcp("rmcp-json", &["--stateless", "--json"], &json),
        rmcp("rmcp-json-nodelay", &["--stateless", "--json", "--nodelay"], &json),
    ]
}

/// A running server.
struct Process {
    child: Child,
    addr: SocketAddr,
}

impl Process {
    fn spawn(spec: &ServerSpec, verbose: bool) -> Result<Process, String> {
        let addr = free_port().map_err(|error| format!("no free port: {error}"))?;
        let args = spec.args.iter().map(|arg| arg.replace("{addr}", &addr.to_string()));
        let child = Command::new(&spec.program)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(if verbose { Stdio::inherit() } else { Stdio::null() })
            .env("RUST_LOG", "error")
            .env("CODEAGENT_LOG", "error")
            .spawn()
            .map_err(|error| format!("starting {}: {error}", spec.program.display()))?;
        let mut process = Process { child, addr };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = process.child.try_wait() {
                return Err(format!("{} exited before serving: {status}", spec.name));
            }
            if Instant::now() >= deadline {
                return Err(format!("{} did not listen on {addr} within 10 s", spec.name));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(process)
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback address no one listens on right now.
fn free_port() -> std::io::Result<SocketAddr> {
    TcpListener::bind("127.0.0.1:0")?.local_addr()
}

/// One client's keep-alive connection.
struct Connection {
    sender: http1::SendRequest<Full<Bytes>>,
    host: HeaderValue,
}

impl Connection {
    async fn open(addr: SocketAddr) -> Result<Connection, String> {
        let tcp = TcpStream::connect(addr).await.map_err(|error| format!("connecting: {error}"))?;
        tcp.set_nodelay(true).map_err(|error| format!("TCP_NODELAY: {error}"))?;
        let (sender, connection) =
            http1::handshake(TokioIo::new(tcp)).await.map_err(|error| format!("HTTP handshake: {error}"))?;
        tokio::spawn(async move {
            let _ = connection.await;
        });
        let host = HeaderValue::from_str(&addr.to_string()).map_err(|error| error.to_string())?;
        Ok(Connection { sender, host })
    }

    /// POSTs `body` to `/mcp` with `headers`; the response's head and body.
    async fn post(
        &mut self,
        headers: &[(&str, &HeaderValue)],
        body: Bytes,
    ) -> Result<hyper::Response<Incoming>, String> {
        let mut request = Request::post("/mcp")
            .header(HOST, &self.host)
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let request = request.body(Full::new(body)).map_err(|error| error.to_string())?;
        self.sender.ready().await.map_err(|error| format!("connection lost: {error}"))?;
        self.sender.send_request(request).await.map_err(|error| format!("sending: {error}"))
    }
}

/// The messages of a response body: the whole body when it is JSON, each
/// non-empty `data` of an SSE stream, with the time each was complete.
async fn messages(response: hyper::Response<Incoming>, mut each: impl FnMut(&[u8], Instant)) -> Result<Kind, String> {
    let content_type = response.headers().get(CONTENT_TYPE).and_then(|value| value.to_str().ok()).unwrap_or_default();
    let kind = if content_type.starts_with("text/event-stream") {
        Kind::Sse
    } else if content_type.starts_with("application/json") {
        Kind::Json
    } else {
        return Err(format!("a {} response of type `{content_type}`", response.status()));
    };
    let mut body = response.into_body();
    match kind {
        Kind::Json => {
            let bytes = body.collect().await.map_err(|error| format!("reading the body: {error}"))?.to_bytes();
            each(&bytes, Instant::now());
        }
        Kind::Sse => {
            let mut parser = SseParser::default();
            while let Some(frame) = body.frame().await {
                let frame = frame.map_err(|error| format!("reading the stream: {error}"))?;
                if let Ok(data) = frame.into_data() {
                    let now = Instant::now();
                    parser.push(&data, |message| each(message, now));
                }
            }
        }
    }
    Ok(kind)
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Json,
    Sse,
}

/// The events of an SSE stream as they arrive: the `data` lines of each
/// event, joined.
#[derive(Default)]
struct SseParser {
    pending: BytesMut,
    data: Vec<u8>,
}

impl SseParser {
    fn push(&mut self, chunk: &[u8], mut event: impl FnMut(&[u8])) {
        self.pending.extend_from_slice(chunk);
        while let Some(end) = self.pending.iter().position(|&byte| byte == b'\n') {
            let line = self.pending.split_to(end + 1);
            let line = line.strip_suffix(b"\n").unwrap_or(&line);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                if !self.data.is_empty() {
                    event(&self.data);
                }
                self.data.clear();
            } else if let Some(value) = line.strip_prefix(b"data:") {
                let value = value.strip_prefix(b" ").unwrap_or(value);
                if !self.data.is_empty() {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
            }
            // `id:`, `event:`, `retry:` and comments carry no message.
        }
    }
}

/// The headers of one client's calls.
struct Client {
    connection: Connection,
    headers: Vec<(&'static str, HeaderValue)>,
    mode: Mode,
}

impl Client {
    /// A connection and, in the legacy modes, a session on it.
    async fn open(addr: SocketAddr, spec: &ServerSpec, mode: Mode) -> Result<Client, String> {
        let mut connection = Connection::open(addr).await?;
        let accept = HeaderValue::from_static(spec.accept(mode));
        let mut headers = vec![("accept", accept)];
        if mode.legacy() {
            let session = initialize(&mut connection, &headers[0].1).await?;
            headers.push(("mcp-protocol-version", HeaderValue::from_static(LEGACY_VERSION)));
            if let Some(session) = session {
                headers.push(("mcp-session-id", session));
            }
            initialized(&mut connection, &headers).await?;
        } else {
            headers.push(("mcp-protocol-version", HeaderValue::from_static(MODERN_VERSION)));
            headers.push(("mcp-method", HeaderValue::from_static("tools/call")));
            headers.push(("mcp-name", HeaderValue::from_static("add")));
        }
        Ok(Client { connection, headers, mode })
    }

    /// Calls `add` as call `id`; the latency to its answer.
    async fn call(&mut self, id: u64, tally: &mut Tally) -> Result<Option<Duration>, String> {
        let body = call_body(id, self.mode);
        let headers: Vec<(&str, &HeaderValue)> = self.headers.iter().map(|(name, value)| (*name, value)).collect();
        let sent = Instant::now();
        let response = self.connection.post(&headers, body).await?;
        if response.status() != StatusCode::OK {
            let status = response.status();
            let body = response.into_body().collect().await.map(|body| body.to_bytes()).unwrap_or_default();
            return Err(format!("call {id}: HTTP {status}: {}", String::from_utf8_lossy(&body)));
        }
        let mut answered = None;
        let kind = messages(response, |message, at| {
            let response: Response<'_> = match serde_json::from_slice(message) {
                Ok(response) => response,
                Err(error) => {
                    tally.wrong(format!("call {id}: not JSON ({error}): {}", String::from_utf8_lossy(message)));
                    return;
                }
            };
            let Some(answer) = &response.id else {
                if response.method.is_none() {
                    tally.wrong(format!("call {id}: a message with neither id nor method"));
                }
                return; // a notification
            };
            if answer.as_u64() != Some(id) {
                tally.wrong(format!("call {id}: answered as id {answer}"));
                return;
            }
            if answered.is_some() {
                tally.duplicated += 1;
                return;
            }
            answered = Some(at.duration_since(sent));
            if let Some(problem) = check(id, &response) {
                tally.wrong(problem);
            }
        })
        .await?;
        if kind != if self.mode.sse() { Kind::Sse } else { Kind::Json } {
            return Err(format!("call {id}: answered as {kind:?} in mode {}", self.mode.name()));
        }
        if answered.is_none() {
            tally.lost += 1;
        }
        Ok(answered)
    }
}

/// `initialize` for 2025-06-18: the session id, if the server gave one.
async fn initialize(connection: &mut Connection, accept: &HeaderValue) -> Result<Option<HeaderValue>, String> {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{LEGACY_VERSION}","capabilities":{{}},"clientInfo":{{"name":"http_bench","version":"0.0.0"}}}}}}"#
    );
    let response = connection.post(&[("accept", accept)], Bytes::from(body)).await?;
    if response.status() != StatusCode::OK {
        return Err(format!("initialize: HTTP {}", response.status()));
    }
    let session = response.headers().get("mcp-session-id").cloned();
    let mut version = None;
    messages(response, |message, _| {
        if let Ok(message) = serde_json::from_slice::<serde_json::Value>(message)
            && message.get("id") == Some(&serde_json::Value::from(0))
        {
            version = message.pointer("/result/protocolVersion").and_then(|v| v.as_str()).map(str::to_owned);
        }
    })
    .await?;
    if version.as_deref() != Some(LEGACY_VERSION) {
        return Err(format!("initialize answered protocol version {version:?}"));
    }
    Ok(session)
}

/// `notifications/initialized`: a 202 (or another success without a message).
async fn initialized(connection: &mut Connection, headers: &[(&'static str, HeaderValue)]) -> Result<(), String> {
    let headers: Vec<(&str, &HeaderValue)> = headers.iter().map(|(name, value)| (*name, value)).collect();
    let body = Bytes::from_static(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    let response = connection.post(&headers, body).await?;
    let status = response.status();
    let _ = response.into_body().collect().await;
    if status.is_success() { Ok(()) } else { Err(format!("notifications/initialized: HTTP {status}")) }
}

fn call_body(id: u64, mode: Mode) -> Bytes {
    let (a, b) = operands(id);
    let text = if mode.legacy() {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":{b}}}}}}}"#
        )
    } else {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":{b}}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN_VERSION}","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"http_bench","version":"0.0.0"}}}}}}}}"#
        )
    };
    Bytes::from(text)
}

/// What went wrong in a run, counted.
#[derive(Default)]
struct Tally {
    lost: u64,
    duplicated: u64,
    wrong: u64,
    first_wrong: Option<String>,
}

impl Tally {
    fn wrong(&mut self, problem: String) {
        self.wrong += 1;
        self.first_wrong.get_or_insert(problem);
    }

    fn add(&mut self, other: Tally) {
        self.lost += other.lost;
        self.duplicated += other.duplicated;
        self.wrong += other.wrong;
        if self.first_wrong.is_none() {
            self.first_wrong = other.first_wrong;
        }
    }

    fn problem(&self) -> Option<String> {
        if self.lost + self.duplicated + self.wrong == 0 {
            return None;
        }
        let first = self.first_wrong.as_deref().map(|first| format!(", first wrong: {first}")).unwrap_or_default();
        Some(format!("{} lost, {} duplicated, {} wrong responses{first}", self.lost, self.duplicated, self.wrong))
    }
}

/// What one client measured.
struct ClientRun {
    /// Latencies of the calls sent in the measured period, in nanoseconds.
    latencies: Vec<u64>,
    /// When the last of them was answered.
    last: Option<Instant>,
    tally: Tally,
}

/// One measurement.
#[derive(Clone, Copy, Debug)]
struct Sample {
    calls_per_second: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_us_per_call: Option<f64>,
    harness_cpu_us_per_call: Option<f64>,
}

async fn load(
    process: &Process,
    spec: &ServerSpec,
    mode: Mode,
    clients: usize,
    options: &Options,
) -> Result<Sample, String> {
    let mut opened = Vec::with_capacity(clients);
    for _ in 0..clients {
        opened.push(Client::open(process.addr, spec, mode).await?);
    }
    let next_id = Arc::new(AtomicU64::new(1));
    let start = Instant::now() + Duration::from_millis(20);
    let measured_from = start + options.warmup;
    let until = measured_from + options.duration;
    let tasks: Vec<_> = opened
        .into_iter()
        .map(|mut client| {
            let next_id = Arc::clone(&next_id);
            tokio::spawn(async move {
                tokio::time::sleep_until(start.into()).await;
                let mut run = ClientRun { latencies: Vec::new(), last: None, tally: Tally::default() };
                loop {
                    let sent = Instant::now();
                    if sent >= until {
                        return Ok::<_, String>(run);
                    }
                    let id = next_id.fetch_add(1, Ordering::Relaxed);
                    let latency = client.call(id, &mut run.tally).await?;
                    if let Some(latency) = latency
                        && sent >= measured_from
                    {
                        run.latencies.push(u64::try_from(latency.as_nanos()).unwrap_or(u64::MAX));
                        run.last = Some(sent + latency);
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep_until(measured_from.into()).await;
    let (cpu_before, harness_before) = (cpu_time_of(process.pid()), own_cpu_time());
    tokio::time::sleep_until(until.into()).await;
    let (cpu_after, harness_after) = (cpu_time_of(process.pid()), own_cpu_time());
    let mut latencies = Vec::new();
    let mut last = measured_from;
    let mut tally = Tally::default();
    for task in tasks {
        let run: ClientRun = match tokio::time::timeout(Duration::from_secs(60), task).await {
            Ok(Ok(outcome)) => outcome?,
            Ok(Err(error)) => return Err(format!("a client panicked: {error}")),
            Err(_) => return Err("a client got no answer within 60 s".to_owned()),
        };
        latencies.extend(run.latencies);
        last = last.max(run.last.unwrap_or(last));
        tally.add(run.tally);
    }
    if let Some(problem) = tally.problem() {
        return Err(problem);
    }
    if latencies.is_empty() {
        return Err("no call was answered in the measured period".to_owned());
    }
    latencies.sort_unstable();
    let calls = latencies.len() as f64;
    let per_call = |before: Option<Duration>, after: Option<Duration>| {
        before.zip(after).map(|(before, after)| after.saturating_sub(before).as_secs_f64() * 1e6 / calls)
    };
    Ok(Sample {
        calls_per_second: calls / last.duration_since(measured_from).as_secs_f64(),
        p50_us: percentile(&latencies, 0.50),
        p99_us: percentile(&latencies, 0.99),
        cpu_us_per_call: per_call(cpu_before, cpu_after),
        harness_cpu_us_per_call: per_call(harness_before, harness_after),
    })
}

fn runtime(threads: usize) -> tokio::runtime::Runtime {
    let mut builder = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        builder.worker_threads(threads);
        builder
    };
    builder.enable_all().build().expect("a tokio runtime")
}

fn measure(spec: &ServerSpec, mode: Mode, clients: usize, options: &Options) -> Result<Sample, String> {
    let process = Process::spawn(spec, options.verbose)?;
    runtime(options.threads).block_on(load(&process, spec, mode, clients, options))
}

/// [`measure`], run again (twice at most) when a compiler started during a
/// run that began on a quiet machine.
/// Also whether a compiler ran during the run kept.
fn measure_quietly(spec: &ServerSpec, mode: Mode, clients: usize, options: &Options) -> Result<(Sample, bool), String> {
    let mut attempt = 0;
    loop {
        // On a machine that never got quiet, measuring again would not help.
        let quiet = wait_for_idle(options.wait_idle);
        let sample = measure(spec, mode, clients, options)?;
        attempt += 1;
        let noisy = !quiet || compiler_running();
        if !noisy || !quiet || attempt == 3 {
            return Ok((sample, noisy));
        }
        eprintln!("a compiler started during a run of {} {} at K={clients}; measuring again", spec.name, mode.name());
    }
}

/// The idle-session measurement of one server.
struct Memory {
    opened: usize,
    before: u64,
    after: u64,
    seconds: f64,
    sampled: usize,
    live: usize,
}

async fn open_sessions(process: &Process, spec: &ServerSpec, options: &Options) -> Result<Memory, String> {
    let connections = options.session_connections.min(options.sessions.max(1));
    let mut opened = Vec::with_capacity(connections);
    // One session per connection first, so the connections, their buffers
    // and the runtime's first allocations are in the baseline.
    for _ in 0..connections {
        let client = Client::open(process.addr, spec, Mode::LegacySse).await?;
        opened.push(client);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = rss_of(process.pid()).ok_or("no VmRSS for the server")?;
    let rest = options.sessions.saturating_sub(connections);
    let started = Instant::now();
    let tasks: Vec<_> = opened
        .into_iter()
        .enumerate()
        .map(|(index, client)| {
            let share = rest / connections + usize::from(index < rest % connections);
            let spec = spec.clone();
            tokio::spawn(async move {
                let mut connection = client.connection;
                let mut sessions = Vec::with_capacity(share);
                let accept = HeaderValue::from_static(spec.accept(Mode::LegacySse));
                for _ in 0..share {
                    let session = initialize(&mut connection, &accept).await?.ok_or("no Mcp-Session-Id")?;
                    let headers = vec![
                        ("accept", accept.clone()),
                        ("mcp-protocol-version", HeaderValue::from_static(LEGACY_VERSION)),
                        ("mcp-session-id", session),
                    ];
                    initialized(&mut connection, &headers).await?;
                    sessions.push(headers);
                }
                Ok::<_, String>((connection, sessions))
            })
        })
        .collect();
    let mut sessions = Vec::new();
    let mut connection = None;
    for task in tasks {
        let (mine, theirs) = task.await.map_err(|error| format!("a client panicked: {error}"))??;
        connection.get_or_insert(mine);
        sessions.extend(theirs);
    }
    let seconds = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = rss_of(process.pid()).ok_or("no VmRSS for the server")?;
    // Call a sample of the sessions (oldest first) to see which are live.
    let connection = connection.ok_or("no connection")?;
    let mut client = Client { connection, headers: Vec::new(), mode: Mode::LegacySse };
    let step = (sessions.len() / 100).max(1);
    let (mut sampled, mut live) = (0, 0);
    for (index, headers) in sessions.into_iter().enumerate().step_by(step) {
        client.headers = headers;
        sampled += 1;
        let mut tally = Tally::default();
        match client.call(u64::try_from(index).unwrap_or(0) + 1, &mut tally).await {
            Ok(Some(_)) if tally.problem().is_none() => live += 1,
            Ok(_) => return Err(tally.problem().unwrap_or_else(|| "a sampled call was not answered".to_owned())),
            Err(error) if error.contains("HTTP 404") => {}
            Err(error) => return Err(error),
        }
    }
    Ok(Memory { opened: rest, before, after, seconds, sampled, live })
}

fn memory(spec: &ServerSpec, options: &Options) -> Result<Memory, String> {
    wait_for_idle(options.wait_idle);
    let process = Process::spawn(spec, options.verbose)?;
    runtime(options.threads).block_on(open_sessions(&process, spec, options))
}

fn main() {
    let options = parse_options();
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    eprintln!(
        "http_bench: {:?} measured after {:?} warm-up per run, clients {:?}, {} repetitions, {} client thread(s), {} cores",
        options.duration, options.warmup, options.clients, options.reps, options.threads, cores
    );
    for server in &options.servers {
        let modes: Vec<&str> = server.modes.iter().map(|mode| mode.name()).collect();
        eprintln!(
            "  {:<18} {} {}  [{}]",
            server.name,
            server.program.display(),
            server.args.join(" "),
            modes.join(", ")
        );
    }
    // The (server, mode) pairs measured, in the order of the table.
    let mut pairs = Vec::new();
    for &mode in &options.modes {
        for (index, server) in options.servers.iter().enumerate() {
            if server.modes.contains(&mode) {
                pairs.push((index, mode));
            }
        }
    }
    let mut failed = false;
    // samples[level][pair] = one sample per repetition
    let mut samples = vec![vec![Vec::<Sample>::new(); pairs.len()]; options.clients.len()];
    if options.load {
        let (mut runs, mut noisy_runs) = (0, 0);
        for rep in 0..options.reps {
            for (level, &clients) in options.clients.iter().enumerate() {
                for turn in 0..pairs.len() {
                    let pair = (turn + rep + level) % pairs.len();
                    let (index, mode) = pairs[pair];
                    let server = &options.servers[index];
                    match measure_quietly(server, mode, clients, &options) {
                        Ok((sample, noisy)) => {
                            runs += 1;
                            noisy_runs += usize::from(noisy);
                            if options.verbose {
                                eprintln!(
                                    "rep {rep} K={clients:<4} {:<18} {:<11} {:>9.0} calls/s  p50 {:>9.1} µs  p99 {:>9.1} µs  cpu {:>6.1} µs/call (harness {:.1})",
                                    server.name,
                                    mode.name(),
                                    sample.calls_per_second,
                                    sample.p50_us,
                                    sample.p99_us,
                                    sample.cpu_us_per_call.unwrap_or(f64::NAN),
                                    sample.harness_cpu_us_per_call.unwrap_or(f64::NAN)
                                );
                            }
                            samples[level][pair].push(sample);
                        }
                        Err(problem) => {
                            eprintln!("FAILED rep {rep} K={clients} {} {}: {problem}", server.name, mode.name());
                            failed = true;
                        }
                    }
                }
            }
            eprintln!("repetition {} of {} done", rep + 1, options.reps);
        }
        failed |= print_load(&options, &pairs, &samples);
        println!();
        println!("{noisy_runs} of {runs} runs had a compiler running on the machine.");
    }
    if options.memory {
        failed |= print_memory(&options);
    }
    if failed {
        std::process::exit(1);
    }
}

/// The tables of the load runs; whether a cell failed.
fn print_load(options: &Options, pairs: &[(usize, Mode)], samples: &[Vec<Vec<Sample>>]) -> bool {
    let mut failed = false;
    // medians[level][pair] = (calls/s, p50)
    let mut medians = vec![vec![None; pairs.len()]; options.clients.len()];
    for &mode in &options.modes {
        println!();
        println!("{}:", mode.name());
        println!();
        println!("| server | clients | calls/s | p50 (µs) | p99 (µs) | server CPU (µs/call) |");
        println!("|---|---:|---:|---:|---:|---:|");
        for (level, &clients) in options.clients.iter().enumerate() {
            for (pair, &(index, pair_mode)) in pairs.iter().enumerate() {
                if pair_mode != mode {
                    continue;
                }
                let name = &options.servers[index].name;
                let runs = &samples[level][pair];
                if runs.is_empty() {
                    println!("| {name} | {clients} | FAILED | | | |");
                    failed = true;
                    continue;
                }
                let rate = median(runs.iter().map(|s| s.calls_per_second).collect());
                let p50 = median(runs.iter().map(|s| s.p50_us).collect());
                let p99 = median(runs.iter().map(|s| s.p99_us).collect());
                let cpu: Vec<f64> = runs.iter().filter_map(|s| s.cpu_us_per_call).collect();
                let cpu = if cpu.is_empty() { "n/a".to_owned() } else { format!("{:.1}", median(cpu)) };
                println!("| {name} | {clients} | {rate:.0} | {p50:.1} | {p99:.1} | {cpu} |");
                medians[level][pair] = Some((rate, p50));
            }
        }
    }
    let find = |name: &str, mode: Mode| {
        pairs.iter().position(|&(index, pair_mode)| pair_mode == mode && options.servers[index].name == name)
    };
    // codeagent against every other server of each mode.
    for &mode in &options.modes {
        let Some(ours) = find("codeagent", mode) else { continue };
        let others: Vec<usize> = (0..pairs.len()).filter(|&pair| pairs[pair].1 == mode && pair != ours).collect();
        if others.is_empty() {
            continue;
        }
        println!();
        println!("{}, codeagent against:", mode.name());
        println!();
        let names: Vec<&str> = others.iter().map(|&pair| options.servers[pairs[pair].0].name.as_str()).collect();
        let columns: String = names.iter().map(|name| format!(" calls/s / {name} | {name} p50 / ours |")).collect();
        println!("| clients |{columns}");
        println!("|---:|{}", "---:|---:|".repeat(others.len()));
        for (level, &clients) in options.clients.iter().enumerate() {
            let Some((rate, p50)) = medians[level][ours] else { continue };
            let cells: String = others
                .iter()
                .map(|&pair| match medians[level][pair] {
                    Some((their_rate, their_p50)) => format!(" {:.2}x | {:.2}x |", rate / their_rate, their_p50 / p50),
                    None => " n/a | n/a |".to_owned(),
                })
                .collect();
            println!("| {clients} |{cells}");
        }
    }
    // SSE against JSON, per server.
    for (sse_mode, json_mode) in [(Mode::LegacySse, Mode::LegacyJson), (Mode::ModernSse, Mode::ModernJson)] {
        let Some(sse) = find("codeagent", sse_mode) else { continue };
        let Some(json) = find("codeagent", json_mode) else { continue };
        println!();
        println!("codeagent, {} against {}:", sse_mode.name(), json_mode.name());
        println!();
        println!("| clients | SSE calls/s / JSON calls/s | SSE p50 / JSON p50 |");
        println!("|---:|---:|---:|");
        for (level, &clients) in options.clients.iter().enumerate() {
            if let (Some((sse_rate, sse_p50)), Some((json_rate, json_p50))) =
                (medians[level][sse], medians[level][json])
            {
                println!("| {clients} | {:.2}x | {:.2}x |", sse_rate / json_rate, sse_p50 / json_p50);
            }
        }
    }
    failed
}

/// The idle-session table; whether a measurement failed.
fn print_memory(options: &Options) -> bool {
    let mut failed = false;
    let mut rows = Vec::new();
    let measured =
        |server: &&ServerSpec| server.modes.contains(&Mode::LegacySse) && options.memory_servers.contains(&server.name);
    for server in options.servers.iter().filter(measured) {
        eprintln!("opening {} idle sessions on {}...", options.sessions, server.name);
        match memory(server, options) {
            Ok(memory) => rows.push((server.name.clone(), memory)),
            Err(problem) => {
                eprintln!("FAILED memory {}: {problem}", server.name);
                failed = true;
            }
        }
    }
    println!();
    println!("idle legacy sessions:");
    println!();
    println!(
        "| server | sessions | VmRSS before | VmRSS after | bytes per idle session | sessions opened per second | live after (sample) |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, memory) in rows {
        let opened = memory.opened.max(1) as f64;
        println!(
            "| {name} | {} | {:.1} MiB | {:.1} MiB | {:.0} | {:.0} | {} of {} |",
            options.sessions,
            memory.before as f64 / 1_048_576.0,
            memory.after as f64 / 1_048_576.0,
            memory.after.saturating_sub(memory.before) as f64 / opened,
            opened / memory.seconds,
            memory.live,
            memory.sampled
        );
    }
    failed
}
