//! What a request costs through the middleware: one `tools/call` of an
//! inline tool (and one `tools/list`), answered by a codeagent server on an
//! in-memory stdio connection, without middleware, with one pass-through
//! closure, and with the whole built-in stack (Trace, RequestLog,
//! ConcurrencyLimit, Timeout, RateLimit per caller), side by side in one run,
//! in a legacy session and as 2026-07-28 requests.
//!
//! No `tracing` subscriber is installed, as in a server that logs nothing:
//! the span and the log line then cost their disabled call sites only.
//!
//! The servers take turns: each round sends 2,000 requests to each, one at
//! a time (each waits for its response), and the figure is the median round.
//!
//! `cargo bench --bench middleware` in `bench/` (see BENCHMARKS.md).

use std::hint::black_box;
use std::time::{Duration, Instant};

use codeagent::Server;
use codeagent::prelude::*;
use codeagent::server::middleware::{ConcurrencyLimit, RateLimit, RequestLog, Timeout};
use codeagent::server::trace::Trace;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::runtime::Runtime;

/// Add two integers.
#[tool(inline)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// The servers compared.
fn servers() -> Vec<(&'static str, Server)> {
    let plain = || Server::new(Toolbox::new().tool(add));
    vec![
        ("no middleware", plain()),
        ("one closure", plain().around_calls(|call, next| next.run(call))),
        (
            "built-in stack",
            plain()
                .with_middleware(Trace::new())
                .with_middleware(RequestLog::new())
                .with_middleware(ConcurrencyLimit::new(64))
                .with_middleware(Timeout::new(Duration::from_secs(30)))
                .with_middleware(RateLimit::per_caller(1_000_000_000, Duration::from_secs(1))),
        ),
    ]
}

/// A client of a server over an in-memory connection, after the handshake.
struct Connection {
    lines: BufReader<ReadHalf<DuplexStream>>,
    write: WriteHalf<DuplexStream>,
    next_id: u64,
    line: String,
}

impl Connection {
    async fn open(server: Server) -> Connection {
        let (client, server_end) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(async move { server.serve(server_read, server_write).await });
        let (read, write) = tokio::io::split(client);
        let mut connection = Connection { lines: BufReader::new(read), write, next_id: 0, line: String::new() };
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}});
        connection.send(&initialize).await;
        connection.receive().await;
        connection.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
        connection
    }

    async fn send(&mut self, message: &Value) {
        let mut line = message.to_string();
        line.push('\n');
        self.write.write_all(line.as_bytes()).await.expect("the server reads");
    }

    async fn receive(&mut self) -> usize {
        self.line.clear();
        self.lines.read_line(&mut self.line).await.expect("the server answers")
    }

    /// Sends `method` with `params` and waits for its response, checked to
    /// be a result.
    async fn request(&mut self, method: &str, params: &Value) -> usize {
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        self.send(&request).await;
        let length = self.receive().await;
        assert!(self.line.contains("\"result\"") && !self.line.contains("\"isError\":true"), "{:.300}", self.line);
        length
    }
}

fn modern(mut params: Value) -> Value {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "0"},
    });
    params
}

/// Rounds per comparison, and requests per server in each round.
const ROUNDS: usize = 21;
const PER_ROUND: u32 = 2_000;

fn main() {
    let runtime = Runtime::new().expect("a Tokio runtime");
    let call = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
    let requests = [
        ("tools/call, legacy", "tools/call", call.clone()),
        ("tools/call, 2026-07-28", "tools/call", modern(call)),
        ("tools/list, legacy", "tools/list", json!({})),
    ];
    println!("| request | server | median µs/request | fastest round | against none |");
    println!("|---|---|---:|---:|---:|");
    for (what, method, params) in requests {
        let mut connections: Vec<(&str, Connection)> =
            servers().into_iter().map(|(label, server)| (label, runtime.block_on(Connection::open(server)))).collect();
        let mut rounds: Vec<Vec<f64>> = vec![Vec::new(); connections.len()];
        // The servers take turns, round after round, so that what else the
        // machine does falls on all of them alike; the first round warms up.
        for round in 0..=ROUNDS {
            for (index, (_, connection)) in connections.iter_mut().enumerate() {
                let elapsed = runtime.block_on(async {
                    let started = Instant::now();
                    for _ in 0..PER_ROUND {
                        black_box(connection.request(method, black_box(&params)).await);
                    }
                    started.elapsed()
                });
                if round > 0 {
                    rounds[index].push(elapsed.as_secs_f64() * 1e6 / f64::from(PER_ROUND));
                }
            }
        }
        let medians: Vec<(f64, f64)> = rounds
            .iter_mut()
            .map(|times| {
                times.sort_by(f64::total_cmp);
                (times[times.len() / 2], times[0])
            })
            .collect();
        for ((label, _), (median, fastest)) in connections.iter().zip(&medians) {
            println!("| {what} | {label} | {median:.2} | {fastest:.2} | {:.2}x |", median / medians[0].0);
        }
    }
}
