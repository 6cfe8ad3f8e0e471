//! Result budgets: a tool's result over its budget reaches the client as a
//! bounded preview plus a link (`codeagent://results/…`) to the whole result,
//! which the server keeps for a while and serves through `resources/read`.
//! The server's budget here is 2 KiB of text for the model; one tool has a
//! budget of its own, and one is never cut.
//!
//! ```sh
//! cargo run --example budgets                                   # serve MCP on stdio
//! cargo run --example budgets -- --call build_log '{"lines": 500}'   # --call is never cut
//! ```

use std::time::Duration;

use codeagent::Server;
use codeagent::prelude::*;
use codeagent::tools::ResultBudget;

/// The log of a build of `lines` lines, ending in its outcome.
fn log(lines: u32) -> String {
    let mut log: String = (1..=lines).map(|line| format!("[{line:05}] compiling crate-{line}\n")).collect();
    log.push_str(&format!("finished: {lines} crates built\n"));
    log
}

/// The whole build log, however long: over 2 KiB the model gets a preview and a link.
#[tool(read_only)]
fn build_log(
    /// How many lines (1 to 100000).
    #[schemars(range(min = 1, max = 100_000))]
    lines: u32,
) -> String {
    log(lines)
}

/// The build's summary, which the model must read whole: a budget of its own (64 KiB).
#[tool(read_only, result_budget(value = 65_536))]
fn build_summary(
    /// How many crates were built.
    crates: u32,
) -> String {
    let failed: Vec<String> = (1..=crates).filter(|crate_| crate_ % 97 == 0).map(|c| format!("crate-{c}")).collect();
    format!("{} crates built, {} failed: {}\n", crates, failed.len(), failed.join(", "))
}

/// The raw log for a host that stores it: never cut, at any size.
#[tool(read_only, result_budget(unlimited))]
fn raw_log(
    /// How many lines.
    lines: u32,
) -> String {
    log(lines)
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let toolbox = Toolbox::new().tool(build_log).tool(build_summary).tool(raw_log);
    Server::new(toolbox)
        .with_name("codeagent-budgets")
        .with_result_budget(ResultBudget::new().with_value_bytes(2 * 1024))
        .with_result_ttl(Duration::from_secs(5 * 60))
        .run()
        .await
}
