//! Answering one request over HTTP: as a JSON body, or as an SSE stream that
//! carries the request's progress and log notifications before its response.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::http::{HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::respond::{json, status_for};
use super::resume::resumable;
use super::session::HttpSession;
use crate::server::engine::{Action, Engine, Era, PendingCall, SUBSCRIPTION_ID_KEY};
use crate::server::jsonrpc::{INTERNAL_ERROR, RpcError, error_message, notification_message, result_message};
use crate::toolbox::{Cancellation, Notifier};

/// How long a stopped tool may run on to notice its cancellation.
const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// How a tool call ended.
enum Outcome {
    Finished(crate::ToolResult),
    Stopped,
    TimedOut,
}

/// What goes down a request's stream.
pub(crate) enum Out {
    /// A notification about the request.
    Note(Value),
    /// The response; the stream ends after it.
    Last(Value),
}

/// A request's channel: notifications (and, on SSE, the response) go here.
pub(crate) struct Channel {
    pub(crate) sender: mpsc::Sender<Out>,
    pub(crate) receiver: mpsc::Receiver<Out>,
    pub(crate) done: Arc<AtomicBool>,
}

impl Channel {
    pub(crate) fn new() -> Self {
        let (sender, receiver) = mpsc::channel(1024);
        Channel { sender, receiver, done: Arc::new(AtomicBool::new(false)) }
    }

    /// The notifier a request's context sends through (only useful with SSE).
    pub(crate) fn notifier(&self, cancellation: &Cancellation) -> Arc<dyn Notifier> {
        Arc::new(ChannelNotifier {
            sender: self.sender.clone(),
            cancellation: cancellation.clone(),
            done: Arc::clone(&self.done),
        })
    }
}

struct ChannelNotifier {
    sender: mpsc::Sender<Out>,
    cancellation: Cancellation,
    done: Arc<AtomicBool>,
}

impl Notifier for ChannelNotifier {
    fn notify(&self, method: &str, params: Value) {
        if !self.cancellation.is_cancelled() && !self.done.load(Ordering::SeqCst) {
            let _ = self.sender.try_send(Out::Note(notification_message(method, params)));
        }
    }
}

/// How a request is answered.
pub(crate) struct Reply {
    pub(crate) id: Value,
    pub(crate) era: Era,
    pub(crate) sse: bool,
    /// Whether closing the response stream cancels the request (2026-07-28).
    pub(crate) disconnect_cancels: bool,
    pub(crate) timeout: Duration,
    pub(crate) keep_alive: Duration,
    /// Where the stream's events are kept for resumption (legacy sessions
    /// from 2025-11-25 on), if anywhere.
    pub(crate) logs: Option<Arc<HttpSession>>,
}

/// Answers `action` for request `reply.id`. `finished` runs when the request is
/// over (answered, cancelled or timed out).
pub(crate) async fn answer(
    engine: Arc<Engine>,
    action: Action,
    reply: Reply,
    channel: Channel,
    cancellation: Cancellation,
    finished: impl FnOnce() + Send + 'static,
) -> Response {
    match action {
        Action::Reply(outcome) => {
            finished();
            match outcome {
                Ok(result) => json(StatusCode::OK, &result_message(&reply.id, result)),
                Err(error) => {
                    let status = if reply.era.is_modern() { status_for(&error) } else { StatusCode::OK };
                    json(status, &error_message(&reply.id, &error))
                }
            }
        }
        Action::Call(call) => call_response(engine, call, reply, channel, cancellation, finished).await,
        Action::Listen { tools } => {
            finished();
            listen_stream(engine, reply, tools)
        }
    }
}

async fn call_response(
    engine: Arc<Engine>,
    call: PendingCall,
    reply: Reply,
    channel: Channel,
    cancellation: Cancellation,
    finished: impl FnOnce() + Send + 'static,
) -> Response {
    let Channel { sender, receiver, done } = channel;
    let (id, era, timeout, disconnect_cancels) = (reply.id.clone(), reply.era, reply.timeout, reply.disconnect_cancels);
    let (last, last_receiver) = tokio::sync::oneshot::channel::<Option<Value>>();
    let sse_mode = reply.sse;
    tokio::spawn(async move {
        let PendingCall { mut future, tool } = call;
        let mut last = last;
        // Over SSE the client hangs up by closing the stream; over JSON, by
        // dropping the request, which drops the waiting handler.
        let closed = async {
            match (disconnect_cancels, sse_mode) {
                (true, true) => sender.closed().await,
                (true, false) => last.closed().await,
                (false, _) => std::future::pending::<()>().await,
            }
        };
        let outcome = tokio::select! {
            result = &mut future => Outcome::Finished(result),
            () = cancellation.cancelled() => Outcome::Stopped,
            () = closed => Outcome::Stopped,
            () = tokio::time::sleep(timeout) => Outcome::TimedOut,
        };
        // A client's `notifications/cancelled` wins even over a result that raced it.
        let cancelled_by_client = cancellation.is_cancelled();
        done.store(true, Ordering::SeqCst);
        cancellation.cancel();
        let finished_in_time = matches!(outcome, Outcome::Finished(_));
        let response = match outcome {
            Outcome::Finished(result) if !cancelled_by_client => {
                Some(result_message(&id, engine.call_result(era, &tool, result)))
            }
            Outcome::Finished(_) | Outcome::Stopped => None,
            Outcome::TimedOut => {
                let error = RpcError::new(
                    INTERNAL_ERROR,
                    format!("The request timed out after {} seconds", timeout.as_secs_f64()),
                );
                Some(error_message(&id, &error))
            }
        };
        finished();
        if let Some(response) = &response {
            let _ = sender.send(Out::Last(response.clone())).await;
        }
        let _ = last.send(response);
        if !finished_in_time {
            // Let the tool see `ctx.cancelled()` and clean up before it is dropped.
            let _ = tokio::time::timeout(CANCEL_GRACE, future).await;
        }
    });
    if reply.sse {
        return match &reply.logs {
            Some(session) => resumable(&session.logs, receiver, reply.keep_alive),
            None => sse(receiver, reply.keep_alive),
        };
    }
    drop(receiver);
    match last_receiver.await {
        Ok(Some(response)) => json(StatusCode::OK, &response),
        _ => StatusCode::NO_CONTENT.into_response(),
    }
}

/// An SSE response streaming `receiver` until the response has gone out.
pub(crate) fn sse(receiver: mpsc::Receiver<Out>, keep_alive: Duration) -> Response {
    let events = stream::unfold((receiver, false), |(mut receiver, ended)| async move {
        if ended {
            return None;
        }
        let (message, last) = match receiver.recv().await? {
            Out::Note(message) => (message, false),
            Out::Last(message) => (message, true),
        };
        let event = Event::default().event("message").data(message.to_string());
        Some((Ok::<Event, Infallible>(event), (receiver, last)))
    });
    let mut response = Sse::new(events).keep_alive(KeepAlive::new().interval(keep_alive)).into_response();
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// A `subscriptions/listen` stream: acknowledged, then one
/// `notifications/tools/list_changed` per change, until the client hangs up.
fn listen_stream(engine: Arc<Engine>, reply: Reply, tools: bool) -> Response {
    let channel = Channel::new();
    let sender = channel.sender;
    let meta = json!({ SUBSCRIPTION_ID_KEY: reply.id });
    let mut changes = engine.toolbox.changes();
    changes.borrow_and_update();
    tokio::spawn(async move {
        let honoured = if tools { json!({ "toolsListChanged": true }) } else { json!({}) };
        let acknowledged = notification_message(
            "notifications/subscriptions/acknowledged",
            json!({ "notifications": honoured, "_meta": meta }),
        );
        if sender.send(Out::Note(acknowledged)).await.is_err() || !tools {
            return sender.closed().await;
        }
        loop {
            tokio::select! {
                () = sender.closed() => return,
                changed = changes.changed() => {
                    if changed.is_err() {
                        return;
                    }
                    let note = notification_message("notifications/tools/list_changed", json!({ "_meta": meta }));
                    if sender.send(Out::Note(note)).await.is_err() {
                        return;
                    }
                }
            }
        }
    });
    sse(channel.receiver, reply.keep_alive)
}
