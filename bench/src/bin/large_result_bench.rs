//! Large results through the whole server: a `tools/call` answered by a
//! codeagent server (a process of its own, over stdio or Streamable HTTP)
//! with a 100,000 × 5 table or the same rows as `Json`, timed from the
//! request's write to the last byte of the response read off the transport,
//! against `serde_json::to_vec` of the same rows, alternately, in one run.
//!
//! ```sh
//! large_result_bench [--reps N] [--rows N] [--server NAME=PATH]...
//! large_result_bench serve [--rows N]               # the server, on stdio
//! large_result_bench serve --http ADDR [--rows N]   # the server, over HTTP
//! ```
//!
//! Each `--server` is a build of this program (its `serve` mode) to compare,
//! such as one built from another commit; without any, this program serves.
//! For each case it prints the median times, codeagent's speed over
//! `serde_json`'s, in time and per byte (each side's bytes over its time:
//! `Json`'s response holds the data twice, as the specification asks), the
//! ratio the goal is about (time for the table, per byte for `Json`), the CPU
//! time of the baseline's thread against the server's (all its threads) during
//! the call (steadier than wall times on a loaded machine), and the server's peak memory
//! during its first call over the response's size (its `VmHWM` growth, after
//! `/proc/PID/clear_refs` reset it, over its `VmRSS` before; a fresh server
//! per case, whose rows are built before). Each response
//! is checked: the right id, a result, the last row's name in it exactly once
//! for the table (twice for `Json`: its text block repeats the data), and
//! the rows all there.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use codeagent::Server;
use codeagent::prelude::*;
use codeagent::tools::ResultBudget;
use codeagent_bench::large::{self, Row};
use codeagent_bench::{cpu_time_of, median, wait_for_idle};

/// The rows every call lowers, built once per process.
static ROWS: OnceLock<Vec<Row>> = OnceLock::new();

fn rows() -> &'static [Row] {
    ROWS.get().map_or(&[], Vec::as_slice)
}

/// The rows as a table.
#[tool]
fn table() -> Result<Table, ToolError> {
    Table::from_rows(rows())
}

/// The rows as structured content (`Json`, lowered like `Json<Vec<Row>>`,
/// without cloning the rows on every call).
#[tool]
fn json() -> Json<&'static [Row]> {
    Json(rows())
}

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";
const OLDEST: &str = "2024-11-05";

/// One comparison: what is called, over what, in which version, and its goal.
struct Case {
    tool: &'static str,
    transport: Transport,
    version: &'static str,
    goal: f64,
    /// Whether the goal is about speed per byte (response bytes over the
    /// call's time against `to_vec`'s bytes over its time) rather than time.
    per_byte: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Transport {
    Stdio,
    Http,
}

const CASES: [Case; 6] = [
    Case { tool: "table", transport: Transport::Stdio, version: MODERN, goal: 0.7, per_byte: false },
    Case { tool: "table", transport: Transport::Http, version: MODERN, goal: 0.7, per_byte: false },
    Case { tool: "table", transport: Transport::Stdio, version: LEGACY, goal: 0.7, per_byte: false },
    Case { tool: "table", transport: Transport::Stdio, version: OLDEST, goal: 0.7, per_byte: false },
    Case { tool: "json", transport: Transport::Stdio, version: MODERN, goal: 0.7, per_byte: true },
    Case { tool: "json", transport: Transport::Http, version: MODERN, goal: 0.7, per_byte: true },
];

/// The peak memory goal: the server's peak growth over the response's size.
const MEMORY_GOAL: f64 = 3.0;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut count = 100_000;
    if let Some(position) = args.iter().position(|arg| arg == "--rows") {
        count = args.get(position + 1).and_then(|rows| rows.parse().ok()).expect("--rows takes a number");
        args.drain(position..position + 2);
    }
    if args.first().map(String::as_str) == Some("serve") {
        let http = args.iter().position(|arg| arg == "--http").map(|position| args[position + 1].clone());
        serve(count, http);
        return;
    }
    let mut reps = 7;
    let mut servers = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--reps" => reps = args.next().and_then(|reps| reps.parse().ok()).expect("--reps takes a number"),
            "--server" => {
                let spec = args.next().expect("--server takes NAME=PATH");
                let (name, path) = spec.split_once('=').expect("--server takes NAME=PATH");
                servers.push((name.to_owned(), path.to_owned()));
            }
            other => {
                eprintln!(
                    "large_result_bench: unknown argument `{other}`\n\
                     usage: large_result_bench [--reps N] [--rows N] [--server NAME=PATH]..."
                );
                std::process::exit(2);
            }
        }
    }
    if servers.is_empty() {
        let me = std::env::current_exe().expect("this program's path");
        servers.push(("codeagent".to_owned(), me.display().to_string()));
    }
    compare(count, reps, &servers);
}

/// Serves the two tools with no result budget (the whole result is sent).
fn serve(count: usize, http: Option<String>) {
    ROWS.set(large::rows(count)).ok();
    let runtime = tokio::runtime::Runtime::new().expect("a Tokio runtime");
    let server = Server::new(Toolbox::new().tool(table).tool(json)).with_result_budget(ResultBudget::unlimited());
    runtime.block_on(async move {
        let served = match http {
            Some(address) => {
                let address: SocketAddr = address.parse().expect("--http takes an address");
                server.serve_http(address, codeagent::server::http::HttpOptions::default()).await
            }
            None => server.serve_stdio().await,
        };
        served.expect("the server serves");
    });
}

/// One server process, and how to call it.
struct Served {
    child: Child,
    link: Link,
    next_id: u64,
    /// The size of the last response, the room made for the next one (so
    /// the client does not copy a large response as its buffer grows).
    last_len: usize,
}

enum Link {
    Stdio { input: ChildStdin, output: BufReader<ChildStdout> },
    Http { address: SocketAddr },
}

impl Served {
    fn start(path: &str, transport: Transport, version: &str, count: usize) -> Served {
        let rows = count.to_string();
        match transport {
            Transport::Stdio => {
                let mut child = Command::new(path)
                    .args(["serve", "--rows", &rows])
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::inherit())
                    .spawn()
                    .unwrap_or_else(|error| panic!("cannot start {path}: {error}"));
                let input = child.stdin.take().expect("a pipe");
                let output = BufReader::with_capacity(1 << 20, child.stdout.take().expect("a pipe"));
                let mut served = Served { child, link: Link::Stdio { input, output }, next_id: 0, last_len: 0 };
                if version != MODERN {
                    let initialize = format!(
                        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"large_result_bench","version":"0"}}}}}}"#
                    );
                    served.exchange(&initialize);
                    served.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
                }
                served
            }
            Transport::Http => {
                let port = std::net::TcpListener::bind("127.0.0.1:0")
                    .and_then(|listener| listener.local_addr())
                    .expect("a free port")
                    .port();
                let address: SocketAddr = ([127, 0, 0, 1], port).into();
                let child = Command::new(path)
                    .args(["serve", "--http", &address.to_string(), "--rows", &rows])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::inherit())
                    .spawn()
                    .unwrap_or_else(|error| panic!("cannot start {path}: {error}"));
                let deadline = Instant::now() + Duration::from_secs(30);
                while TcpStream::connect(address).is_err() {
                    assert!(Instant::now() < deadline, "{path} did not listen on {address}");
                    std::thread::sleep(Duration::from_millis(20));
                }
                Served { child, link: Link::Http { address }, next_id: 0, last_len: 0 }
            }
        }
    }

    fn send(&mut self, line: &str) {
        let Link::Stdio { input, .. } = &mut self.link else { unreachable!("stdio only") };
        input.write_all(line.as_bytes()).and_then(|()| input.write_all(b"\n")).expect("the server reads");
    }

    /// Sends `message` and returns the response's bytes, read whole.
    fn exchange(&mut self, message: &str) -> Vec<u8> {
        let response = match &mut self.link {
            Link::Stdio { input, output } => {
                input.write_all(message.as_bytes()).and_then(|()| input.write_all(b"\n")).expect("the server reads");
                let mut line = Vec::with_capacity(self.last_len + 1);
                output.read_until(b'\n', &mut line).expect("the server answers");
                line
            }
            Link::Http { address } => {
                // A connection per call: the server closes idle ones while
                // the harness waits for a quiet machine.
                let mut stream = TcpStream::connect(*address).expect("the server accepts");
                stream.set_nodelay(true).expect("TCP_NODELAY");
                http_post(&mut stream, message)
            }
        };
        self.last_len = response.len();
        response
    }

    fn call(&mut self, tool: &str, version: &str) -> Vec<u8> {
        self.next_id += 1;
        let id = self.next_id;
        let meta = if version == MODERN {
            format!(
                r#","_meta":{{"io.modelcontextprotocol/protocolVersion":"{MODERN}","io.modelcontextprotocol/clientCapabilities":{{}},"io.modelcontextprotocol/clientInfo":{{"name":"large_result_bench","version":"0"}}}}"#
            )
        } else {
            String::new()
        };
        let request = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{{}}{meta}}}}}"#
        );
        let response = self.exchange(&request);
        let start = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#);
        assert!(
            response.starts_with(start.as_bytes()),
            "not a result: {}",
            String::from_utf8_lossy(&response[..response.len().min(300)])
        );
        response
    }

    fn status_kib(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("the server's status");
        status
            .lines()
            .find_map(|line| line.strip_prefix(field)?.trim().strip_suffix("kB")?.trim().parse().ok())
            .unwrap_or(0)
    }

    /// Resets the peak resident set; returns the resident set now, in bytes.
    fn reset_peak(&self) -> u64 {
        let _ = std::fs::write(format!("/proc/{}/clear_refs", self.child.id()), "5");
        self.status_kib("VmRSS:") * 1024
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// POSTs a 2026-07-28 `message` to `/mcp` on `stream`; the body.
fn http_post(stream: &mut TcpStream, message: &str) -> Vec<u8> {
    let name = if message.contains(r#""name":"json""#) { "json" } else { "table" };
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n\
         MCP-Protocol-Version: {MODERN}\r\nMcp-Method: tools/call\r\nMcp-Name: {name}\r\nContent-Length: {}\r\n\r\n{message}",
        message.len()
    );
    stream.write_all(request.as_bytes()).expect("the server reads");
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        stream.read_exact(&mut byte).expect("the server answers");
        head.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&head).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "HTTP status: {head}");
    let length: usize = head
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|length| length.trim().parse().ok())
        .expect("a JSON body with a Content-Length");
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).expect("the whole body");
    body
}

/// Checks the response of `tool` for `count` rows: the data complete and sent once.
fn check(tool: &str, response: &[u8], count: usize) {
    let last = format!("customer-{:06}", count - 1);
    let times = response.windows(last.len()).filter(|window| *window == last.as_bytes()).count();
    let expected = if tool == "table" { 1 } else { 2 };
    assert_eq!(times, expected, "{tool}: the last row is in the response {times} times, not {expected}");
    let message: serde_json::Value = serde_json::from_slice(response).expect("the response is JSON");
    let result = &message["result"];
    let rows = if tool == "table" {
        let artifact = result["_meta"]
            .as_object()
            .and_then(|meta| meta.values().find(|value| value.get("kind").is_some_and(|kind| kind == "table")))
            .expect("the table's artifact in _meta");
        artifact["payload"]["df"]["rows"].as_array().map_or(0, Vec::len)
    } else {
        let structured = &result["structuredContent"];
        let structured = structured.get("result").unwrap_or(structured);
        structured.as_array().map_or(0, Vec::len)
    };
    assert_eq!(rows, count, "{tool}: {rows} rows in the response, not {count}");
}

/// This thread's CPU time (from `/proc/thread-self/schedstat`), in seconds.
fn thread_cpu() -> f64 {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    stat.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).unwrap_or(0.0) / 1e9
}

/// One cell of the results: times of the baseline and of the call (wall
/// and CPU), the first call's peak over its response's size.
#[derive(Default)]
struct Samples {
    baseline: Vec<f64>,
    call: Vec<f64>,
    baseline_cpu: Vec<f64>,
    server_cpu: Vec<f64>,
    peak: f64,
    bytes: usize,
    baseline_bytes: usize,
}

fn compare(count: usize, reps: usize, servers: &[(String, String)]) {
    let rows = large::rows(count);
    let mut cells: Vec<Vec<Samples>> =
        servers.iter().map(|_| CASES.iter().map(|_| Samples::default()).collect()).collect();
    let mut started: Vec<Vec<Served>> = servers
        .iter()
        .map(|(_, path)| CASES.iter().map(|case| Served::start(path, case.transport, case.version, count)).collect())
        .collect();
    // A first call of each, checked; the server's peak memory is that of
    // this first call (later calls reuse what the allocator kept).
    for (server, served) in started.iter_mut().enumerate() {
        for (index, (case, served)) in CASES.iter().zip(served.iter_mut()).enumerate() {
            let before = served.reset_peak();
            let response = served.call(case.tool, case.version);
            let peak = served.status_kib("VmHWM:") * 1024;
            check(case.tool, &response, count);
            let cell = &mut cells[server][index];
            cell.bytes = response.len();
            cell.peak = peak.saturating_sub(before) as f64 / response.len() as f64;
        }
    }
    for rep in 0..reps {
        if !wait_for_idle(Duration::from_secs(60)) {
            eprintln!("a compiler is running: the wall times will be noisy (the CPU times less so)");
        }
        for offset in 0..servers.len() {
            let server = (rep + offset) % servers.len();
            for (index, case) in CASES.iter().enumerate() {
                let (start, cpu) = (Instant::now(), thread_cpu());
                let baseline = serde_json::to_vec(std::hint::black_box(&rows)).expect("rows serialise");
                let (baseline_time, baseline_cpu) = (start.elapsed().as_secs_f64(), thread_cpu() - cpu);
                let baseline_bytes = baseline.len();
                drop(std::hint::black_box(baseline));
                let served = &mut started[server][index];
                let pid = served.child.id();
                let (start, cpu) = (Instant::now(), cpu_time_of(pid));
                let response = served.call(case.tool, case.version);
                let call_time = start.elapsed().as_secs_f64();
                let server_cpu =
                    cpu_time_of(pid).zip(cpu).map_or(f64::NAN, |(after, before)| (after - before).as_secs_f64());
                drop(std::hint::black_box(response));
                let cell = &mut cells[server][index];
                cell.baseline_bytes = baseline_bytes;
                cell.baseline.push(baseline_time);
                cell.call.push(call_time);
                cell.baseline_cpu.push(baseline_cpu);
                cell.server_cpu.push(server_cpu);
            }
        }
        eprintln!("repetition {} of {reps} done", rep + 1);
    }
    println!();
    println!(
        "Large results through the server, {count} rows × 5, medians of {reps} (ratios: speed over serde_json::to_vec of the rows, in time and per byte = (response bytes / call) / (to_vec bytes / to_vec); peak: server's peak growth over the response)"
    );
    println!();
    println!(
        "| server | result | transport | version | response bytes | to_vec bytes | to_vec (ms) | call (ms) | speed ratio | per byte | goal | to_vec CPU / server CPU (ms) | CPU ratio | CPU per byte | peak / bytes | goal |"
    );
    println!("|---|---|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|");
    for ((name, _), cells) in servers.iter().zip(&cells) {
        for (case, cell) in CASES.iter().zip(cells) {
            let baseline = median(cell.baseline.clone());
            let call = median(cell.call.clone());
            let ratio = baseline / call;
            // Each side's bytes per second, the response's over to_vec's.
            let bytes_ratio = cell.bytes as f64 / cell.baseline_bytes as f64;
            let per_byte = ratio * bytes_ratio;
            let peak = cell.peak;
            let baseline_cpu = median(cell.baseline_cpu.clone());
            let server_cpu = median(cell.server_cpu.clone());
            let cpu_ratio = baseline_cpu / server_cpu;
            let met = |met: bool| if met { "met" } else { "NOT MET" };
            let (goal_ratio, goal_of) = if case.per_byte { (per_byte, " per byte") } else { (ratio, "") };
            println!(
                "| {name} | {} | {} | {} | {} | {} | {:.1} | {:.1} | {ratio:.2}x | {per_byte:.2}x | ≥ {:.2}x{goal_of}: {} | {:.1} / {:.1} | {cpu_ratio:.2}x | {:.2}x | {peak:.2}x | ≤ {MEMORY_GOAL:.0}x: {} |",
                case.tool,
                if case.transport == Transport::Stdio { "stdio" } else { "HTTP" },
                case.version,
                cell.bytes,
                cell.baseline_bytes,
                baseline * 1e3,
                call * 1e3,
                case.goal,
                met(goal_ratio >= case.goal),
                baseline_cpu * 1e3,
                server_cpu * 1e3,
                cpu_ratio * bytes_ratio,
                met(peak <= MEMORY_GOAL),
            );
        }
    }
}
