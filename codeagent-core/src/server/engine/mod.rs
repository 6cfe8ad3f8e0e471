//! The protocol engine, independent of transport: every MCP method, batch,
//! cancellation, notification, `subscriptions/listen` stream and list-changed
//! announcement is handled here, once. A transport only frames messages: it
//! hands the engine each message it reads, with a [`Route`] to the client, and
//! sends the [`Reply`] it gets back.

mod batch;
mod call;
mod call_refusal;
mod chain;
mod input;
mod listen;
mod methods;
mod params;
mod prompts;
mod resources;
mod skills;
#[cfg(feature = "tasks")]
mod task_call;
#[cfg(feature = "tasks")]
mod tasks;
#[cfg(not(feature = "tasks"))]
mod without_tasks;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

#[cfg(feature = "http")]
pub(crate) use listen::Change;

use super::budget::ResultStore;
use super::era::Era;
use super::info::ServerInfo;
use super::jsonrpc::{Incoming, METHOD_NOT_FOUND, Request, RpcError, error_message, result_message};
use super::outgoing::Outgoing;
use super::outlet::{Outlet, RequestNotifier};
use super::peer::{Peer, Slot};
use super::scopes;
use super::state::StateKeys;
use crate::mcp::meta::SERVER_INFO_KEY;
use crate::mcp::{Method, Notification};
use crate::toolbox::{Asker, Context, RequestInfo, ResultBudget, Toolbox};

/// How long a stopped tool (a call given up, a task cancelled) may run on to
/// notice its cancellation and clean up.
const CANCEL_GRACE: Duration = Duration::from_secs(1);

/// What a server serves and how it describes itself.
#[derive(Clone)]
pub(crate) struct Engine {
    pub(crate) toolbox: Toolbox,
    pub(crate) info: ServerInfo,
    /// `info` as 2026-07-28 states it, built once for every modern result.
    pub(crate) modern_info: Value,
    pub(crate) instructions: Option<String>,
    pub(crate) discover_ttl: Duration,
    /// The keys that seal and open 2026-07-28 `requestState`.
    pub(crate) state_keys: StateKeys,
    /// How long a `requestState` stays valid.
    pub(crate) state_ttl: Duration,
    /// How long a legacy question waits for the client's answer.
    pub(crate) ask_timeout: Duration,
    /// The result budget of tools without one of their own.
    pub(crate) budget: ResultBudget,
    /// The results over budget, kept for `resources/read`; shared by every
    /// clone of the server.
    pub(crate) results: Arc<ResultStore>,
    /// Where results over budget are also kept, for other instances to read.
    #[cfg(feature = "http")]
    pub(crate) shared_results: Option<Arc<dyn crate::server::store::Store>>,
    /// The middleware every request passes through, outermost first.
    pub(crate) middleware: super::middleware::Chain,
    /// The skills served (SEP-2640), whose files are resources of the toolbox.
    #[cfg(feature = "skills")]
    pub(crate) skills: Option<crate::skills::Skills>,
    /// The tasks of tool calls run as tasks (the tasks extension).
    #[cfg(feature = "tasks")]
    pub(crate) tasks: Arc<crate::server::tasks::Tasks>,
}

/// How a request reaches back to its client while it runs.
#[derive(Clone)]
pub(crate) struct Route {
    /// Where the request's notifications go.
    pub(crate) outlet: Arc<dyn Outlet>,
    /// Fired by the transport when the client can no longer receive the
    /// response (it hung up): the request stops.
    pub(crate) hangup: Option<CancellationToken>,
    /// How long a request may run before it is stopped with an error.
    pub(crate) deadline: Option<Duration>,
    /// The changes other instances announce, for a `subscriptions/listen`
    /// stream to hear as well (with a shared store).
    #[cfg(feature = "http")]
    pub(crate) remote_changes: Option<tokio::sync::broadcast::Sender<String>>,
    /// Who sent the request, once an authorisation layer (or a middleware)
    /// established it.
    pub(crate) caller: Option<crate::toolbox::Caller>,
    /// Whether requests on this route must come from a known caller (a
    /// resource server's endpoint): then a request without one is refused
    /// whatever a tool, resource or prompt it names needs.
    pub(crate) caller_required: bool,
    /// The HTTP headers of the request, for middleware to see (kept only
    /// when the server has middleware).
    #[cfg(feature = "http")]
    pub(crate) headers: Option<Arc<axum::http::HeaderMap>>,
}

impl Route {
    /// A route to `outlet`, with no hang-up signal and no deadline.
    pub(crate) fn to(outlet: Arc<dyn Outlet>) -> Route {
        Route {
            outlet,
            hangup: None,
            deadline: None,
            #[cfg(feature = "http")]
            remote_changes: None,
            caller: None,
            caller_required: false,
            #[cfg(feature = "http")]
            headers: None,
        }
    }
}

/// A response that is still being worked out (`None`: none is owed).
pub(crate) type Pending = Pin<Box<dyn Future<Output = Option<Outgoing>> + Send + 'static>>;

/// The engine's answer to a message.
pub(crate) enum Reply {
    /// Decided at once: the message to send, if any.
    Now(Option<Outgoing>),
    /// Decided when the future finishes (a tool call, a batch, a stream).
    Later(Pending),
}

impl Reply {
    fn error(id: &Value, error: &RpcError) -> Reply {
        Reply::Now(Some(error_message(id, error)))
    }
}

/// The context a request's handler runs in: its id, `_meta`, stop signal,
/// notifier, log level, protocol version and where its questions go.
pub(super) fn request_context(
    id: &Value,
    era: Era,
    params: &Map<String, Value>,
    slot: &Arc<Slot>,
    route: &Route,
    asker: Option<Arc<dyn Asker>>,
) -> Context {
    let meta = match params.get("_meta") {
        Some(Value::Object(meta)) => meta.clone(),
        _ => Map::new(),
    };
    Context::new(RequestInfo {
        request_id: Some(id.clone()),
        meta,
        cancellation: slot.stop.clone(),
        notifier: Some(Arc::new(RequestNotifier { outlet: Arc::clone(&route.outlet), slot: Arc::clone(slot) })),
        log_level: era.log_level,
        protocol_version: Some(era.version),
        asker,
        caller: route.caller.clone(),
        task: None,
    })
}

/// Refuses registered request `id` with `error`.
pub(super) fn refused(peer: &Peer, id: &Value, slot: &Slot, error: &RpcError) -> Reply {
    slot.finish();
    peer.complete(id);
    Reply::error(id, error)
}

/// Awaits `work` for registered request `id`, unless the request is stopped
/// (cancelled, the client gone) first: then, or when a cancellation raced the
/// work's end, `None`, as no response is owed.
pub(super) async fn unless_stopped<T>(
    peer: &Peer,
    id: &Value,
    slot: &Slot,
    route: &Route,
    work: impl Future<Output = T>,
) -> Option<T> {
    let hangup = route.hangup.clone().unwrap_or_default();
    let done = tokio::select! {
        done = work => Some(done),
        () = slot.stop.cancelled() => None,
        () = hangup.cancelled() => None,
    };
    slot.finish();
    let owed = peer.complete(id);
    done.filter(|_| owed)
}

impl Engine {
    /// Handles one message from `peer`. Everything that must happen in the
    /// order messages arrive (the handshake, `logging/setLevel`, registering
    /// a request id, cancellation) happens before this returns.
    pub(crate) fn receive(self: &Arc<Self>, peer: &Arc<Peer>, message: Incoming, route: &Route) -> Reply {
        match message {
            Incoming::Request(request) => self.request(peer, request, route),
            Incoming::Notification { method, params } => {
                self.notification(peer, &method, &params);
                Reply::Now(None)
            }
            Incoming::Response { id, outcome } => {
                if !peer.answer(&id, outcome) {
                    tracing::debug!("ignoring a response to {id}: no question with that id is waiting");
                }
                Reply::Now(None)
            }
            Incoming::Invalid { id, error } => Reply::error(&id, &error),
            Incoming::Batch(batch) => self.batch(peer, batch, route),
        }
    }

    /// Handles one request.
    fn request(self: &Arc<Self>, peer: &Arc<Peer>, request: Request, route: &Route) -> Reply {
        let Request { id, method: name, params } = request;
        let method = Method::from_name(&name);
        let era = match Era::of(peer, method, &params) {
            Ok(era) => era,
            Err(error) => return Reply::error(&id, &error),
        };
        let slot = match peer.register(&id) {
            Ok(slot) => slot,
            Err(error) => return Reply::error(&id, &error),
        };
        if !self.middleware.is_empty() {
            return self.through_middleware(peer, Request { id, method: name, params }, era, slot, route);
        }
        self.dispatch(peer, Request { id, method: name, params }, era, slot, route)
    }

    /// Hands registered request `request` to its method's handler.
    fn dispatch(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        request: Request,
        era: Era,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        let Request { id, method: name, params } = request;
        // Every request passes here, however it came and whatever middleware
        // did: the one place per-item scopes are enforced.
        if let Some(error) = scopes::check(&self.toolbox, &name, &params, route.caller.as_ref(), route.caller_required)
        {
            return refused(peer, &id, &slot, &error);
        }
        if let Err(error) = params::check_meta(&params) {
            return refused(peer, &id, &slot, &error);
        }
        let method = Method::from_name(&name);
        let answer = match method.filter(|method| method.exists_in(era.version)) {
            Some(Method::ToolsCall) => return self.call(peer, id, era, params, slot, route),
            #[cfg(feature = "tasks")]
            Some(method @ (Method::TasksGet | Method::TasksUpdate | Method::TasksCancel)) => {
                return self.task_method(peer, id, method, era, params, slot, route);
            }
            #[cfg(not(feature = "tasks"))]
            Some(Method::TasksGet | Method::TasksUpdate | Method::TasksCancel) => {
                Err(without_tasks::no_task_methods(&name))
            }
            Some(Method::SubscriptionsListen) => return self.listen(peer, id, era, params, slot, route),
            Some(Method::ResourcesRead) => return self.read(peer, id, era, params, slot, route),
            Some(Method::PromptsGet) => return self.get_prompt(peer, id, era, params, slot, route),
            Some(Method::PromptsList) => self.list_prompts(era, &params),
            Some(Method::Complete) => self.complete(&params),
            Some(Method::ResourcesList) => self.list_resources(era, &params, false),
            Some(Method::ResourceTemplatesList) => self.list_resources(era, &params, true),
            Some(Method::ResourcesSubscribe) => self.subscription(peer, &params, true),
            Some(Method::ResourcesUnsubscribe) => self.subscription(peer, &params, false),
            Some(Method::Initialize) => Ok(self.initialize(peer, &params)),
            Some(Method::Ping) => Ok(Value::Object(Map::new())),
            Some(Method::SetLogLevel) => self.set_level(peer, &params),
            Some(Method::Discover) => Ok(self.discover(era)),
            Some(Method::ToolsList) => self.list(era, &params),
            Some(method @ (Method::SkillsList | Method::SkillsGet | Method::ResourcesDirectoryRead)) => {
                self.skills_method(method, era, &params)
            }
            None => Err(RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {name}"))),
        };
        slot.finish();
        peer.complete(&id);
        Reply::Now(Some(match answer {
            Ok(result) => result_message(&id, self.finish(era, result)),
            Err(error) => error_message(&id, &error),
        }))
    }

    /// Handles a notification from the client.
    fn notification(&self, peer: &Peer, method: &str, params: &Map<String, Value>) {
        match Notification::from_name(method) {
            Some(Notification::Initialized) => peer.update(|negotiated| negotiated.initialized = true),
            Some(Notification::Cancelled) => {
                if let Some(id) = params.get("requestId") {
                    peer.cancel(id);
                }
            }
            _ => tracing::debug!("ignoring notification {}", crate::log_text::escaped(method)),
        }
    }

    /// Adds what every result of the era carries: in 2026-07-28, `resultType`
    /// and the server's identity in `_meta`.
    pub(crate) fn finish(&self, era: Era, mut result: Value) -> Value {
        if era.is_modern()
            && let Value::Object(object) = &mut result
        {
            object.entry("resultType").or_insert_with(|| Value::from("complete"));
            let meta = object.entry("_meta").or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(meta) = meta {
                meta.insert(SERVER_INFO_KEY.into(), self.modern_info.clone());
            }
        }
        result
    }
}
