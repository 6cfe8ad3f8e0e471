//! What the benchmark harnesses share: the calls of `add` and the check of
//! their answers, percentiles and medians, CPU times from `/proc`, and the
//! wait for a quiet machine; in [`large`], the large results of
//! `benches/large_results.rs` and `src/bin/large_result_memory.rs`; and, in
//! [`clients`], the two MCP clients of `src/bin/client_bench.rs`.

pub mod clients;
pub mod large;
pub mod rmcp_adder;

use std::borrow::Cow;
use std::time::{Duration, Instant};

use serde::Deserialize;

/// The arguments of call `id`: varied, some negative, never overflowing.
pub fn operands(id: u64) -> (i64, i64) {
    let a = i64::try_from(id.wrapping_mul(2_654_435_761) % 2_000_001).unwrap_or(0) - 1_000_000;
    let b = i64::try_from(id % 100_003).unwrap_or(0) * 7 - 350_000;
    (a, b)
}

/// A JSON-RPC message from the server, borrowing its strings where it can.
#[derive(Deserialize)]
pub struct Response<'a> {
    /// The id it answers (a request or response has one).
    pub id: Option<serde_json::Value>,
    /// The method, for a notification or a request from the server.
    #[serde(borrow)]
    pub method: Option<Cow<'a, str>>,
    /// The result of a call.
    #[serde(borrow)]
    pub result: Option<CallResult<'a>>,
    /// The JSON-RPC error, if the call failed.
    pub error: Option<serde_json::Value>,
}

/// The result of `tools/call`.
#[derive(Deserialize)]
pub struct CallResult<'a> {
    /// The content blocks.
    #[serde(borrow, default)]
    pub content: Vec<Block<'a>>,
    /// Whether the tool failed.
    #[serde(rename = "isError")]
    pub is_error: Option<bool>,
}

/// One content block of a result.
#[derive(Deserialize)]
pub struct Block<'a> {
    /// The block's type (`text`, ...).
    #[serde(rename = "type", borrow)]
    pub kind: Cow<'a, str>,
    /// The text of a text block.
    #[serde(borrow)]
    pub text: Option<Cow<'a, str>>,
}

/// Why a response is wrong, or `None` when it answers call `id` of
/// `add(operands(id))` correctly: one text block holding `a + b`.
pub fn check(id: u64, response: &Response<'_>) -> Option<String> {
    if let Some(error) = &response.error {
        return Some(format!("id {id}: JSON-RPC error {error}"));
    }
    let Some(result) = &response.result else { return Some(format!("id {id}: no result")) };
    if result.is_error == Some(true) {
        return Some(format!("id {id}: isError"));
    }
    let (a, b) = operands(id);
    match result.content.as_slice() {
        [Block { kind, text: Some(text) }] if kind == "text" && text.parse::<i64>() == Ok(a + b) => None,
        _ => Some(format!("id {id}: content is not the text {}", a + b)),
    }
}

/// The value at `fraction` (0.5 for the median) of `sorted` nanoseconds, in
/// microseconds.
///
/// # Panics
///
/// When `sorted` is empty.
pub fn percentile(sorted: &[u64], fraction: f64) -> f64 {
    let rank = ((sorted.len() as f64) * fraction).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1000.0
}

/// The median of `values` (the mean of the middle two for an even count).
///
/// # Panics
///
/// When `values` is empty.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let middle = values.len() / 2;
    if values.len() % 2 == 1 { values[middle] } else { (values[middle - 1] + values[middle]) / 2.0 }
}

/// CPU time this process has used so far, exited threads included (from
/// /proc/self/stat, in clock ticks of 10 ms).
pub fn own_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // Fields after the command start at the state (field 3): utime is 14, stime 15.
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// CPU time used so far by the live threads of process `pid` (from
/// /proc/PID/task/*/schedstat, nanoseconds on the CPU).
pub fn cpu_time_of(pid: u32) -> Option<Duration> {
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task")).ok()?;
    let mut total = 0u64;
    for task in tasks.flatten() {
        let stat = std::fs::read_to_string(task.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// The resident set of process `pid` in bytes (`VmRSS` of /proc/PID/status).
pub fn rss_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Whether a compiler or linker is running on this machine: its CPU use
/// would distort the numbers on two cores.
pub fn compiler_running() -> bool {
    let Ok(processes) = std::fs::read_dir("/proc") else { return false };
    processes.flatten().any(|entry| {
        std::fs::read_to_string(entry.path().join("comm")).is_ok_and(|comm| {
            matches!(comm.trim(), "rustc" | "cc1" | "cc1plus" | "ld" | "ld.lld" | "mold" | "clippy-driver")
        })
    })
}

/// Waits until no compiler runs, for at most `limit`; whether it got there.
pub fn wait_for_idle(limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    let mut told = false;
    while compiler_running() {
        if Instant::now() >= deadline {
            return false;
        }
        if !told {
            eprintln!("waiting for running compilers to finish...");
            told = true;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    true
}
