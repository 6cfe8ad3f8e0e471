//! `tools/call` of a tool that runs as a task (`#[tool(task)]`), for a
//! client that declared the tasks extension: the task's record is written,
//! then the request is answered with it (`resultType: "task"`) while the
//! tool runs on, its questions the task's `inputRequests`, its progress the
//! task's status message, its cancellation `tasks/cancel`.
//!
//! A tool marked `task(detach)` runs as an ordinary request until it calls
//! `ctx.detach()`: what it asks before is asked with the request, and the
//! task is made then.

use std::sync::{Arc, OnceLock};

use serde_json::{Map, Value};
use tokio_util::sync::CancellationToken;

use super::input::declared_capabilities;
use super::tasks::{declares_tasks, store_failed, tasks_not_declared};
use super::{CANCEL_GRACE, Engine, Route};
use crate::mcp::Notification;
use crate::server::era::Era;
use crate::server::jsonrpc::{INTERNAL_ERROR, RpcError};
use crate::server::outlet::RequestNotifier;
use crate::server::peer::{Peer, Slot};
use crate::server::tasks::record::Status;
use crate::server::tasks::running::{RunningTask, TaskAsker, TaskNotifier};
use crate::toolbox::context::{Notifier, RequestInfo};
use crate::toolbox::task::TaskLink;
use crate::toolbox::{Ask, AskFuture, Asker, Context, StartedCall, ToolSpec};
use crate::tools::TaskSupport;

/// How a call of a task tool is served.
pub(super) enum TaskMode {
    /// As a task from the start.
    AtOnce,
    /// As a request until the tool detaches.
    AtDetach,
}

/// What a call of a tool marked `task(detach)` needs to become a task.
pub(super) struct Detachable {
    pub(super) link: Arc<TaskLink>,
    asker: Arc<PhasedAsker>,
    notifier: Arc<PhasedNotifier>,
    /// The tool's cancellation: the request's until it detaches, the task's after.
    pub(super) cancel: CancellationToken,
    capabilities: Value,
    owner: Option<String>,
    /// The scopes of the tool it calls, which the task's methods need too.
    scopes: Vec<String>,
}

/// The questions of a `task(detach)` tool: the request's, then the task's.
struct PhasedAsker {
    request: Arc<dyn Asker>,
    task: OnceLock<Arc<dyn Asker>>,
}

impl PhasedAsker {
    fn current(&self) -> &dyn Asker {
        self.task.get().map_or(&*self.request, |task| &**task)
    }
}

impl Asker for PhasedAsker {
    fn ask(&self, ask: Ask) -> AskFuture {
        self.current().ask(ask)
    }

    fn kept(&self, key: &str) -> Option<Value> {
        self.current().kept(key)
    }

    fn keep(&self, key: &str, value: Value) {
        self.current().keep(key, value);
    }
}

/// The notifications of a `task(detach)` tool: the request's, then the task's.
struct PhasedNotifier {
    request: Arc<dyn Notifier>,
    task: OnceLock<Arc<dyn Notifier>>,
}

impl Notifier for PhasedNotifier {
    fn notify(&self, notification: Notification, params: Value) {
        self.task.get().unwrap_or(&self.request).notify(notification, params);
    }
}

fn meta_of(params: &Map<String, Value>) -> Map<String, Value> {
    match params.get("_meta") {
        Some(Value::Object(meta)) => meta.clone(),
        _ => Map::new(),
    }
}

impl Engine {
    /// How a call of `tool` with `params` is served: as a task (the client
    /// declared the extension), as an ordinary call (`None`), or refused
    /// (a tool that needs a task, from a client that cannot poll one).
    pub(super) fn task_mode(
        &self,
        peer: &Peer,
        era: Era,
        params: &Map<String, Value>,
        tool: &ToolSpec,
    ) -> Result<Option<TaskMode>, RpcError> {
        let Some(support) = tool.task_support() else { return Ok(None) };
        if !declares_tasks(peer, era, params) {
            if support == TaskSupport::Required {
                return Err(tasks_not_declared(&format!("the tool `{}`, which runs only as a task,", tool.name())));
            }
            return Ok(None);
        }
        Ok(Some(if tool.task_at_detach() { TaskMode::AtDetach } else { TaskMode::AtOnce }))
    }

    /// The context of a call that is task `task` from its start.
    pub(super) fn task_context(
        &self,
        id: &Value,
        era: Era,
        params: &Map<String, Value>,
        task: &Arc<RunningTask>,
        route: &Route,
    ) -> Context {
        let tasks = Arc::downgrade(&self.tasks);
        Context::new(RequestInfo {
            request_id: Some(id.clone()),
            meta: meta_of(params),
            cancellation: task.cancel.clone(),
            notifier: Some(Arc::new(TaskNotifier { task: Arc::clone(task), tasks: tasks.clone() })),
            log_level: era.log_level,
            protocol_version: Some(era.version),
            asker: Some(Arc::new(TaskAsker { task: Arc::clone(task), tasks })),
            caller: route.caller.clone(),
            task: Some(Arc::new(TaskLink::started(task.record().task_id))),
        })
    }

    /// The context of a `task(detach)` call, and what it needs to detach.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn detachable_context(
        &self,
        peer: &Arc<Peer>,
        id: &Value,
        era: Era,
        (tool, params): (&str, &Map<String, Value>),
        slot: &Arc<Slot>,
        route: &Route,
        asker: Arc<dyn Asker>,
    ) -> (Context, Detachable) {
        let detachable = Detachable {
            link: Arc::new(TaskLink::default()),
            asker: Arc::new(PhasedAsker { request: asker, task: OnceLock::new() }),
            notifier: Arc::new(PhasedNotifier {
                request: Arc::new(RequestNotifier { outlet: Arc::clone(&route.outlet), slot: Arc::clone(slot) }),
                task: OnceLock::new(),
            }),
            cancel: CancellationToken::new(),
            capabilities: declared_capabilities(peer, era, params),
            owner: route.caller.as_ref().map(crate::toolbox::Caller::identity),
            scopes: self.toolbox.tools().scopes(tool),
        };
        let context = Context::new(RequestInfo {
            request_id: Some(id.clone()),
            meta: meta_of(params),
            cancellation: detachable.cancel.clone(),
            notifier: Some(Arc::clone(&detachable.notifier) as Arc<dyn Notifier>),
            log_level: era.log_level,
            protocol_version: Some(era.version),
            asker: Some(Arc::clone(&detachable.asker) as Arc<dyn Asker>),
            caller: route.caller.clone(),
            task: Some(Arc::clone(&detachable.link)),
        });
        (context, detachable)
    }

    /// A fresh task for a call of `tool` with `params`, run here with `cancel` as
    /// its tool's cancellation.
    pub(super) fn new_task(
        &self,
        peer: &Peer,
        era: Era,
        (tool, params): (&str, &Map<String, Value>),
        route: &Route,
    ) -> Result<Arc<RunningTask>, RpcError> {
        let owner = route.caller.as_ref().map(crate::toolbox::Caller::identity);
        let scopes = self.toolbox.tools().scopes(tool);
        let record = self.tasks.new_record(owner, scopes).map_err(|error| {
            RpcError::new(INTERNAL_ERROR, format!("Internal error: no task id could be drawn: {error}"))
        })?;
        let capabilities = declared_capabilities(peer, era, params);
        Ok(Arc::new(RunningTask::new(record, era.version, capabilities, CancellationToken::new())))
    }

    /// Records `task` (before the client hears of it), then runs `call` as
    /// it in the background; the `CreateTaskResult` to answer with.
    pub(super) async fn begin_task(
        self: &Arc<Self>,
        era: Era,
        task: Arc<RunningTask>,
        call: StartedCall,
    ) -> Result<Value, RpcError> {
        self.tasks.run_here(&task);
        let record = task.record();
        if let Err(error) = task.save(&self.tasks).await {
            self.tasks.ended_here(&record.task_id);
            task.cancel.cancel();
            return Err(store_failed(&error));
        }
        let engine = Arc::clone(self);
        tokio::spawn(async move { engine.run_task(era, task, call).await });
        let mut result = record.to_wire(false);
        result.insert("resultType".into(), Value::from("task"));
        Ok(self.finish(era, Value::Object(result)))
    }

    /// Turns the `task(detach)` call `call` into a task: its questions and
    /// progress go to the task from now on. The `CreateTaskResult`.
    pub(super) async fn detach(
        self: &Arc<Self>,
        era: Era,
        detachable: Detachable,
        call: StartedCall,
    ) -> Result<Value, RpcError> {
        let Detachable { link, asker, notifier, cancel, capabilities, owner, scopes } = detachable;
        let record = self.tasks.new_record(owner, scopes).map_err(|error| {
            RpcError::new(INTERNAL_ERROR, format!("Internal error: no task id could be drawn: {error}"))
        });
        let record = match record {
            Ok(record) => record,
            Err(error) => {
                link.decline();
                cancel.cancel();
                return Err(error);
            }
        };
        let id = record.task_id.clone();
        let task = Arc::new(RunningTask::new(record, era.version, capabilities, cancel));
        let tasks = Arc::downgrade(&self.tasks);
        let _ = asker.task.set(Arc::new(TaskAsker { task: Arc::clone(&task), tasks: tasks.clone() }));
        let _ = notifier.task.set(Arc::new(TaskNotifier { task: Arc::clone(&task), tasks }));
        let created = self.begin_task(era, task, call).await;
        link.begin(id);
        created
    }

    /// Runs task `task`'s tool to its end, renewing the task's lease while
    /// it runs, and records how it ended.
    async fn run_task(self: Arc<Self>, era: Era, task: Arc<RunningTask>, mut call: StartedCall) {
        let tasks = Arc::clone(&self.tasks);
        let every = tasks.renewal();
        let mut renewal = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        let finished = loop {
            tokio::select! {
                biased;
                () = task.cancel.cancelled() => break None,
                result = &mut call => break Some(result),
                _ = renewal.tick() => {
                    if let Err(error) = tasks.renew(&task).await {
                        tracing::warn!("a task's lease could not be renewed: {error}");
                    }
                }
            }
        };
        match finished {
            Some(result) => match result.panic_message() {
                Some(message) => {
                    let message = format!("Internal error: the tool `{}` panicked: {message}", call.spec().name());
                    task.update(|record| record.fail(INTERNAL_ERROR, message));
                }
                None => {
                    let owner = task.record().owner;
                    let (mut wire, parts, kept) = self.call_result(era, call.spec(), result, owner.as_deref());
                    // The task's record keeps the result as a tree (written once
                    // data parsed back, see `raw_json`).
                    parts.materialise(&mut wire);
                    if let Some(uri) = kept {
                        self.share_result(&uri, owner.as_deref()).await;
                    }
                    task.update(|record| {
                        record.result = Some(wire);
                        record.input_requests.clear();
                        record.set_status(Status::Completed, None);
                    });
                }
            },
            None => {
                task.update(|record| {
                    record.input_requests.clear();
                    record.set_status(Status::Cancelled, Some("The task was cancelled".to_owned()));
                });
                // Let the tool see `ctx.cancelled()` and clean up before it is dropped.
                tokio::spawn(async move {
                    let _ = tokio::time::timeout(CANCEL_GRACE, call).await;
                });
            }
        }
        let id = task.record().task_id;
        if let Err(error) = task.save(&tasks).await {
            tracing::warn!("how task {id} ended could not be recorded: {error}");
        }
        tasks.ended_here(&id);
    }
}
