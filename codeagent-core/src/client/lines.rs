//! The stdio transport: newline-delimited JSON over any byte stream pair, and
//! over a child process's stdin and stdout, its stderr kept.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::ClientError;
use super::wire::{Inbound, Line, Outgoing, Request, Wire};
use crate::log_text::escaped;
use crate::mcp::ProtocolVersion;

/// The variables of the client's own environment a server process gets
/// (when set), as the official MCP SDKs pass them: enough to find programs
/// and a home, nothing that holds a secret. Everything else it gets only
/// when given ([`ClientBuilder::env`](super::ClientBuilder::env),
/// [`ClientBuilder::inherit_env`](super::ClientBuilder::inherit_env), or set
/// on the `Command` itself).
#[cfg(not(windows))]
pub const INHERITED_ENV: &[&str] = &["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];
/// The variables of the client's own environment a server process gets
/// (when set), as the official MCP SDKs pass them: enough to find programs,
/// a home and a temporary folder, nothing that holds a secret. Everything
/// else it gets only when given ([`ClientBuilder::env`](super::ClientBuilder::env),
/// [`ClientBuilder::inherit_env`](super::ClientBuilder::inherit_env), or set
/// on the `Command` itself).
#[cfg(windows)]
pub const INHERITED_ENV: &[&str] = &[
    "APPDATA",
    "HOMEDRIVE",
    "HOMEPATH",
    "LOCALAPPDATA",
    "PATH",
    "PROCESSOR_ARCHITECTURE",
    "PROGRAMFILES",
    "SYSTEMDRIVE",
    "SYSTEMROOT",
    "TEMP",
    "USERNAME",
    "USERPROFILE",
];

/// A variable given to a server process: a value, or the client's own (`None`).
pub(crate) type EnvVar = (String, Option<String>);

/// Gives `command` the minimal environment: [`INHERITED_ENV`] from the
/// client's own (a value starting `()`, an exported shell function, is left
/// out), then the variables set on `command` itself, then `given`.
fn minimal_env(command: &mut Command, given: &[EnvVar]) {
    let explicit: Vec<(std::ffi::OsString, Option<std::ffi::OsString>)> = command
        .as_std()
        .get_envs()
        .map(|(key, value)| (key.to_owned(), value.map(std::ffi::OsStr::to_owned)))
        .collect();
    command.env_clear();
    for key in INHERITED_ENV {
        if let Some(value) = std::env::var_os(key).filter(|value| !value.as_encoded_bytes().starts_with(b"()")) {
            command.env(key, value);
        }
    }
    for (key, value) in explicit {
        match value {
            Some(value) => command.env(key, value),
            None => command.env_remove(key),
        };
    }
    for (key, value) in given {
        match value {
            Some(value) => {
                command.env(key, value);
            }
            None => {
                if let Some(own) = std::env::var_os(key) {
                    command.env(key, own);
                }
            }
        }
    }
}
/// How much of a process's stderr is kept.
const STDERR_KEPT: usize = 16 * 1024;

/// The end of a process's standard error.
#[derive(Clone, Default)]
struct Stderr(Arc<Mutex<VecDeque<u8>>>);

impl Stderr {
    fn push(&self, bytes: &[u8]) {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.extend(bytes);
        let excess = kept.len().saturating_sub(STDERR_KEPT);
        kept.drain(..excess);
    }

    fn text(&self) -> String {
        let kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let bytes: Vec<u8> = kept.iter().copied().collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Lines over a stream pair, perhaps a child process's.
pub(crate) struct Lines {
    out: mpsc::UnboundedSender<Vec<u8>>,
    tasks: Vec<JoinHandle<()>>,
    stderr: Option<Stderr>,
    child: Option<Arc<tokio::sync::Mutex<Child>>>,
}

impl Lines {
    /// Lines over `reader` and `writer`; what arrives goes to `inbox`.
    /// Lines longer than `limit` bytes end the connection.
    pub(crate) fn over<R, W>(reader: R, writer: W, limit: usize, inbox: mpsc::UnboundedSender<Inbound>) -> Lines
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        Lines::start(reader, writer, limit, inbox, None, None)
    }

    /// Starts `command` with the minimal environment and `env`, and speaks
    /// lines over its stdin and stdout.
    pub(crate) fn spawn(
        mut command: Command,
        env: &[EnvVar],
        limit: usize,
        inbox: mpsc::UnboundedSender<Inbound>,
    ) -> Result<Lines, ClientError> {
        let program = command.as_std().get_program().to_string_lossy().into_owned();
        minimal_env(&mut command, env);
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
        let mut child = command.spawn().map_err(|source| ClientError::Spawn { command: program, source })?;
        let (Some(stdin), Some(stdout), Some(mut stderr_pipe)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(ClientError::Closed { reason: "the process's pipes were not opened".into() });
        };
        let stderr = Stderr::default();
        let kept = stderr.clone();
        let drain = tokio::spawn(async move {
            let mut buffer = vec![0u8; 8192];
            while let Ok(read) = stderr_pipe.read(&mut buffer).await {
                if read == 0 {
                    break;
                }
                kept.push(&buffer[..read]);
            }
        });
        let child = Arc::new(tokio::sync::Mutex::new(child));
        let mut lines = Lines::start(stdout, stdin, limit, inbox, Some(stderr), Some(Arc::clone(&child)));
        lines.tasks.push(drain);
        Ok(lines)
    }

    fn start<R, W>(
        reader: R,
        writer: W,
        limit: usize,
        inbox: mpsc::UnboundedSender<Inbound>,
        stderr: Option<Stderr>,
        child: Option<Arc<tokio::sync::Mutex<Child>>>,
    ) -> Lines
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (out, outgoing) = mpsc::unbounded_channel();
        let writing = tokio::spawn(write_loop(writer, outgoing));
        let ending = Ending { stderr: stderr.clone(), child: child.clone() };
        let reading = tokio::spawn(read_loop(reader, limit, inbox, ending));
        Lines { out, tasks: vec![writing, reading], stderr, child }
    }
}

impl Drop for Lines {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl Wire for Lines {
    fn send(&self, outgoing: Outgoing) -> Result<(), ClientError> {
        let mut line =
            serde_json::to_vec(&outgoing.message).map_err(|error| ClientError::Invalid(error.to_string()))?;
        line.push(b'\n');
        self.out.send(line).map_err(|_| ClientError::Closed { reason: "the server's input is closed".into() })
    }

    fn send_request(&self, request: Request<'_>) -> Result<(), ClientError> {
        // Written straight from the borrowed params: no copy of them, no `Value` of the message.
        let mut line = Vec::with_capacity(256);
        serde_json::to_writer(&mut line, &request).map_err(|error| ClientError::Invalid(error.to_string()))?;
        line.push(b'\n');
        self.out.send(line).map_err(|_| ClientError::Closed { reason: "the server's input is closed".into() })
    }

    fn abandon(&self, _id: u64) {}

    fn open_events(&self, _version: ProtocolVersion) -> Pin<Box<dyn Future<Output = bool> + Send + '_>> {
        Box::pin(std::future::ready(false))
    }

    fn close(&self) {
        for task in &self.tasks {
            task.abort();
        }
        if let Some(mut child) = self.child.as_ref().and_then(|child| child.try_lock().ok()) {
            let _ = child.start_kill();
        }
    }

    fn stderr(&self) -> Option<String> {
        self.stderr.as_ref().map(Stderr::text)
    }
}

/// What to say when the stream ends.
struct Ending {
    stderr: Option<Stderr>,
    child: Option<Arc<tokio::sync::Mutex<Child>>>,
}

impl Ending {
    async fn reason(&self, what: String) -> String {
        let mut reason = what;
        if let Some(child) = &self.child {
            let mut child = child.lock().await;
            match tokio::time::timeout(Duration::from_secs(2), child.wait()).await {
                Ok(Ok(status)) => reason.push_str(&format!("; the process exited with {status}")),
                Ok(Err(error)) => reason.push_str(&format!("; waiting for the process failed: {error}")),
                Err(_) => reason.push_str("; the process is still running"),
            }
        }
        if let Some(stderr) = &self.stderr {
            // The reader of stderr may still hold the last lines for a moment.
            tokio::time::sleep(Duration::from_millis(20)).await;
            let text = stderr.text();
            let tail: Vec<&str> = text.lines().rev().take(5).collect::<Vec<_>>().into_iter().rev().collect();
            if !tail.is_empty() {
                // The server's own text, made one line without control characters or escape sequences.
                reason.push_str(&format!("; its stderr ends: {}", escaped(&tail.join(" | "))));
            }
        }
        reason
    }
}

async fn read_loop<R: AsyncRead + Unpin>(
    reader: R,
    limit: usize,
    inbox: mpsc::UnboundedSender<Inbound>,
    ending: Ending,
) {
    let mut reader = BufReader::with_capacity(64 * 1024, reader);
    let mut line = Vec::new();
    let mut number = 0u64;
    let what = loop {
        line.clear();
        // At most one byte past the limit is held: a line without end is refused, not grown.
        let read = (&mut reader).take(limit as u64 + 1).read_until(b'\n', &mut line).await;
        match read {
            Ok(0) => break "the server's output ended".to_owned(),
            Err(error) => break format!("reading the server's output failed: {error}"),
            Ok(_) => {}
        }
        number += 1;
        if line.len() > limit {
            let what = format!("line {number} of the server's output");
            break ClientError::TooLarge { what, limit }.to_string();
        }
        let text = line.trim_ascii();
        if text.is_empty() {
            continue;
        }
        let inbound = match serde_json::from_slice::<Line>(text) {
            Ok(Line::Batch(batch)) => {
                for message in batch {
                    let _ = inbox.send(Inbound::Message(message));
                }
                continue;
            }
            Ok(Line::Object(members)) => Inbound::Members(members),
            Ok(Line::Other(message)) => Inbound::Message(message),
            Err(error) => {
                let start: String = String::from_utf8_lossy(text).chars().take(120).collect();
                Inbound::Problem(format!("line {number} of the server's output is not JSON ({error}): {start}"))
            }
        };
        if inbox.send(inbound).is_err() {
            return;
        }
    };
    let _ = inbox.send(Inbound::Closed(ending.reason(what).await));
}

async fn write_loop<W: AsyncWrite + Unpin>(writer: W, mut outgoing: mpsc::UnboundedReceiver<Vec<u8>>) {
    let mut writer = BufWriter::new(writer);
    while let Some(line) = outgoing.recv().await {
        if writer.write_all(&line).await.is_err() {
            return;
        }
        while let Ok(line) = outgoing.try_recv() {
            if writer.write_all(&line).await.is_err() {
                return;
            }
        }
        if writer.flush().await.is_err() {
            return;
        }
    }
    let _ = writer.shutdown().await;
}
