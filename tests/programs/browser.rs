//! The browser side in a real browser: Debian's `chromium` driven by
//! Playwright for Python (`tests/browser/*.py`, run with pytest).
//!
//! This test starts what the Python tests talk to: the gallery example with
//! `--http ADDR --ui` (the host page and MCP endpoint of a real server), and
//! an in-process fixture server (`tests/browser/fixtures.rs`) with the host
//! page, whose tools echo their arguments into every field of every kind.
//! It writes the renderer-versus-card cases (`codeagent::display::render`
//! beside the MCP result of the same tool result) to a scratch folder, then
//! runs pytest and fails with its output when a browser test fails.
//!
//! Prerequisites (installed by `bash tests/browser/install.sh`, which
//! `.ci/run` runs): the `chromium` Debian package, Playwright in `.venv`, and
//! the test host's bundle of the official MCP Apps `AppBridge` in
//! `tests/browser/host/dist`. The test is `#[ignore]`d, so `cargo test
//! --workspace` leaves it out; `-- --include-ignored` runs it, and then a
//! missing prerequisite is a failure naming it, never a pass. Screenshots go
//! to a scratch folder, or to `CODEAGENT_SCREENSHOTS` (relative to the
//! repository) when set: `CODEAGENT_SCREENSHOTS=docs/screenshots`.
//!
//! `cargo test --test programs browser` does not build the gallery example: run
//! `cargo build --example gallery` first.

use crate::child;
#[path = "../browser/fixtures.rs"]
mod fixtures;

use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;

use child::{gallery, root, venv_imports, venv_python};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use codeagent::Server;
use codeagent::server::http::HttpOptions;

/// How long the whole browser suite may run before it is killed.
const TIMEOUT: Duration = Duration::from_secs(300);

const INSTALL_HINT: &str = "run `bash tests/browser/install.sh` (it installs the Debian `chromium` package when \
     missing, Playwright into .venv from PyPI and the test host's npm packages), then \
     `cargo build --example gallery && cargo test --test programs browser -- --include-ignored`";

fn loud(message: &str) {
    let _ = writeln!(std::io::stderr(), "{message}");
}

fn chromium() -> PathBuf {
    std::env::var_os("CODEAGENT_CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// What is missing for the browser tests, one line each.
fn missing_prerequisites() -> Vec<String> {
    let mut missing = Vec::new();
    let python = venv_python();
    let playwright = venv_imports("playwright.sync_api, pytest");
    if !playwright {
        missing.push(format!("Playwright and pytest in {}", python.display()));
    }
    if !chromium().is_file() {
        missing.push(format!("the browser {} (Debian package `chromium`)", chromium().display()));
    }
    let bridge = root().join("tests/browser/host/dist/bridge.js");
    if !bridge.is_file() {
        missing.push(format!("the AppBridge bundle {}", bridge.display()));
    }
    missing
}

/// A loopback port free at the time of asking.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|listener| listener.local_addr()).expect("a free port").port()
}

/// The gallery serving `--http 127.0.0.1:PORT --ui`; killed when dropped.
struct Gallery {
    child: Child,
    addr: SocketAddr,
}

impl Gallery {
    fn start() -> Gallery {
        let addr = SocketAddr::from(([127, 0, 0, 1], free_port()));
        let child = Command::new(gallery())
            .arg("--http")
            .arg(addr.to_string())
            .arg("--ui")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting the gallery example");
        let started = Instant::now();
        while TcpStream::connect(addr).is_err() {
            assert!(started.elapsed() < Duration::from_secs(20), "the gallery did not listen on {addr}");
            thread::sleep(Duration::from_millis(50));
        }
        Gallery { child, addr }
    }
}

impl Drop for Gallery {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The fixture server with the host page, on a free loopback port.
async fn fixture_server() -> (SocketAddr, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("binding 127.0.0.1:0");
    let addr = listener.local_addr().expect("the fixture server's address");
    let server = Server::new(fixtures::toolbox()).with_name("browser-fixtures").with_version("1.0.0");
    let router = server.http_router(HttpOptions::new().with_host_page()).await.expect("the fixtures endpoint");
    let task = tokio::spawn(async move {
        axum::serve(listener, router).await.expect("serving the fixtures");
    });
    (addr, task)
}

/// A scratch folder, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Scratch {
        let dir = std::env::temp_dir().join(format!("codeagent-browser-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("creating the scratch folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs pytest to completion (killed after [`TIMEOUT`]); its status, output
/// and whether it timed out.
fn run_pytest(command: Command) -> (Option<std::process::ExitStatus>, String, bool) {
    let finished = child::run_to_end(command, TIMEOUT);
    (finished.status, format!("{}{}", finished.stdout, finished.stderr), finished.status.is_none())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs chromium, Playwright and the AppBridge bundle: run bash tests/browser/install.sh, then cargo test -- --include-ignored"]
async fn browser_suite() {
    let missing = missing_prerequisites();
    assert!(missing.is_empty(), "browser tests: {} missing; {INSTALL_HINT}", missing.join(", "));
    let gallery = Gallery::start();
    let (fixtures_addr, fixtures_task) = fixture_server().await;
    let scratch = Scratch::new();
    let cases = serde_json::to_string_pretty(&fixtures::card_cases()).expect("the card cases as JSON");
    std::fs::write(scratch.0.join("cards.json"), cases).expect("writing cards.json");
    let screenshots = std::env::var_os("CODEAGENT_SCREENSHOTS")
        .map_or_else(|| scratch.0.join("screenshots"), |dir| root().join(PathBuf::from(dir)));

    let mut command = Command::new(venv_python());
    command
        .args(["-m", "pytest", "tests/browser", "-q", "-p", "no:cacheprovider", "-o", "console_output_style=classic"])
        .current_dir(root())
        .env("CODEAGENT_GALLERY_URL", format!("http://{}", gallery.addr))
        .env("CODEAGENT_FIXTURES_URL", format!("http://{fixtures_addr}"))
        .env("CODEAGENT_CARDS", scratch.0.join("cards.json"))
        .env("CODEAGENT_SCREENSHOTS", &screenshots)
        .env("CODEAGENT_CHROMIUM", chromium());
    let started = Instant::now();
    let (status, output, timed_out) = tokio::task::spawn_blocking(move || run_pytest(command)).await.expect("pytest");
    fixtures_task.abort();
    drop(gallery);
    println!("{output}");
    let summary = output.lines().rev().find(|line| line.contains(" passed") || line.contains(" failed"));
    loud(&format!(
        "browser tests: {} ({:.1} s; screenshots in {})",
        summary.unwrap_or("no summary line"),
        started.elapsed().as_secs_f64(),
        screenshots.display()
    ));
    assert!(!timed_out, "browser tests: killed after {} s", TIMEOUT.as_secs());
    let status = status.expect("a finished pytest has a status");
    assert!(status.success(), "browser tests failed ({status}): the pytest output above says which and why");
}
