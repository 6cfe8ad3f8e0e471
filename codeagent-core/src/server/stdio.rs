//! MCP over a byte stream (stdio, or any `AsyncRead + AsyncWrite` pair):
//! newline-delimited JSON-RPC. This module only frames messages; the engine
//! decides everything else. Requests run concurrently; responses and
//! notifications share one writer.
//!
//! A request decided while reading (an error, a listing, a call that finishes
//! when first polled, as an inline tool does) is answered without a task of
//! its own, and such answers go to the writer together, once the input read so
//! far is handled.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::engine::{Engine, Reply, Route};
use super::jsonrpc::{INVALID_REQUEST, Incoming, RpcError, read};
use super::lines::{Line, LineReader};
use super::outgoing::Outgoing;
use super::outlet::Outlet;
use super::peer::Peer;

/// How many outgoing messages may wait for the writer before progress and log
/// notifications are dropped (responses always wait their turn).
const OUTGOING_CAPACITY: usize = 4096;

/// Answers gathered while reading are handed to the writer once they reach
/// this size, even if more input is buffered.
const BATCH_BYTES: usize = 64 * 1024;

/// The connection's output: each item one or more whole lines.
#[derive(Clone)]
struct Lines(mpsc::Sender<Vec<u8>>);

/// Appends `message` to `bytes` as one line.
fn append_line(bytes: &mut Vec<u8>, message: &Value) {
    // Writing a `Value` into memory cannot fail.
    let _ = serde_json::to_writer(&mut *bytes, message);
    bytes.push(b'\n');
}

fn line(message: &Value) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(128);
    append_line(&mut bytes, message);
    bytes
}

/// Appends response `message` to `bytes` as one line.
fn append_response(bytes: &mut Vec<u8>, message: &Outgoing) {
    message.write_to(bytes);
    bytes.push(b'\n');
}

impl Lines {
    /// Sends a response, waiting for room.
    async fn send(&self, message: Outgoing) {
        let _ = self.0.send(message.into_line()).await;
    }

    /// Sends lines already written, waiting for room.
    async fn send_lines(&self, lines: Vec<u8>) {
        let _ = self.0.send(lines).await;
    }
}

impl Outlet for Lines {
    fn push(&self, message: &Value) -> bool {
        self.0.try_send(line(message)).is_ok()
    }

    fn closed(&self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(self.0.closed())
    }
}

/// Serves one connection until the client closes its input; requests still
/// running then finish and are answered before this returns.
pub(crate) async fn serve_stream<R, W>(engine: Arc<Engine>, reader: R, writer: W, limit: usize) -> std::io::Result<()>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sender, receiver) = mpsc::channel::<Vec<u8>>(OUTGOING_CAPACITY);
    let writer = tokio::spawn(write_loop(writer, receiver));
    let out = Lines(sender);
    let route = Route::to(Arc::new(out.clone()));
    let peer = Peer::new();
    let mut requests = JoinSet::new();
    let announcer = {
        let (engine, peer, out) = (Arc::clone(&engine), Arc::clone(&peer), out.clone());
        let changes = engine.list_changes();
        tokio::spawn(async move { engine.announce_list_changes(&peer, &out, changes).await })
    };

    let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, reader), limit);
    // The answers decided since the writer was last handed some.
    let mut answered = Vec::new();
    let outcome = loop {
        if !answered.is_empty() && (answered.len() >= BATCH_BYTES || !lines.has_line()) {
            out.send_lines(std::mem::take(&mut answered)).await;
        }
        let message = match lines.next().await {
            Ok(Some(Line::Message(bytes))) => read(bytes),
            Ok(Some(Line::TooLong(length))) => Incoming::Invalid {
                id: Value::Null,
                error: RpcError::new(
                    INVALID_REQUEST,
                    format!(
                        "Invalid request: a message of {length} bytes exceeds this server's limit of {limit} bytes"
                    ),
                ),
            },
            Ok(None) => break Ok(()),
            Err(error) => break Err(error),
        };
        match engine.receive(&peer, message, &route) {
            Reply::Now(Some(response)) => append_response(&mut answered, &response),
            Reply::Now(None) => {}
            Reply::Later(mut pending) => match poll_once(&mut pending).await {
                Poll::Ready(Some(response)) => append_response(&mut answered, &response),
                Poll::Ready(None) => {}
                Poll::Pending => {
                    let out = out.clone();
                    requests.spawn(async move {
                        if let Some(response) = pending.await {
                            out.send(response).await;
                        }
                    });
                }
            },
        }
        while requests.try_join_next().is_some() {}
    };
    if !answered.is_empty() {
        out.send_lines(answered).await;
    }
    // Streams without a response end; calls still running finish and are answered.
    peer.end_streams();
    while requests.join_next().await.is_some() {}
    peer.close();
    announcer.abort();
    drop((route, out));
    writer.await.unwrap_or_else(|join| Err(std::io::Error::other(join)))?;
    outcome
}

/// Polls `future` once, in the reading task: a future that finishes at once
/// (an inline tool's call) needs no task of its own.
async fn poll_once<T>(future: &mut Pin<Box<dyn Future<Output = T> + Send>>) -> Poll<T> {
    std::future::poll_fn(|cx| Poll::Ready(future.as_mut().poll(cx))).await
}

async fn write_loop<W: AsyncWrite + Unpin>(writer: W, mut receiver: mpsc::Receiver<Vec<u8>>) -> std::io::Result<()> {
    let mut writer = BufWriter::with_capacity(64 * 1024, writer);
    while let Some(message) = receiver.recv().await {
        writer.write_all(&message).await?;
        while let Ok(message) = receiver.try_recv() {
            writer.write_all(&message).await?;
        }
        writer.flush().await?;
    }
    writer.flush().await?;
    writer.shutdown().await.or(Ok(()))
}
