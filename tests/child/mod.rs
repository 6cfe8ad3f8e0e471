//! Running an outside program to its end, as the interop, browser and host
//! tests do: both of its outputs read while it runs (so a full pipe never
//! stalls it), and killed when it runs past its time; and where those
//! programs are (the repository, its `.venv`, the examples).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How a program run with [`run_to_end`] ended.
pub(crate) struct Finished {
    /// Its exit status; `None` when it was killed.
    pub(crate) status: Option<ExitStatus>,
    /// What it wrote to standard output.
    pub(crate) stdout: String,
    /// What it wrote to standard error.
    pub(crate) stderr: String,
}

/// Runs `command` with no input until it exits, or kills it after `timeout`.
pub(crate) fn run_to_end(mut command: Command, timeout: Duration) -> Finished {
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = command.spawn().unwrap_or_else(|error| panic!("cannot start {command:?}: {error}"));
    let read_all = |mut pipe: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = read_all(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = read_all(Box::new(child.stderr.take().expect("piped stderr")));
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for the child") {
            break Some(status);
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        thread::sleep(Duration::from_millis(50));
    };
    Finished { status, stdout: stdout.join().unwrap_or_default(), stderr: stderr.join().unwrap_or_default() }
}

/// The repository's root.
pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Python of the repository's `.venv`.
pub(crate) fn venv_python() -> PathBuf {
    let venv = root().join(".venv");
    if cfg!(windows) { venv.join("Scripts").join("python.exe") } else { venv.join("bin").join("python") }
}

/// Whether the `.venv` Python imports `modules` (a comma-separated list).
#[allow(dead_code, reason = "the interop tests, which share this module, check their clients otherwise")]
pub(crate) fn venv_imports(modules: &str) -> bool {
    let python = venv_python();
    python.is_file()
        && Command::new(&python)
            .args(["-c", &format!("import {modules}")])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
}

/// The gallery example built next to the running test binary.
pub(crate) fn gallery() -> PathBuf {
    example("gallery")
}

/// Example `name` built next to the running test binary
/// (`target/<profile>/deps/<test>-<hash>` -> `target/<profile>/examples/<name>`).
pub(crate) fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>/deps/<test binary>");
    let binary = profile_dir.join("examples").join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        binary.is_file(),
        "the {name} example is not built at {}: `cargo test` builds it, `cargo test --test NAME` alone does not; \
         run `cargo build --example {name}` first",
        binary.display()
    );
    binary
}
