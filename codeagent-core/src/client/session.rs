//! One connection's state: the requests waiting for answers, the progress of
//! calls, the server's questions and notifications, and the one task that
//! reads everything the transport receives.
//!
//! A request registers a waiter under a fresh id before it is sent; the
//! reader hands the answer to that waiter. A caller that stops waiting (its
//! future dropped, or out of time) takes its waiter back and cancels the
//! request on the server.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::{broadcast, mpsc, oneshot};

use super::ClientError;
use super::events::{Progress, ServerEvent};
use super::handlers::{Handlers, Refusal};
use super::wire::{Envelope, Inbound, Members, Outgoing, Request, Wire};
use crate::log_text::escaped;
use crate::mcp::codes::{INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
use crate::mcp::meta::{PROGRESS_TOKEN_KEY, SUBSCRIPTION_ID_KEY, TASKS_EXTENSION};
use crate::mcp::{Implementation, ProtocolVersion, ServerCapabilities};
use crate::toolbox::LogLevel;

/// What a caller is told of one request's progress.
pub(crate) type ProgressSink = Arc<dyn Fn(Progress) + Send + Sync>;

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the handshake settled.
#[derive(Clone, Debug)]
pub(crate) struct Negotiated {
    pub(crate) version: ProtocolVersion,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) server_info: Option<Implementation>,
    pub(crate) instructions: Option<String>,
}

/// How a session behaves: set by the builder.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub(crate) client_info: Value,
    pub(crate) timeout: Duration,
    pub(crate) input_rounds: usize,
    pub(crate) log_level: Option<LogLevel>,
    /// Whether the client declares the tasks extension (and follows tasks).
    pub(crate) tasks: bool,
}

/// How one request is sent.
#[derive(Default)]
pub(crate) struct RequestOptions {
    /// In place of the session's timeout.
    pub(crate) timeout: Option<Duration>,
    /// Where progress goes; a progress token is sent when there is one.
    pub(crate) progress: Option<ProgressSink>,
    /// Headers of this request alone (HTTP).
    pub(crate) headers: Vec<(String, String)>,
    /// The era to send in, before the handshake settled one.
    pub(crate) version: Option<ProtocolVersion>,
    /// The caller the request is made for, when it is made for one.
    pub(crate) acting: Option<super::wire::Acting>,
    /// Told of the acknowledgement of this `subscriptions/listen` request.
    pub(crate) subscription: Option<Arc<Mutex<Option<oneshot::Sender<Value>>>>>,
}

struct Waiter {
    sender: oneshot::Sender<Result<Value, ClientError>>,
    method: String,
}

/// One connection to a server.
pub(crate) struct Session {
    wire: Box<dyn Wire>,
    next_id: AtomicU64,
    pending: Mutex<HashMap<u64, Waiter>>,
    /// Requests given up on, whose late answers are not a problem.
    abandoned: Mutex<HashSet<u64>>,
    progress: Mutex<HashMap<String, ProgressSink>>,
    acknowledgements: Mutex<HashMap<u64, oneshot::Sender<Value>>>,
    events: broadcast::Sender<ServerEvent>,
    pub(crate) handlers: Handlers,
    pub(crate) negotiated: OnceLock<Negotiated>,
    pub(crate) settings: Settings,
    /// The capabilities the client declares, built once.
    capabilities: Value,
    closed: Mutex<Option<String>>,
    problem: Mutex<Option<String>>,
}

impl Session {
    /// A session over `wire`, reading what arrives in `inbox`.
    pub(crate) fn start(
        wire: Box<dyn Wire>,
        inbox: mpsc::UnboundedReceiver<Inbound>,
        handlers: Handlers,
        settings: Settings,
    ) -> Arc<Session> {
        let mut capabilities = handlers.capabilities();
        if settings.tasks {
            capabilities["extensions"] = json!({ TASKS_EXTENSION: {} });
        }
        let session = Arc::new(Session {
            wire,
            next_id: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            abandoned: Mutex::new(HashSet::new()),
            progress: Mutex::new(HashMap::new()),
            acknowledgements: Mutex::new(HashMap::new()),
            events: broadcast::channel(1024).0,
            handlers,
            negotiated: OnceLock::new(),
            settings,
            capabilities,
            closed: Mutex::new(None),
            problem: Mutex::new(None),
        });
        tokio::spawn(read_inbox(Arc::downgrade(&session), inbox));
        session
    }

    /// The version the handshake settled, if it is done.
    pub(crate) fn version(&self) -> Option<ProtocolVersion> {
        self.negotiated.get().map(|negotiated| negotiated.version)
    }

    /// The events from now on.
    pub(crate) fn subscribe_events(&self) -> broadcast::Receiver<ServerEvent> {
        self.events.subscribe()
    }

    pub(crate) fn wire(&self) -> &dyn Wire {
        &*self.wire
    }

    /// Why the connection is closed, if it is.
    pub(crate) fn closed(&self) -> Option<String> {
        lock(&self.closed).clone()
    }

    /// The capabilities the client declares: its handlers', and the tasks
    /// extension when it follows tasks.
    pub(crate) fn capabilities(&self) -> Value {
        self.capabilities.clone()
    }

    /// The `_meta` every request carries in `version`: the 2026-07-28
    /// envelope, none before.
    fn envelope(&self, version: Option<ProtocolVersion>) -> Option<Envelope<'_>> {
        let version = version.filter(|version| version.is_modern())?;
        Some(Envelope {
            version,
            capabilities: &self.capabilities,
            client_info: &self.settings.client_info,
            log_level: self.settings.log_level.map(LogLevel::as_str),
        })
    }

    /// Sends a notification.
    pub(crate) fn notify(&self, method: &str, params: Map<String, Value>) -> Result<(), ClientError> {
        let mut message = json!({ "jsonrpc": "2.0", "method": method });
        if !params.is_empty() {
            message["params"] = Value::Object(params);
        }
        self.wire.send(Outgoing::other(message, self.version()))
    }

    /// Sends request `method` and waits for its result; answers the server's
    /// 2026-07-28 `input_required` rounds with the handlers, up to the limit.
    pub(crate) async fn request(
        self: &Arc<Self>,
        method: &str,
        params: Map<String, Value>,
        options: RequestOptions,
    ) -> Result<Value, ClientError> {
        let mut params = params;
        let mut rounds = 0;
        loop {
            let result = self.exchange(method, &params, &options).await?;
            if result.get("resultType").and_then(Value::as_str) == Some("task") {
                // Boxed: a rare path, kept out of every request's future.
                return Box::pin(self.follow_task(method, result, &options)).await;
            }
            let version = options.version.or(self.version());
            if !version.is_some_and(ProtocolVersion::is_modern) {
                return Ok(result);
            }
            match result.get("resultType").and_then(Value::as_str) {
                None | Some("complete") => return Ok(result),
                Some("input_required") => {}
                Some(other) => {
                    return Err(ClientError::Malformed(format!(
                        "{method} answered with an unknown resultType `{other}`"
                    )));
                }
            }
            if rounds == self.settings.input_rounds {
                return Err(ClientError::TooManyRounds { method: method.to_owned(), rounds });
            }
            rounds += 1;
            let questions = match result.get("inputRequests") {
                Some(Value::Object(questions)) => questions.clone(),
                None => Map::new(),
                Some(_) => return Err(ClientError::Malformed(format!("{method}: `inputRequests` is not an object"))),
            };
            let answers = Box::pin(self.answer_all(questions)).await?;
            params.insert("inputResponses".into(), Value::Object(answers));
            match result.get("requestState") {
                Some(state) => params.insert("requestState".into(), state.clone()),
                None => params.remove("requestState"),
            };
        }
    }

    /// The handlers' answers to the server's `questions` (by key: each a
    /// `{method, params}`); a question without a handler, or refused, is an error.
    pub(crate) async fn answer_all(&self, questions: Map<String, Value>) -> Result<Map<String, Value>, ClientError> {
        let mut answers = Map::new();
        for (key, question) in questions {
            let asked = question.get("method").and_then(Value::as_str).unwrap_or_default().to_owned();
            let asked_params = question.get("params").and_then(Value::as_object).cloned().unwrap_or_default();
            let answer = match self.handlers.answer(&asked, asked_params).await {
                None => return Err(ClientError::Unanswerable { method: asked }),
                Some(Err(refusal)) => return Err(ClientError::Refused { method: asked, reason: refusal.to_string() }),
                Some(Ok(answer)) => answer,
            };
            answers.insert(key, answer);
        }
        Ok(answers)
    }

    /// One request and its answer, cancelled on the server if the caller
    /// stops waiting.
    pub(crate) async fn exchange(
        self: &Arc<Self>,
        method: &str,
        params: &Map<String, Value>,
        options: &RequestOptions,
    ) -> Result<Value, ClientError> {
        if let Some(reason) = self.closed() {
            return Err(ClientError::Closed { reason });
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let version = options.version.or(self.version());
        let token = options.progress.as_ref().map(|sink| {
            let token = format!("codeagent-{id}");
            lock(&self.progress).insert(token.clone(), Arc::clone(sink));
            token
        });
        let (sender, receiver) = oneshot::channel();
        lock(&self.pending).insert(id, Waiter { sender, method: method.to_owned() });
        if let Some(acknowledged) = options.subscription.as_ref().and_then(|slot| lock(slot).take()) {
            lock(&self.acknowledgements).insert(id, acknowledged);
        }
        let request = Request {
            id,
            method,
            params,
            progress_token: token.as_deref(),
            envelope: self.envelope(version),
            version,
            headers: &options.headers,
            acting: options.acting.as_ref(),
        };
        let sent = self.wire.send_request(request);
        let mut flight = InFlight { session: self, id, token, done: false };
        if let Err(error) = sent {
            flight.done = true;
            flight.forget();
            return Err(error);
        }
        let timeout = options.timeout.unwrap_or(self.settings.timeout);
        let answer = tokio::time::timeout(timeout, receiver).await;
        match answer {
            Ok(Ok(answer)) => {
                // The reader took the waiter out to answer it: only a progress sink is left.
                flight.done = true;
                flight.forget_progress();
                answer
            }
            Ok(Err(_)) => {
                flight.done = true;
                flight.forget();
                let reason = self.closed().unwrap_or_else(|| "the client stopped reading".into());
                Err(ClientError::Closed { reason })
            }
            Err(_) => {
                Err(ClientError::Timeout { method: method.to_owned(), timeout, problem: lock(&self.problem).clone() })
            }
        }
    }

    /// Cancels request `id` on the server.
    fn cancel(&self, id: u64, reason: &str) {
        lock(&self.abandoned).insert(id);
        self.wire.abandon(id);
        if self.closed().is_some() {
            return;
        }
        let mut params = Map::new();
        params.insert("requestId".into(), Value::from(id));
        params.insert("reason".into(), Value::from(reason));
        if let Some(envelope) = self.envelope(self.version()) {
            params.insert("_meta".into(), envelope.meta());
        }
        let _ = self.notify("notifications/cancelled", params);
    }

    fn problem(&self, problem: String) {
        tracing::warn!("MCP server: {}", escaped(&problem));
        *lock(&self.problem) = Some(problem);
    }

    /// Ends the session: every waiter is told why.
    fn close_with(&self, reason: String) {
        lock(&self.closed).get_or_insert(reason.clone());
        let waiters: Vec<Waiter> = lock(&self.pending).drain().map(|(_, waiter)| waiter).collect();
        for waiter in waiters {
            let _ = waiter.sender.send(Err(ClientError::Closed { reason: reason.clone() }));
        }
        lock(&self.acknowledgements).clear();
    }

    /// Closes the connection.
    pub(crate) fn shut(&self) {
        self.close_with("the client closed the connection".into());
        self.wire.close();
    }

    fn handle(self: &Arc<Self>, message: Value) {
        let Value::Object(message) = message else {
            return self.problem(format!("a message that is not a JSON object: {message}"));
        };
        self.receive(Members::of(message));
    }

    fn receive(self: &Arc<Self>, message: Members) {
        let method = match message.method {
            Some(Value::String(method)) => Some(method),
            _ => None,
        };
        let params = match message.params {
            Some(Value::Object(params)) => params,
            _ => Map::new(),
        };
        match (method, message.id) {
            (Some(method), Some(id)) => self.answer_question(id, method, params),
            (Some(method), None) => self.notification(&method, params),
            (None, Some(id)) => self.response(&id, message.result, message.error),
            (None, None) => self.problem("a message with neither a method nor an id".into()),
        }
    }

    fn response(&self, id: &Value, result: Option<Value>, error: Option<Value>) {
        let Some(number) = id.as_u64() else {
            if let Some(error) = error.filter(|_| id.is_null()) {
                return self.problem(format!("an error answering no request: {error}"));
            }
            return self.problem(format!("a response to id {id}, which this client never sent"));
        };
        let Some(waiter) = lock(&self.pending).remove(&number) else {
            if !lock(&self.abandoned).remove(&number) {
                self.problem(format!("a response to id {number}, which this client is not waiting for"));
            }
            return;
        };
        let answer = match (result, error) {
            (Some(result), None) => Ok(result),
            (None, Some(error)) => Err(ClientError::Rpc {
                method: waiter.method,
                code: error.get("code").and_then(Value::as_i64).unwrap_or(INTERNAL_ERROR),
                message: error.get("message").and_then(Value::as_str).unwrap_or_default().to_owned(),
                data: error.get("data").cloned().map(Box::new),
            }),
            _ => Err(ClientError::Malformed(format!(
                "the response to {} (id {number}) has neither exactly a result nor an error",
                waiter.method
            ))),
        };
        let _ = waiter.sender.send(answer);
    }

    fn notification(&self, method: &str, params: Map<String, Value>) {
        match method {
            "notifications/progress" => {
                let token = match params.get(PROGRESS_TOKEN_KEY) {
                    Some(Value::String(token)) => token.clone(),
                    Some(other) => other.to_string(),
                    None => return self.problem("a progress notification without a progress token".into()),
                };
                let sink = lock(&self.progress).get(&token).cloned();
                match (sink, Progress::from_params(&params)) {
                    (Some(sink), Some(progress)) => sink(progress),
                    (Some(_), None) => self.problem("a progress notification without a numeric `progress`".into()),
                    (None, _) => {}
                }
            }
            "notifications/cancelled" => {}
            "notifications/subscriptions/acknowledged" => {
                let id = params.get("_meta").and_then(|meta| meta.get(SUBSCRIPTION_ID_KEY)).and_then(Value::as_u64);
                if let Some(sender) = id.and_then(|id| lock(&self.acknowledgements).remove(&id)) {
                    let _ = sender.send(Value::Object(params));
                }
            }
            _ => {
                let _ = self.events.send(ServerEvent::from_notification(method, params));
            }
        }
    }

    /// Answers a request of the server's (legacy era) in a task of its own.
    fn answer_question(self: &Arc<Self>, id: Value, method: String, params: Map<String, Value>) {
        let session = Arc::clone(self);
        tokio::spawn(async move {
            let answer =
                if method == "ping" { Some(Ok(json!({}))) } else { session.handlers.answer(&method, params).await };
            let mut message = json!({ "jsonrpc": "2.0", "id": id });
            match answer {
                Some(Ok(result)) => message["result"] = result,
                Some(Err(Refusal::Invalid(problem))) => {
                    message["error"] =
                        json!({ "code": INVALID_PARAMS, "message": format!("Invalid params: {problem}") });
                }
                Some(Err(Refusal::Refused(reason))) => {
                    message["error"] = json!({ "code": INTERNAL_ERROR, "message": reason });
                }
                None => {
                    message["error"] = json!({
                        "code": METHOD_NOT_FOUND,
                        "message": format!("Method not found: this client does not answer `{method}`"),
                    });
                }
            }
            if let Err(error) = session.wire.send(Outgoing::other(message, session.version())) {
                tracing::debug!(
                    "the answer to the server's {} was not sent: {}",
                    escaped(&method),
                    escaped(&error.to_string())
                );
            }
        });
    }
}

/// A request on its way: dropped before its answer, it is cancelled.
struct InFlight<'a> {
    session: &'a Arc<Session>,
    id: u64,
    token: Option<String>,
    done: bool,
}

impl InFlight<'_> {
    fn forget(&self) {
        lock(&self.session.pending).remove(&self.id);
        self.forget_progress();
    }

    fn forget_progress(&self) {
        if let Some(token) = &self.token {
            lock(&self.session.progress).remove(token);
        }
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        self.forget();
        self.session.cancel(self.id, "the client stopped waiting for the answer");
    }
}

/// Reads the inbox until the transport ends or the session is gone.
async fn read_inbox(session: Weak<Session>, mut inbox: mpsc::UnboundedReceiver<Inbound>) {
    while let Some(inbound) = inbox.recv().await {
        let Some(session) = session.upgrade() else { return };
        match inbound {
            Inbound::Message(message) => session.handle(message),
            Inbound::Members(message) => session.receive(message),
            Inbound::Failed { id, error } => match lock(&session.pending).remove(&id) {
                Some(waiter) => {
                    let _ = waiter.sender.send(Err(error));
                }
                None => tracing::debug!(
                    "request {id} failed after its caller stopped waiting: {}",
                    escaped(&error.to_string())
                ),
            },
            Inbound::Problem(problem) => session.problem(problem),
            Inbound::Closed(reason) => return session.close_with(reason),
        }
    }
    if let Some(session) = session.upgrade() {
        session.close_with("the transport stopped".into());
    }
}
