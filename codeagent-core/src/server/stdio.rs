//! MCP over a byte stream (stdio, or any `AsyncRead + AsyncWrite` pair):
//! newline-delimited JSON-RPC. This module only frames messages; the engine
//! decides everything else. Requests run concurrently; responses and
//! notifications share one writer.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::engine::{Engine, Reply, Route};
use super::jsonrpc::{INVALID_REQUEST, Incoming, RpcError, read};
use super::lines::{Line, LineReader};
use super::outlet::Outlet;
use super::peer::Peer;

/// How many outgoing messages may wait for the writer before progress and log
/// notifications are dropped (responses always wait their turn).
const OUTGOING_CAPACITY: usize = 4096;

/// The connection's output: every message as one line.
#[derive(Clone)]
struct Lines(mpsc::Sender<String>);

fn line(message: &Value) -> String {
    let mut bytes = Vec::with_capacity(128);
    // Writing a `Value` into memory cannot fail.
    let _ = serde_json::to_writer(&mut bytes, message);
    bytes.push(b'\n');
    String::from_utf8(bytes).unwrap_or_default()
}

impl Lines {
    /// Sends a response, waiting for room.
    async fn send(&self, message: &Value) {
        let _ = self.0.send(line(message)).await;
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
    let (sender, receiver) = mpsc::channel::<String>(OUTGOING_CAPACITY);
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
    let outcome = loop {
        let message = match lines.next().await {
            Ok(Some(Line::Message(bytes))) => read(&bytes),
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
            Reply::Now(Some(response)) => out.send(&response).await,
            Reply::Now(None) => {}
            Reply::Later(pending) => {
                let out = out.clone();
                requests.spawn(async move {
                    if let Some(response) = pending.await {
                        out.send(&response).await;
                    }
                });
            }
        }
        while requests.try_join_next().is_some() {}
    };
    // Streams without a response end; calls still running finish and are answered.
    peer.end_streams();
    while requests.join_next().await.is_some() {}
    peer.close();
    announcer.abort();
    drop((route, out));
    writer.await.unwrap_or_else(|join| Err(std::io::Error::other(join)))?;
    outcome
}

async fn write_loop<W: AsyncWrite + Unpin>(writer: W, mut receiver: mpsc::Receiver<String>) -> std::io::Result<()> {
    let mut writer = BufWriter::with_capacity(64 * 1024, writer);
    while let Some(message) = receiver.recv().await {
        writer.write_all(message.as_bytes()).await?;
        while let Ok(message) = receiver.try_recv() {
            writer.write_all(message.as_bytes()).await?;
        }
        writer.flush().await?;
    }
    writer.flush().await?;
    writer.shutdown().await.or(Ok(()))
}
