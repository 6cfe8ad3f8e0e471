//! Result budgets over the wire: one `tools/call` answered by a codeagent
//! server on an in-memory stdio connection, for a result of 10 MB of text and
//! a table of 200,000 rows, with the default budget (a bounded preview plus a
//! `resource_link`) and with none (the whole result).
//!
//! `cargo bench --bench budgets` in `bench/` (see BENCHMARKS.md).

use std::hint::black_box;

use codeagent::Server;
use codeagent::prelude::*;
use codeagent::tools::ResultBudget;
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf};
use tokio::runtime::Runtime;

/// `bytes` bytes of text, multi-byte characters included.
#[tool]
fn text(
    /// How many bytes of text to return.
    bytes: usize,
) -> String {
    let line = "0123456789 abcdefghijklmnopqrstuvwxyz ünïcödé 0123456789\n";
    let mut text = line.repeat(bytes / line.len() + 1);
    let mut end = bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text
}

/// A table of `rows` rows of two columns.
#[tool]
fn rows(
    /// How many rows the table has.
    rows: usize,
) -> Result<Table, ToolError> {
    Table::new().with_column("n", 0..rows)?.with_column("label", (0..rows).map(|row| format!("row number {row}")))
}

/// A client connected to a server with `budget`, after the handshake.
struct Connection {
    lines: BufReader<ReadHalf<DuplexStream>>,
    write: WriteHalf<DuplexStream>,
    next_id: u64,
}

impl Connection {
    async fn open(budget: ResultBudget) -> Connection {
        let server = Server::new(Toolbox::new().tool(text).tool(rows)).with_result_budget(budget);
        let (client, server_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(async move { server.serve(server_read, server_write).await });
        let (read, write) = tokio::io::split(client);
        let mut connection = Connection { lines: BufReader::with_capacity(1 << 20, read), write, next_id: 0 };
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

    async fn receive(&mut self) -> String {
        let mut line = String::new();
        self.lines.read_line(&mut line).await.expect("the server answers");
        line
    }

    /// Calls `tool` and returns the response line, checked to be a result.
    async fn call(&mut self, tool: &str, arguments: &Value) -> String {
        self.next_id += 1;
        let request = json!({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments}});
        self.send(&request).await;
        let line = self.receive().await;
        assert!(line.starts_with("{\"jsonrpc\":\"2.0\",\"id\":") && line.contains("\"result\""), "{line:.200}");
        line
    }
}

fn budgets(c: &mut Criterion) {
    let runtime = Runtime::new().expect("a Tokio runtime");
    for (tool, arguments, what) in
        [("text", json!({"bytes": 10_000_000}), "10 MB text"), ("rows", json!({"rows": 200_000}), "table 200k rows")]
    {
        let mut group = c.benchmark_group(format!("tools/call, {what}"));
        group.sample_size(10);
        for (label, budget) in [("default budget", ResultBudget::new()), ("unlimited", ResultBudget::unlimited())] {
            let mut connection = runtime.block_on(Connection::open(budget));
            let line = runtime.block_on(connection.call(tool, &arguments));
            println!("{what}, {label}: {} bytes on the wire", line.len());
            group.bench_function(label, |b| {
                b.iter(|| runtime.block_on(connection.call(tool, black_box(&arguments))).len())
            });
        }
        group.finish();
    }
}

criterion_group!(benches, budgets);
criterion_main!(benches);
