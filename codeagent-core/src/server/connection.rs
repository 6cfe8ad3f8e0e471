//! One client connection over a byte stream (stdio, or any `AsyncRead +
//! AsyncWrite` pair): requests run concurrently, every response is written
//! exactly once, cancelled requests get none.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, BufWriter};
use tokio::sync::mpsc;
use tokio::task::{AbortHandle, JoinSet};

use super::engine::{Action, Engine, Era, PendingCall, SUBSCRIPTION_ID_KEY, Session};
use super::jsonrpc::{
    INVALID_REQUEST, Incoming, PARSE_ERROR, RpcError, classify, error_message, notification_message, result_message,
};
use super::lines::{Line, LineReader};
use crate::toolbox::{Cancellation, Context, Notifier, RequestInfo};

/// How many outgoing messages may wait for the writer before progress and log
/// notifications are dropped (responses always wait their turn).
const OUTGOING_CAPACITY: usize = 4096;

/// Serves one connection until the client closes its input; requests still
/// running then finish and are answered before this returns.
pub(crate) async fn serve_connection<R, W>(
    engine: Arc<Engine>,
    reader: R,
    writer: W,
    limit: usize,
) -> std::io::Result<()>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sender, receiver) = mpsc::channel::<String>(OUTGOING_CAPACITY);
    let writer = tokio::spawn(write_loop(writer, receiver));
    let connection =
        Arc::new(Connection { engine, session: Session::default(), inflight: Mutex::default(), out: sender });
    let mut tasks = JoinSet::new();
    let mut background = JoinSet::new();
    background.spawn(Arc::clone(&connection).announce_list_changes());

    let mut lines = LineReader::new(BufReader::with_capacity(64 * 1024, reader), limit);
    let outcome = loop {
        match lines.next().await {
            Ok(Some(Line::Message(bytes))) => {
                Arc::clone(&connection).receive(&bytes, &mut tasks, &mut background).await
            }
            Ok(Some(Line::TooLong(length))) => {
                let error = RpcError::new(
                    INVALID_REQUEST,
                    format!(
                        "Invalid request: a message of {length} bytes exceeds this server's limit of {limit} bytes"
                    ),
                );
                connection.send(error_message(&Value::Null, &error)).await;
            }
            Ok(None) => break Ok(()),
            Err(error) => break Err(error),
        }
        while tasks.try_join_next().is_some() {}
    };
    while tasks.join_next().await.is_some() {}
    background.shutdown().await;
    drop(connection);
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

struct Connection {
    engine: Arc<Engine>,
    session: Session,
    inflight: Mutex<HashMap<String, InFlight>>,
    out: mpsc::Sender<String>,
}

struct InFlight {
    cancellation: Cancellation,
    done: Arc<AtomicBool>,
    abort: Option<AbortHandle>,
}

/// The key of a request id in the in-flight table: its JSON text, so `1` and
/// `"1"` stay distinct.
fn key(id: &Value) -> String {
    id.to_string()
}

fn line(message: &Value) -> String {
    let mut bytes = Vec::with_capacity(128);
    // Writing a `Value` into memory cannot fail.
    let _ = serde_json::to_writer(&mut bytes, message);
    bytes.push(b'\n');
    String::from_utf8(bytes).unwrap_or_default()
}

impl Connection {
    async fn send(&self, message: Value) {
        let _ = self.out.send(line(&message)).await;
    }

    async fn receive(self: Arc<Self>, bytes: &[u8], tasks: &mut JoinSet<()>, background: &mut JoinSet<()>) {
        let message: Value = match serde_json::from_slice(bytes) {
            Ok(message) => message,
            Err(error) => {
                let error = RpcError::new(PARSE_ERROR, format!("Parse error: {error}"));
                return self.send(error_message(&Value::Null, &error)).await;
            }
        };
        if let Value::Array(batch) = message {
            return self.receive_batch(batch, tasks).await;
        }
        match classify(message) {
            Incoming::Request { id, method, params } => self.request(id, method, params, tasks, background).await,
            Incoming::Notification { method, params } => self.notification(&method, &params),
            Incoming::Response => tracing::debug!("ignoring a response: this server sends no requests"),
            Incoming::Invalid { id, error } => self.send(error_message(&id, &error)).await,
        }
    }

    fn notification(&self, method: &str, params: &serde_json::Map<String, Value>) {
        if method == "notifications/cancelled" {
            if let Some(id) = params.get("requestId") {
                self.cancel(id);
            }
        } else {
            self.engine.notify(&self.session, method);
        }
    }

    /// Stops request `id`: its tool is signalled and its task dropped, and no
    /// response is sent. Unknown or finished ids are ignored.
    fn cancel(&self, id: &Value) {
        let entry = self.inflight.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&key(id));
        if let Some(entry) = entry {
            entry.done.store(true, Ordering::SeqCst);
            entry.cancellation.cancel();
            if let Some(abort) = entry.abort {
                abort.abort();
            }
        }
    }

    /// Registers request `id` as in flight; false when that id already is.
    fn register(&self, id: &Value, cancellation: &Cancellation, done: &Arc<AtomicBool>) -> bool {
        let mut inflight = self.inflight.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if inflight.contains_key(&key(id)) {
            return false;
        }
        inflight.insert(key(id), InFlight { cancellation: cancellation.clone(), done: Arc::clone(done), abort: None });
        true
    }

    fn set_abort(&self, id: &Value, abort: AbortHandle) {
        if let Some(entry) = self.inflight.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get_mut(&key(id)) {
            entry.abort = Some(abort);
        }
    }

    /// Takes request `id` out of the table; true when it was there, that is,
    /// when its response is still owed.
    fn complete(&self, id: &Value) -> bool {
        self.inflight.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(&key(id)).is_some()
    }

    fn context(
        &self,
        id: &Value,
        era: Era,
        meta: serde_json::Map<String, Value>,
        cancellation: &Cancellation,
        done: &Arc<AtomicBool>,
    ) -> Context {
        let notifier =
            RequestNotifier { out: self.out.clone(), cancellation: cancellation.clone(), done: Arc::clone(done) };
        Context::new(RequestInfo {
            request_id: Some(id.clone()),
            meta,
            cancellation: cancellation.clone(),
            notifier: Some(Arc::new(notifier)),
            log_level: era.log_level,
            protocol_version: Some(era.version),
        })
    }

    /// What to do with request `id`, its context tied to this connection.
    fn act(
        &self,
        id: &Value,
        era: Era,
        method: &str,
        params: serde_json::Map<String, Value>,
        cancellation: &Cancellation,
        done: &Arc<AtomicBool>,
    ) -> Action {
        let meta = match params.get("_meta") {
            Some(Value::Object(meta)) => meta.clone(),
            _ => serde_json::Map::new(),
        };
        self.engine.act(&self.session, era, method, params, || self.context(id, era, meta, cancellation, done))
    }

    async fn request(
        self: Arc<Self>,
        id: Value,
        method: String,
        params: serde_json::Map<String, Value>,
        tasks: &mut JoinSet<()>,
        background: &mut JoinSet<()>,
    ) {
        let era = match self.engine.era(&self.session, &method, &params) {
            Ok(era) => era,
            Err(error) => return self.send(error_message(&id, &error)).await,
        };
        let cancellation = Cancellation::new();
        let done = Arc::new(AtomicBool::new(false));
        if (method == "tools/call" || method == "subscriptions/listen") && !self.register(&id, &cancellation, &done) {
            let error = RpcError::new(
                INVALID_REQUEST,
                format!("Invalid request: a request with id {id} is already in progress"),
            );
            return self.send(error_message(&id, &error)).await;
        }
        let action = self.act(&id, era, &method, params, &cancellation, &done);
        match action {
            Action::Reply(reply) => {
                if method == "tools/call" || method == "subscriptions/listen" {
                    self.complete(&id);
                }
                let message = match reply {
                    Ok(result) => result_message(&id, result),
                    Err(error) => error_message(&id, &error),
                };
                self.send(message).await;
            }
            Action::Call(call) => {
                let connection = Arc::clone(&self);
                let task_id = id.clone();
                let abort = tasks.spawn(async move {
                    let PendingCall { future, tool } = call;
                    let response = connection.engine.call_result(era, &tool, future.await);
                    done.store(true, Ordering::SeqCst);
                    if connection.complete(&task_id) {
                        connection.send(result_message(&task_id, response)).await;
                    }
                });
                self.set_abort(&id, abort);
            }
            Action::Listen { tools } => {
                let connection = Arc::clone(&self);
                let task_id = id.clone();
                let abort = background.spawn(async move { connection.listen(task_id, era, tools, cancellation).await });
                self.set_abort(&id, abort);
            }
        }
    }

    /// A `subscriptions/listen` stream: acknowledged, then one
    /// `notifications/tools/list_changed` per change, until cancelled.
    async fn listen(self: Arc<Self>, id: Value, era: Era, tools: bool, cancellation: Cancellation) {
        let _ = era;
        let meta = json!({ SUBSCRIPTION_ID_KEY: id });
        let honoured = if tools { json!({ "toolsListChanged": true }) } else { json!({}) };
        self.send(notification_message(
            "notifications/subscriptions/acknowledged",
            json!({ "notifications": honoured, "_meta": meta }),
        ))
        .await;
        if !tools {
            return cancellation.cancelled().await;
        }
        let mut changes = self.engine.toolbox.changes();
        changes.borrow_and_update();
        loop {
            tokio::select! {
                () = cancellation.cancelled() => return,
                changed = changes.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    self.send(notification_message("notifications/tools/list_changed", json!({ "_meta": meta }))).await;
                }
            }
        }
    }

    /// Tells a legacy client that has finished its handshake when tools are
    /// added or removed.
    async fn announce_list_changes(self: Arc<Self>) {
        let mut changes = self.engine.toolbox.changes();
        changes.borrow_and_update();
        while changes.changed().await.is_ok() {
            if self.session.is_initialized() {
                self.send(notification_message("notifications/tools/list_changed", json!({}))).await;
            }
        }
    }

    /// A JSON-RPC batch: only in protocol version 2025-03-26, answered with
    /// one array once every request in it is done.
    async fn receive_batch(self: Arc<Self>, batch: Vec<Value>, tasks: &mut JoinSet<()>) {
        if batch.is_empty() {
            let error = RpcError::new(INVALID_REQUEST, "Invalid request: an empty batch");
            return self.send(error_message(&Value::Null, &error)).await;
        }
        if !self.session.negotiated().is_some_and(|version| version.has_batches()) {
            let error = RpcError::new(
                INVALID_REQUEST,
                "Invalid request: JSON-RPC batches exist only in protocol version 2025-03-26",
            );
            return self.send(error_message(&Value::Null, &error)).await;
        }
        let connection = Arc::clone(&self);
        tasks.spawn(async move {
            let mut pending = JoinSet::new();
            let mut responses = Vec::new();
            for (position, message) in batch.into_iter().enumerate() {
                match classify(message) {
                    Incoming::Request { id, method, .. } if method == "initialize" => {
                        let error =
                            RpcError::new(INVALID_REQUEST, "Invalid request: initialize cannot be part of a batch");
                        responses.push((position, error_message(&id, &error)));
                    }
                    Incoming::Request { id, method, params } => {
                        let connection = Arc::clone(&connection);
                        pending.spawn(async move { (position, connection.answer(id, method, params).await) });
                    }
                    Incoming::Notification { method, params } => connection.notification(&method, &params),
                    Incoming::Response => {}
                    Incoming::Invalid { id, error } => responses.push((position, error_message(&id, &error))),
                }
            }
            while let Some(joined) = pending.join_next().await {
                match joined {
                    Ok((position, Some(response))) => responses.push((position, response)),
                    Ok((_, None)) => {}
                    Err(error) => tracing::error!("a batched request failed: {error}"),
                }
            }
            if !responses.is_empty() {
                responses.sort_by_key(|(position, _)| *position);
                let array = Value::Array(responses.into_iter().map(|(_, response)| response).collect());
                connection.send(array).await;
            }
        });
    }

    /// The response to one request of a batch (`None` when it was cancelled).
    async fn answer(
        self: Arc<Self>,
        id: Value,
        method: String,
        params: serde_json::Map<String, Value>,
    ) -> Option<Value> {
        let era = match self.engine.era(&self.session, &method, &params) {
            Ok(era) => era,
            Err(error) => return Some(error_message(&id, &error)),
        };
        let cancellation = Cancellation::new();
        let done = Arc::new(AtomicBool::new(false));
        let registered = method == "tools/call" && self.register(&id, &cancellation, &done);
        let action = self.act(&id, era, &method, params, &cancellation, &done);
        let response = match action {
            Action::Reply(Ok(result)) => result_message(&id, result),
            Action::Reply(Err(error)) => error_message(&id, &error),
            Action::Call(call) => {
                let PendingCall { future, tool } = call;
                result_message(&id, self.engine.call_result(era, &tool, future.await))
            }
            Action::Listen { .. } => error_message(
                &id,
                &RpcError::new(INVALID_REQUEST, "Invalid request: subscriptions/listen cannot be part of a batch"),
            ),
        };
        done.store(true, Ordering::SeqCst);
        if registered && !self.complete(&id) {
            return None;
        }
        Some(response)
    }
}

/// Sends one request's progress and log notifications, until the request is
/// answered or cancelled; nothing is sent for it after that.
struct RequestNotifier {
    out: mpsc::Sender<String>,
    cancellation: Cancellation,
    done: Arc<AtomicBool>,
}

impl Notifier for RequestNotifier {
    fn notify(&self, method: &str, params: Value) {
        if self.cancellation.is_cancelled() || self.done.load(Ordering::SeqCst) {
            return;
        }
        if self.out.try_send(line(&notification_message(method, params))).is_err() {
            tracing::warn!("dropped a {method} notification: the client is not reading fast enough");
        }
    }
}
