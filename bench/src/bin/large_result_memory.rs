//! Peak memory of lowering one large result to MCP wire JSON, against the
//! size of that JSON.
//!
//! ```sh
//! large_result_memory [table|json|image|diff] [--rows N]
//! ```
//!
//! The rows (or bytes, or texts) are built first; then the peak resident set
//! is reset (`/proc/self/clear_refs`), the result is lowered to its wire JSON
//! string, and the growth of the peak (`VmHWM`) over the resident set before
//! is reported next to the length of the string. `serde_json::to_string` of
//! the same data is measured the same way for comparison.

use std::fs;

use codeagent_bench::large;

fn status_kib(field: &str) -> u64 {
    let status = fs::read_to_string("/proc/self/status").expect("/proc/self/status is readable");
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.trim().strip_suffix("kB")?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}

/// Runs `work` and returns (peak growth in bytes, output length).
fn measure(work: impl FnOnce() -> String) -> (u64, usize) {
    fs::write("/proc/self/clear_refs", "5").expect("the peak resident set can be reset");
    let before = status_kib("VmRSS:");
    let output = work();
    let peak = status_kib("VmHWM:");
    let len = output.len();
    drop(output);
    (peak.saturating_sub(before) * 1024, len)
}

fn report(what: &str, (peak, len): (u64, usize)) {
    let ratio = peak as f64 / len as f64;
    println!(
        "{what:<44} output {:>8.1} MB   peak growth {:>8.1} MB   {ratio:>5.2}x the output",
        len as f64 / 1e6,
        peak as f64 / 1e6
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "table".to_owned());
    let mut count = 100_000;
    while let Some(arg) = args.next() {
        if arg == "--rows" {
            count = args.next().and_then(|rows| rows.parse().ok()).expect("--rows takes a number");
        }
    }
    match kind.as_str() {
        "table" => {
            let rows = large::rows(count);
            report("serde_json::to_string(rows)", measure(|| serde_json::to_string(&rows).unwrap()));
            report(&format!("Table::from_rows({count} rows) to wire"), measure(|| large::table_wire(&rows)));
        }
        "json" => {
            let rows = large::rows(count);
            report("serde_json::to_string(rows)", measure(|| serde_json::to_string(&rows).unwrap()));
            report(&format!("Json({count} rows) to wire"), measure(|| large::json_wire(&rows)));
        }
        "image" => {
            let bytes = large::png_bytes(4 << 20);
            report("Image::from_bytes(4 MiB) to wire", measure(|| large::image_wire(&bytes)));
        }
        "diff" => {
            let (old, new) = large::diff_texts(50_000);
            report("Diff(50k lines) to wire", measure(|| large::diff_wire(&old, &new)));
        }
        other => {
            eprintln!("large_result_memory: unknown kind `{other}` (table, json, image or diff)");
            std::process::exit(2);
        }
    }
}
