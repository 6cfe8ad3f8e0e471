//! `cargo codeagent dev`: the crate's server behind a gateway that stays up,
//! rebuilt and swapped in at each change of its sources.
//!
//! The gateway is a codeagent [`Server`] over a [`Toolbox`] into which the
//! server is mounted without a prefix ([`Toolbox::mount_removable`]). When a
//! change builds, the new server is started, connected and listed first;
//! then it takes the old one's place in one step ([`Mount::replace`]): a
//! change of the toolbox's lists that the gateway announces to its client
//! (`notifications/tools/list_changed`, and resources and prompts likewise),
//! so the client never sees an empty list. The old server is closed 30
//! seconds later, once its calls in flight are answered. A build that fails changes nothing: the last
//! good server keeps answering, and the compiler's errors go to stderr and,
//! as a `notifications/message` log at level `error`, to the client (a good
//! reload is a log at level `info`). With `--http ADDR --ui` the gateway
//! also serves the host page, which re-lists the tools at each reload and
//! shows a failed build's errors in a banner.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::Duration;

use codeagent::client::{Client, Handlers, Mount};
use codeagent::toolbox::LogLevel;
use codeagent::{Server, Toolbox};
use notify::{RecursiveMode, Watcher};
use tokio::sync::mpsc;

use crate::project::{Project, cargo};
use crate::{Failure, ManifestArgs};

/// How long the sources must be quiet before a rebuild: an editor's save
/// (or `cargo fmt`) is several events.
const DEBOUNCE: Duration = Duration::from_millis(300);

/// How long a replaced server has to answer the calls it was given.
const RETIRE_GRACE: Duration = Duration::from_secs(30);

/// The longest compiler output sent to the client in one log message.
const LOG_LIMIT: usize = 16 * 1024;

/// The arguments of `cargo codeagent dev`.
#[derive(Debug, clap::Args)]
pub(crate) struct DevArgs {
    #[command(flatten)]
    manifest: ManifestArgs,
    /// Serve over Streamable HTTP on ADDR (for example 127.0.0.1:8000) as
    /// well as on stdio.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// With --http: also serve the host page at http://ADDR/, where the tools
    /// can be tried in a browser; it re-lists them at each reload and shows
    /// a failed build's errors in a banner.
    #[arg(long, requires = "http")]
    ui: bool,
    /// The arguments the server is started with (after `--`).
    #[arg(last = true, value_name = "SERVER ARGS")]
    server_args: Vec<String>,
}

/// Runs `cargo codeagent dev` until the client closes stdin (or Ctrl-C).
pub(crate) fn run(args: DevArgs) -> Result<ExitCode, Failure> {
    let project = Project::locate(&args.manifest, "dev")?;
    crate::runtime()?.block_on(serve(project, args))
}

/// A server started from one build, and mounted.
struct Running {
    mount: Mount,
    /// The copy of the binary it runs, deleted when it is replaced.
    binary: PathBuf,
}

impl Running {
    /// Takes the server out of the gateway, stops it, and deletes its binary.
    fn retire(self) {
        let client = self.mount.client().clone();
        self.mount.unmount();
        client.close();
        let _ = std::fs::remove_file(&self.binary);
    }
}

async fn serve(project: Project, args: DevArgs) -> Result<ExitCode, Failure> {
    let (changes, mut changed) = mpsc::unbounded_channel();
    let _watcher = watch(&project.dir, changes)?;
    let toolbox = Toolbox::new();
    let runs = project.target_dir.join("codeagent-dev");
    std::fs::create_dir_all(&runs).map_err(|error| format!("cannot create {}: {error}", runs.display()))?;
    let mut generation = 0_u64;

    // The first good build, before serving: the client's first listing then
    // has the server's tools (its initialize waits in the pipe until then).
    let first = loop {
        generation += 1;
        match start(&project, &args.server_args, &runs, generation, &toolbox).await {
            Ok(running) => break running,
            Err(failure) => {
                eprintln!("[dev] {failure}");
                eprintln!("[dev] waiting for a change to {} to build again", project.dir.display());
                if !next_change(&mut changed).await {
                    return Err("the file watcher stopped".to_owned());
                }
            }
        }
    };
    eprintln!("[dev] serving {} on stdio; watching src/ and Cargo.toml", project.name);

    let server = Server::new(toolbox.clone())
        .with_name(format!("{} (cargo codeagent dev)", project.name))
        .with_version(project.version.clone());
    let http = {
        let server = server.clone();
        let address = args.http;
        let ui = args.ui;
        let mut options = codeagent::server::http::HttpOptions::default();
        if ui {
            options = options.with_host_page();
        }
        async move {
            match address {
                Some(address) => {
                    eprintln!("[dev] also serving http://{address}/mcp");
                    if ui {
                        eprintln!("[dev] the host page: http://{address}/");
                    }
                    server.serve_http(address, options).await
                }
                None => std::future::pending().await,
            }
        }
    };
    let mut running = Some(first);
    let reload = async {
        while next_change(&mut changed).await {
            generation += 1;
            eprintln!("[dev] change seen: rebuilding {}", project.name);
            let (now, failure) =
                start_beside(&project, &args.server_args, &runs, generation, &toolbox, running.take()).await;
            running = now;
            match failure {
                None => {
                    eprintln!("[dev] reloaded: the client was sent list_changed for tools, resources and prompts");
                    toolbox.log(LogLevel::Info, dev_log(&format!("{} rebuilt and reloaded", project.name)));
                }
                Some(failure) => {
                    let kept = if running.is_some() {
                        "the last good server keeps serving"
                    } else {
                        "no server is running until the next good build"
                    };
                    eprintln!("[dev] {failure}\n[dev] {kept}");
                    toolbox.log(LogLevel::Error, dev_log(&format!("{failure}\n({kept})")));
                }
            }
        }
    };
    let outcome = tokio::select! {
        served = server.serve_stdio() => served.map_err(|error| format!("serving stdio: {error}")),
        served = http => served.map_err(|error| format!("serving HTTP on {}: {error}", args.http.map(|a| a.to_string()).unwrap_or_default())),
        () = reload => Err("the file watcher stopped".to_owned()),
        _ = tokio::signal::ctrl_c() => Ok(()),
    };
    // The server stops (its process is killed if it does not exit), and the
    // copies of its binary go.
    if let Some(last) = running.take() {
        last.retire();
    }
    let _ = std::fs::remove_dir_all(&runs);
    outcome.map(|()| ExitCode::SUCCESS)
}

/// The data of a log message of `dev` (a reload, or the compiler's errors),
/// cut to `LOG_LIMIT` bytes.
fn dev_log(message: &str) -> serde_json::Value {
    let mut text = message.to_owned();
    if text.len() > LOG_LIMIT {
        let mut end = LOG_LIMIT;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push_str("\n[...]");
    }
    serde_json::json!({ "source": "cargo codeagent dev", "message": text })
}

/// Builds, starts and mounts the server while `old` keeps serving; gives the
/// new one (`old` retired), or what serves now and why the new one could not.
async fn start_beside(
    project: &Project,
    server_args: &[String],
    runs: &Path,
    generation: u64,
    toolbox: &Toolbox,
    old: Option<Running>,
) -> (Option<Running>, Option<Failure>) {
    let (binary, client) = match build_and_connect(project, server_args, runs, generation).await {
        Ok(started) => started,
        Err(failure) => return (old, Some(failure)),
    };
    let Some(old) = old else {
        return match mount(toolbox, binary, client).await {
            Ok(running) => (Some(running), None),
            Err(failure) => (None, Some(failure)),
        };
    };
    let Running { mut mount, binary: old_binary } = old;
    // Its lists read first, the new server takes the old one's place at once.
    match mount.replace(client.clone()).await {
        Ok(old_client) => {
            // Calls in flight on the old server get a moment to be answered.
            tokio::spawn(async move {
                tokio::time::sleep(RETIRE_GRACE).await;
                old_client.close();
                let _ = tokio::fs::remove_file(&old_binary).await;
            });
            (Some(Running { mount, binary }), None)
        }
        Err(error) => {
            client.close();
            let _ = std::fs::remove_file(&binary);
            (Some(Running { mount, binary: old_binary }), Some(format!("the new server could not be served: {error}")))
        }
    }
}

/// Mounts the server behind `client` (running `binary`); closes it and
/// deletes `binary` when it cannot be.
async fn mount(toolbox: &Toolbox, binary: PathBuf, client: Client) -> Result<Running, Failure> {
    match toolbox.mount_removable(None, client.clone()).await {
        Ok(mount) => Ok(Running { mount, binary }),
        Err(error) => {
            client.close();
            let _ = std::fs::remove_file(&binary);
            Err(format!("the server started but could not be served: {error}"))
        }
    }
}

/// Builds, starts and mounts the first server.
async fn start(
    project: &Project,
    server_args: &[String],
    runs: &Path,
    generation: u64,
    toolbox: &Toolbox,
) -> Result<Running, Failure> {
    let (binary, client) = build_and_connect(project, server_args, runs, generation).await?;
    mount(toolbox, binary, client).await
}

/// Builds the server, copies its binary to `runs` (so the next build can
/// replace the original while this one runs) and connects to it.
async fn build_and_connect(
    project: &Project,
    server_args: &[String],
    runs: &Path,
    generation: u64,
) -> Result<(PathBuf, Client), Failure> {
    let built = build(project).await?;
    let binary = runs.join(format!("{}-{generation}{}", project.bin, std::env::consts::EXE_SUFFIX));
    tokio::fs::copy(&built, &binary)
        .await
        .map_err(|error| format!("cannot copy {} to {}: {error}", built.display(), binary.display()))?;
    let mut command = tokio::process::Command::new(&binary);
    command.args(server_args).current_dir(&project.dir);
    let connected = Client::builder()
        .handlers(Handlers::forward())
        .client_info("cargo-codeagent-dev", env!("CARGO_PKG_VERSION"))
        .stdio(command)
        .await;
    match connected {
        Ok(client) => Ok((binary, client)),
        Err(error) => {
            let _ = std::fs::remove_file(&binary);
            Err(format!("the server built but did not start: {error}"))
        }
    }
}

/// `cargo build` of the server; its errors, as the compiler printed them, when it fails.
async fn build(project: &Project) -> Result<PathBuf, Failure> {
    let output = tokio::process::Command::from(cargo())
        .args(["build", "--color", "never", "--profile", &project.profile, "--manifest-path"])
        .arg(&project.manifest)
        .args(["--package", &project.name, "--bin", &project.bin])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .await
        .map_err(|error| format!("cannot run cargo build: {error}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("cargo build of {} failed:\n{}", project.name, compiler_errors(&stderr)));
    }
    let binary = project.binary();
    if !binary.is_file() {
        return Err(format!("cargo build succeeded but there is no binary at {}", binary.display()));
    }
    Ok(binary)
}

/// Cargo's output from its first warning or error on, without its progress lines.
fn compiler_errors(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|line| {
            let trimmed = line.trim_start();
            !(trimmed.starts_with("Compiling ") || trimmed.starts_with("Blocking ") || trimmed.starts_with("Checking "))
        })
        .collect();
    lines.join("\n").trim().to_owned()
}

/// Watches `src/` (recursively), `Cargo.toml` and `build.rs` in `dir`; each
/// change is a message on `changes`.
fn watch(dir: &Path, changes: mpsc::UnboundedSender<()>) -> Result<notify::RecommendedWatcher, Failure> {
    let files = [dir.join("Cargo.toml"), dir.join("build.rs")];
    let src = dir.join("src");
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if event.kind.is_access() {
            return;
        }
        let relevant = event.paths.iter().any(|path| path.starts_with(&src) || files.contains(path));
        if relevant {
            let _ = changes.send(());
        }
    })
    .map_err(|error| format!("cannot watch files: {error}"))?;
    let src = dir.join("src");
    watcher
        .watch(&src, RecursiveMode::Recursive)
        .map_err(|error| format!("cannot watch {}: {error}", src.display()))?;
    // The directory, not the file: an editor that saves by renaming over
    // Cargo.toml would end a watch of the file itself.
    watcher
        .watch(dir, RecursiveMode::NonRecursive)
        .map_err(|error| format!("cannot watch {}: {error}", dir.display()))?;
    Ok(watcher)
}

/// Waits for a change, then for `DEBOUNCE` of quiet; false when the watcher stopped.
async fn next_change(changed: &mut mpsc::UnboundedReceiver<()>) -> bool {
    if changed.recv().await.is_none() {
        return false;
    }
    loop {
        match tokio::time::timeout(DEBOUNCE, changed.recv()).await {
            Ok(Some(())) => continue,
            Ok(None) => return false,
            Err(_quiet) => return true,
        }
    }
}
