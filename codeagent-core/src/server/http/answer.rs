//! Answering one POSTed message over HTTP: the engine decides the answer;
//! this module frames it as a JSON body, or as an SSE stream that carries the
//! request's notifications before its response.

use std::convert::Infallible;
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_util::sync::CancellationToken;

use super::channel::{Nowhere, Out, StreamOutlet, stream};
use super::respond::{accepted, json};
use super::resume::{StreamLogs, resumable};
use crate::server::engine::{Engine, Pending, Reply, Route};
use crate::server::jsonrpc::{Incoming, METHOD_NOT_FOUND, MISSING_CLIENT_CAPABILITY};
use crate::server::outgoing::Outgoing;
use crate::server::outlet::Outlet;
use crate::server::peer::Peer;

/// How one message is answered.
pub(crate) struct Answering<'a> {
    /// Whether the answer is an SSE stream (else a JSON body).
    pub(crate) sse: bool,
    /// Whether the client hanging up stops the request (2026-07-28).
    pub(crate) hangup_stops: bool,
    /// Whether the request is in the 2026-07-28 era (an unknown method is a 404 there).
    pub(crate) modern: bool,
    /// Whether the message is a batch (one refused whole is a 400).
    pub(crate) batch: bool,
    /// How long the request may run.
    pub(crate) deadline: Duration,
    /// How often an idle stream gets a keep-alive comment.
    pub(crate) keep_alive: Duration,
    /// Where the stream's events are kept for resumption, if anywhere.
    pub(crate) logs: Option<&'a StreamLogs>,
    /// The changes other instances announce (with a shared store).
    pub(crate) remote_changes: Option<broadcast::Sender<String>>,
    /// The request's headers, for middleware (when the server has some).
    pub(crate) headers: Option<Arc<HeaderMap>>,
    /// Who the request speaks for, once its token was checked.
    pub(crate) caller: Option<crate::toolbox::Caller>,
    /// Whether the endpoint is a resource server's (every request has a caller).
    pub(crate) caller_required: bool,
}

/// The HTTP response to `message` from `peer`.
pub(crate) async fn answer(engine: &Arc<Engine>, peer: &Arc<Peer>, message: Incoming, how: Answering<'_>) -> Response {
    let (sender, receiver) = stream();
    let hangup = how.hangup_stops.then(CancellationToken::new);
    let outlet: Arc<dyn Outlet> = if how.sse { Arc::new(StreamOutlet(sender.clone())) } else { Arc::new(Nowhere) };
    let route = Route {
        outlet,
        hangup: hangup.clone(),
        deadline: Some(how.deadline),
        remote_changes: how.remote_changes.clone(),
        caller: how.caller.clone(),
        caller_required: how.caller_required,
        headers: how.headers.clone(),
    };
    let mut pending = match engine.receive(peer, message, &route) {
        Reply::Now(None) => return accepted(),
        Reply::Now(Some(message)) => return json(status(&how, &message), message),
        Reply::Later(pending) => pending,
    };
    drop(route);
    // Through middleware every answer is pending: one decided when first
    // polled, with no notification before it, is still a JSON body, as it
    // is without middleware.
    if !engine.middleware.is_empty()
        && receiver.is_empty()
        && let Poll::Ready(message) = poll_once(&mut pending).await
        && receiver.is_empty()
    {
        return match message {
            Some(message) => json(status(&how, &message), message),
            None => StatusCode::NO_CONTENT.into_response(),
        };
    }
    if !how.sse {
        drop(sender);
        return match run_to_json(pending, hangup).await {
            Some(message) => json(status(&how, &message), message),
            None => StatusCode::NO_CONTENT.into_response(),
        };
    }
    tokio::spawn(async move {
        // Over SSE the client hangs up by closing the stream.
        let response = drive(pending, hangup, sender.closed()).await;
        if let Some(response) = response {
            let _ = sender.send(Out::Last(response.into_string())).await;
        }
    });
    match how.logs {
        Some(logs) => resumable(logs, receiver, how.keep_alive),
        None => sse(receiver, how.keep_alive),
    }
}

/// Polls `pending` once, in the request's task.
async fn poll_once(pending: &mut Pending) -> Poll<Option<Outgoing>> {
    std::future::poll_fn(|cx| Poll::Ready(pending.as_mut().poll(cx))).await
}

/// Runs `pending` in a task of its own, so it finishes even when the client
/// goes away; over JSON the client hangs up by dropping the request, which
/// drops the handler waiting here.
async fn run_to_json(pending: Pending, hangup: Option<CancellationToken>) -> Option<Outgoing> {
    let (sender, receiver) = oneshot::channel();
    tokio::spawn(async move {
        let mut sender = sender;
        let response = drive(pending, hangup, sender.closed()).await;
        let _ = sender.send(response);
    });
    receiver.await.ok().flatten()
}

/// Awaits `pending`; when `gone` resolves first, the request is stopped
/// through `hangup` (when the client's leaving stops it at all).
async fn drive(
    mut pending: Pending,
    hangup: Option<CancellationToken>,
    gone: impl Future<Output = ()>,
) -> Option<Outgoing> {
    let Some(hangup) = hangup else { return pending.await };
    tokio::select! {
        response = &mut pending => response,
        () = gone => {
            hangup.cancel();
            pending.await
        }
    }
}

/// The status of a JSON-RPC message: 404 for an unknown method in the modern
/// era (so clients tell it from a legacy 404), 400 for a missing client
/// capability (2026-07-28) and for a batch refused whole (one error instead
/// of an array), 200 otherwise.
fn status(how: &Answering<'_>, message: &Outgoing) -> StatusCode {
    let code = message.error_code();
    if how.modern && code == Some(METHOD_NOT_FOUND) {
        StatusCode::NOT_FOUND
    } else if (how.modern && code == Some(MISSING_CLIENT_CAPABILITY)) || (how.batch && message.is_object()) {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
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
        let event = Event::default().event("message").data(message);
        Some((Ok::<Event, Infallible>(event), (receiver, last)))
    });
    let mut response = Sse::new(events).keep_alive(KeepAlive::new().interval(keep_alive)).into_response();
    response.headers_mut().insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}
