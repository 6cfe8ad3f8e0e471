//! The request context injected into tools: progress, cancellation, logging
//! and the request's `_meta`.

use std::fmt;
use std::sync::{Arc, Mutex};

use serde_json::{Map, Value, json};
pub use tokio_util::sync::CancellationToken;

use super::ask::Asker;
use super::caller::Caller;
use super::task::TaskLink;
use crate::mcp::meta::PROGRESS_TOKEN_KEY;
use crate::mcp::{Notification, ProtocolVersion};

/// Where a context sends notifications: the connection that carried the request.
pub(crate) trait Notifier: Send + Sync {
    /// Sends `notification` with `params` to the client.
    fn notify(&self, notification: Notification, params: Value);
}

/// The severity of a log message, as MCP (and syslog) orders them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// Detailed debugging information.
    Debug,
    /// Informational messages.
    Info,
    /// Normal but significant events.
    Notice,
    /// Warnings.
    Warning,
    /// Errors.
    Error,
    /// Critical conditions.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// The level's wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    /// The level named `name`.
    pub fn from_name(name: &str) -> Option<LogLevel> {
        serde_json::from_value(Value::from(name)).ok()
    }
}

/// What a tool knows about the request it serves, injected by type: declare a
/// parameter `ctx: &Context` (or `Context`) and it is filled in, and left out
/// of the input schema.
///
/// ```
/// use codeagent_core::toolbox::Context;
///
/// let ctx = Context::detached();
/// ctx.progress(1.0, Some(3.0), Some("first step")); // a no-op without a client token
/// assert!(!ctx.is_cancelled());
/// ```
#[derive(Clone)]
pub struct Context {
    inner: Arc<ContextState>,
}

struct ContextState {
    request_id: Option<Value>,
    meta: Map<String, Value>,
    progress_token: Option<Value>,
    last_progress: Mutex<Option<f64>>,
    cancellation: CancellationToken,
    notifier: Option<Arc<dyn Notifier>>,
    log_level: Option<LogLevel>,
    protocol_version: Option<ProtocolVersion>,
    asker: Option<Arc<dyn Asker>>,
    caller: Option<Caller>,
    task: Option<Arc<TaskLink>>,
}

/// Everything a server knows about a request, to build its [`Context`].
#[derive(Default)]
pub(crate) struct RequestInfo {
    /// The JSON-RPC request id.
    pub(crate) request_id: Option<Value>,
    /// The request's `_meta`.
    pub(crate) meta: Map<String, Value>,
    /// Fired when the request is stopped.
    pub(crate) cancellation: CancellationToken,
    /// Where progress and log notifications go.
    pub(crate) notifier: Option<Arc<dyn Notifier>>,
    /// The least severe level the client wants log messages for; none means no logging.
    pub(crate) log_level: Option<LogLevel>,
    /// The protocol version of the request.
    pub(crate) protocol_version: Option<ProtocolVersion>,
    /// Where the tool's questions to the client go.
    pub(crate) asker: Option<Arc<dyn Asker>>,
    /// Who sent the request, when an authorisation layer or a middleware said.
    pub(crate) caller: Option<Caller>,
    /// The task the call is (or may become), for a tool that runs as one.
    pub(crate) task: Option<Arc<TaskLink>>,
}

impl Context {
    /// A context that belongs to no client: progress and logs go nowhere, and
    /// nothing cancels it. [`Tools::call`](crate::tools::Tools::call) uses one.
    pub fn detached() -> Self {
        Context::new(RequestInfo::default())
    }

    /// The context of a request.
    pub(crate) fn new(info: RequestInfo) -> Self {
        let progress_token =
            info.meta.get(PROGRESS_TOKEN_KEY).filter(|token| token.is_string() || token.is_number()).cloned();
        Context {
            inner: Arc::new(ContextState {
                request_id: info.request_id,
                meta: info.meta,
                progress_token,
                last_progress: Mutex::new(None),
                cancellation: info.cancellation,
                notifier: info.notifier,
                log_level: info.log_level,
                protocol_version: info.protocol_version,
                asker: info.asker,
                caller: info.caller,
                task: info.task,
            }),
        }
    }

    /// Where the tool's questions go, when a client can be asked.
    pub(crate) fn asker(&self) -> Option<&dyn Asker> {
        self.inner.asker.as_deref()
    }

    /// The request's `_meta`, as the client sent it.
    pub fn meta(&self) -> &Map<String, Value> {
        &self.inner.meta
    }

    /// The JSON-RPC id of the request, when there is one.
    pub fn request_id(&self) -> Option<&Value> {
        self.inner.request_id.as_ref()
    }

    /// Who sent the request, when an authorisation layer or a
    /// [middleware](crate::server::middleware) established it
    /// ([`Request::set_caller`](crate::server::middleware::Request::set_caller)).
    pub fn caller(&self) -> Option<&Caller> {
        self.inner.caller.as_ref()
    }

    /// The protocol version of the request, when served over MCP.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.inner.protocol_version
    }

    /// The client's progress token, when it asked for progress.
    pub fn progress_token(&self) -> Option<&Value> {
        self.inner.progress_token.as_ref()
    }

    /// Reports progress to the client, echoing its progress token. Does nothing
    /// when the client sent no token, and drops a value that does not increase
    /// on the last one sent, so the client never sees progress go backwards.
    pub fn progress(&self, progress: f64, total: Option<f64>, message: Option<&str>) {
        // A task takes progress (as its status message) whether or not the
        // client sent a token.
        let task_token = self.task_id().map(Value::from);
        let (Some(token), Some(notifier)) =
            (self.inner.progress_token.as_ref().or(task_token.as_ref()), &self.inner.notifier)
        else {
            return;
        };
        if !progress.is_finite() {
            return;
        }
        {
            let mut last = self.inner.last_progress.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.is_some_and(|last| progress <= last) {
                return;
            }
            *last = Some(progress);
        }
        let mut params = Map::new();
        params.insert(PROGRESS_TOKEN_KEY.into(), token.clone());
        params.insert("progress".into(), Value::from(progress));
        if let Some(total) = total.filter(|total| total.is_finite()) {
            params.insert("total".into(), Value::from(total));
        }
        // `message` exists from 2025-03-26 on.
        let has_message = self.inner.protocol_version.is_none_or(|version| version >= ProtocolVersion::V2025_03_26);
        if let Some(message) = message.filter(|_| has_message) {
            params.insert("message".into(), Value::from(message));
        }
        notifier.notify(Notification::Progress, Value::Object(params));
    }

    /// The id of the task this call runs as, when the client polls it as a
    /// task (the tasks extension); `None` for an ordinary call.
    pub fn task_id(&self) -> Option<&str> {
        self.inner.task.as_deref().and_then(TaskLink::id)
    }

    /// For a tool marked `#[tool(task(detach))]`: answers the request with
    /// a task from here on. The questions the tool asked before were asked
    /// with the request (as rounds of `input_required`, or requests to a
    /// legacy client); those after are the task's, and so is its progress.
    /// Returns once the task exists; for an ordinary call (a client that
    /// cannot poll a task) and for other tools, at once.
    ///
    /// ```
    /// # async fn example() {
    /// use codeagent_core::toolbox::Context;
    ///
    /// let ctx = Context::detached();
    /// ctx.detach().await; // not a task: returns at once
    /// assert_eq!(ctx.task_id(), None);
    /// # }
    /// ```
    pub async fn detach(&self) {
        if let Some(task) = &self.inner.task {
            task.detach().await;
        }
    }

    /// Whether the client cancelled the request.
    pub fn is_cancelled(&self) -> bool {
        self.inner.cancellation.is_cancelled()
    }

    /// Waits until the client cancels the request: `select!` on it to stop long work.
    pub async fn cancelled(&self) {
        self.inner.cancellation.cancelled().await;
    }

    /// The request's cancellation signal, to hand to work the tool starts.
    pub fn cancellation(&self) -> &CancellationToken {
        &self.inner.cancellation
    }

    /// Whether a log message at `level` would reach the client.
    pub fn logs_at(&self, level: LogLevel) -> bool {
        self.inner.notifier.is_some() && self.inner.log_level.is_some_and(|least| level >= least)
    }

    /// Sends a log message to the client, when it asked for that level.
    pub fn log(&self, level: LogLevel, data: impl Into<Value>) {
        if !self.logs_at(level) {
            return;
        }
        if let Some(notifier) = &self.inner.notifier {
            notifier.notify(
                Notification::Message,
                json!({ "level": level.as_str(), "logger": "codeagent", "data": data.into() }),
            );
        }
    }

    /// Sends a debug message.
    pub fn debug(&self, message: impl Into<String>) {
        self.log(LogLevel::Debug, message.into());
    }

    /// Sends an informational message.
    pub fn info(&self, message: impl Into<String>) {
        self.log(LogLevel::Info, message.into());
    }

    /// Sends a warning.
    pub fn warning(&self, message: impl Into<String>) {
        self.log(LogLevel::Warning, message.into());
    }

    /// Sends an error message.
    pub fn error(&self, message: impl Into<String>) {
        self.log(LogLevel::Error, message.into());
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("request_id", &self.inner.request_id)
            .field("progress_token", &self.inner.progress_token)
            .field("cancelled", &self.is_cancelled())
            .finish_non_exhaustive()
    }
}
