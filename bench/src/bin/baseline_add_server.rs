//! A hand-written stdio MCP server for `add`, with no SDK and no async
//! runtime: one thread reads a line, parses it, answers it. It is the
//! harness's reference point, what stdio and JSON cost on this machine; it
//! is not a server anyone should ship (no cancellation, no concurrency).

use std::io::{BufRead, BufReader, BufWriter, Write};

use serde_json::{Value, json};

fn main() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut input = BufReader::with_capacity(64 * 1024, stdin.lock());
    let mut output = BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let Ok(message) = serde_json::from_slice::<Value>(&line) else { continue };
        let Some(id) = message.get("id") else { continue }; // notifications
        let result = match message["method"].as_str() {
            Some("initialize") => json!({
                "protocolVersion": message["params"]["protocolVersion"].as_str().unwrap_or("2025-06-18"),
                "capabilities": { "tools": {} },
                "serverInfo": { "name": "baseline-add", "version": "0.0.0" },
            }),
            Some("tools/call") => {
                let arguments = &message["params"]["arguments"];
                match (arguments["a"].as_i64(), arguments["b"].as_i64()) {
                    (Some(a), Some(b)) => json!({ "content": [{ "type": "text", "text": (a + b).to_string() }] }),
                    _ => {
                        json!({ "content": [{ "type": "text", "text": "a and b must be integers" }], "isError": true })
                    }
                }
            }
            _ => {
                let error =
                    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": -32601, "message": "Method not found" } });
                serde_json::to_writer(&mut output, &error)?;
                output.write_all(b"\n")?;
                continue;
            }
        };
        serde_json::to_writer(&mut output, &json!({ "jsonrpc": "2.0", "id": id, "result": result }))?;
        output.write_all(b"\n")?;
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
    output.flush()
}
