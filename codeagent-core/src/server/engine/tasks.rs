//! The tasks extension's methods (`tasks/get`, `tasks/update`,
//! `tasks/cancel`), who may use them, and how the server advertises them.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::input::declared_capabilities;
use super::{Engine, Reply, Route, refused};
use crate::mcp::Method;
use crate::server::era::Era;
use crate::server::jsonrpc::{
    INTERNAL_ERROR, INVALID_PARAMS, MISSING_CLIENT_CAPABILITY, RpcError, error_message, result_message,
};
use crate::server::peer::{Peer, Slot};
use crate::server::scopes;
use crate::server::store::StoreError;
use crate::server::tasks::record::TaskRecord;
use crate::server::tasks::{AnswerError, TASKS_EXTENSION, is_task_id};

/// Whether the client of a request with `params` declared the tasks
/// extension: in this 2026-07-28 request's capabilities, or at `initialize`.
pub(super) fn declares_tasks(peer: &Peer, era: Era, params: &Map<String, Value>) -> bool {
    let declared = declared_capabilities(peer, era, params);
    declared.get("extensions").and_then(|extensions| extensions.get(TASKS_EXTENSION)).is_some_and(Value::is_object)
}

/// The `-32021` error of a request that needs the tasks extension from a
/// client that did not declare it.
pub(super) fn tasks_not_declared(what: &str) -> RpcError {
    RpcError::new(
        MISSING_CLIENT_CAPABILITY,
        format!(
            "Missing required client capability: {what} needs the client to declare the `{TASKS_EXTENSION}` extension"
        ),
    )
    .with_data(json!({ "requiredCapabilities": { "extensions": { TASKS_EXTENSION: {} } } }))
}

/// The `-32603` error of a task the store failed to read or write.
pub(super) fn store_failed(error: &StoreError) -> RpcError {
    RpcError::new(INTERNAL_ERROR, format!("Internal error: the task store failed: {error}"))
}

/// The `-32602` error of a task that does not exist, expired, or belongs
/// to another caller (which is not told apart, so no task is revealed).
fn unknown_task(id: &str) -> RpcError {
    if !is_task_id(id) {
        return RpcError::new(
            INVALID_PARAMS,
            "Failed to retrieve task: Task not found: not a task id this server made",
        );
    }
    RpcError::new(INVALID_PARAMS, format!("Failed to retrieve task: Task not found or expired: `{id}`"))
}

/// Whether `caller` may see `record`: a task made for a known caller is
/// that caller's alone.
pub(super) fn belongs_to(record: &TaskRecord, caller: Option<&crate::toolbox::Caller>) -> bool {
    match &record.owner {
        None => true,
        Some(owner) => caller.is_some_and(|caller| caller.identity() == *owner),
    }
}

impl Engine {
    /// Adds the tasks extension to `capabilities` when a tool runs as a task.
    pub(super) fn advertise_tasks(&self, capabilities: &mut Map<String, Value>) {
        let tools = self.toolbox.tools();
        let any =
            tools.names().iter().any(|name| tools.find(name).is_some_and(|tool| tool.spec().task_support().is_some()));
        if any {
            let extensions = capabilities.entry("extensions").or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(extensions) = extensions {
                extensions.insert(TASKS_EXTENSION.into(), json!({}));
            }
        }
    }

    /// `tasks/get`, `tasks/update` or `tasks/cancel` request `id`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn task_method(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        id: Value,
        method: Method,
        era: Era,
        params: Map<String, Value>,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        if !declares_tasks(peer, era, &params) {
            return refused(peer, &id, &slot, &tasks_not_declared(method.name()));
        }
        let task_id = match params.get("taskId") {
            Some(Value::String(task_id)) if !task_id.is_empty() => task_id.clone(),
            _ => {
                let error = RpcError::new(INVALID_PARAMS, format!("Invalid params: {method} needs a `taskId` string"));
                return refused(peer, &id, &slot, &error);
            }
        };
        let responses = match (method, params.get("inputResponses")) {
            (Method::TasksUpdate, Some(Value::Object(responses))) => responses.clone(),
            (Method::TasksUpdate, _) => {
                let error = RpcError::new(
                    INVALID_PARAMS,
                    "Invalid params: tasks/update needs `inputResponses`, an object of answers by question key",
                );
                return refused(peer, &id, &slot, &error);
            }
            _ => Map::new(),
        };
        let engine = Arc::clone(self);
        let peer = Arc::clone(peer);
        let (caller, caller_required) = (route.caller.clone(), route.caller_required);
        Reply::Later(Box::pin(async move {
            let answer = engine.task_answer(method, &task_id, responses, caller.as_ref(), caller_required).await;
            slot.finish();
            if !peer.complete(&id) {
                return None;
            }
            Some(match answer {
                Ok(result) => result_message(&id, engine.finish(era, result)),
                Err(error) => error_message(&id, &error),
            })
        }))
    }

    /// What a task method answers about task `task_id`.
    async fn task_answer(
        &self,
        method: Method,
        task_id: &str,
        responses: Map<String, Value>,
        caller: Option<&crate::toolbox::Caller>,
        caller_required: bool,
    ) -> Result<Value, RpcError> {
        let tasks = &self.tasks;
        let record = tasks.load(task_id).await.map_err(|error| store_failed(&error))?;
        let record = record.filter(|record| belongs_to(record, caller)).ok_or_else(|| unknown_task(task_id))?;
        // A task's methods reach its tool: they need what a call of it needs.
        let missing = scopes::missing(&record.scopes, caller, caller_required);
        if !missing.is_empty() {
            return Err(scopes::forbidden(&record.scopes, &missing));
        }
        // The extension's results carry `resultType` in every era.
        match method {
            Method::TasksGet => {
                let mut task = record.to_wire(true);
                task.insert("resultType".into(), Value::from("complete"));
                Ok(Value::Object(task))
            }
            Method::TasksUpdate => {
                tasks.answer(&record, responses).await.map_err(|error| match error {
                    AnswerError::Invalid(problem) => {
                        RpcError::new(INVALID_PARAMS, format!("Invalid params: {problem}"))
                    }
                    AnswerError::Store(error) => store_failed(&error),
                })?;
                Ok(json!({ "resultType": "complete" }))
            }
            _ => {
                if !record.status.is_terminal() {
                    tasks.cancel(&record).await.map_err(|error| store_failed(&error))?;
                }
                Ok(json!({ "resultType": "complete" }))
            }
        }
    }
}
