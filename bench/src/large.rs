//! Large results, lowered the way a codeagent server lowers them, and the same
//! data serialised by `serde_json` alone.

use codeagent::mcp::ProtocolVersion;
use codeagent::{Diff, Image, IntoToolResult, Json, Table};
use serde::Serialize;

/// One row of the large table: five columns of different types.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct Row {
    /// A counter.
    pub id: u64,
    /// A name, different on every row.
    pub name: String,
    /// A fractional number.
    pub score: f64,
    /// A flag.
    pub active: bool,
    /// One of four regions.
    pub region: &'static str,
}

/// `count` rows of varied values.
pub fn rows(count: usize) -> Vec<Row> {
    const REGIONS: [&str; 4] = ["north", "south", "east", "west"];
    (0..count)
        .map(|index| Row {
            id: index as u64 * 7919,
            name: format!("customer-{index:06}"),
            score: index as f64 / 7.0,
            active: index % 3 == 0,
            region: REGIONS[index % 4],
        })
        .collect()
}

/// The MCP wire JSON (2026-07-28) of a tool's result: what the server writes
/// inside its JSON-RPC response, written the way it writes it.
pub fn wire<T: IntoToolResult>(output: T) -> String {
    let schema = T::output_schema();
    output.into_tool_result().into_wire_json(ProtocolVersion::LATEST, schema.as_ref())
}

/// `Table::from_rows` to wire JSON.
pub fn table_wire(rows: &[Row]) -> String {
    wire(Table::from_rows(rows).expect("the rows are records"))
}

/// `Json(rows)` to wire JSON.
pub fn json_wire(rows: &[Row]) -> String {
    wire(Json(rows.to_vec()))
}

/// An image of `bytes` (a PNG signature followed by noise) to wire JSON.
pub fn image_wire(bytes: &[u8]) -> String {
    wire(Image::from_bytes(bytes, "image/png").expect("a PNG"))
}

/// A diff between two texts to wire JSON.
pub fn diff_wire(old: &str, new: &str) -> String {
    wire(Diff::new(old, new).with_path("data.csv"))
}

/// PNG-looking bytes of about `len` bytes: the signature, an IHDR chunk, noise.
pub fn png_bytes(len: usize) -> Vec<u8> {
    let mut bytes = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, b'I', b'H', b'D', b'R'];
    bytes.extend_from_slice(&640u32.to_be_bytes());
    bytes.extend_from_slice(&480u32.to_be_bytes());
    let mut state = 0x2545_f491_u32;
    while bytes.len() < len {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        bytes.push(state as u8);
    }
    bytes
}

/// A CSV-like text of `lines` lines, and the same text with every tenth line changed.
pub fn diff_texts(lines: usize) -> (String, String) {
    let old: String = (0..lines).map(|line| format!("{line},customer-{line:06},{}\n", line * 3)).collect();
    let new: String = (0..lines)
        .map(|line| {
            if line % 10 == 0 {
                format!("{line},customer-{line:06},{}\n", line * 3 + 1)
            } else {
                format!("{line},customer-{line:06},{}\n", line * 3)
            }
        })
        .collect();
    (old, new)
}
