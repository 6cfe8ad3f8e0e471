//! A task this instance runs: its record as it changes, the questions its
//! tool waits on, and the asker and notifier its tool's context uses.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use serde_json::{Map, Value, json};
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::Tasks;
use super::record::{Status, TaskRecord};
use crate::mcp::{Notification, ProtocolVersion};
use crate::server::input::question_key;
use crate::toolbox::context::Notifier;
use crate::toolbox::{Ask, AskError, AskFuture, AskMethod, Asker};

/// A question of the task's tool waiting for its answer.
struct Waiting {
    method: AskMethod,
    answer: oneshot::Sender<Value>,
}

/// A task running on this instance.
pub(crate) struct RunningTask {
    record: Mutex<TaskRecord>,
    /// Held while the record is written, so writes land in the order made.
    saving: tokio::sync::Mutex<()>,
    /// Fired by `tasks/cancel`: the tool's `ctx.cancelled()`.
    pub(crate) cancel: CancellationToken,
    waiting: Mutex<HashMap<String, Waiting>>,
    /// How many questions the tool asked (the keys of unnamed ones).
    asked: AtomicUsize,
    /// How many input messages other instances left in the store were read.
    pub(crate) inputs_read: AtomicUsize,
    /// The `updated_ms` of the record last announced to listeners.
    announced: AtomicU64,
    /// The protocol version and capabilities of the client that made the task.
    version: ProtocolVersion,
    capabilities: Value,
    kept: Mutex<Map<String, Value>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl RunningTask {
    /// A task from `record`, for a client of `version` with `capabilities`,
    /// whose tool stops at `cancel`.
    pub(crate) fn new(
        record: TaskRecord,
        version: ProtocolVersion,
        capabilities: Value,
        cancel: CancellationToken,
    ) -> RunningTask {
        RunningTask {
            record: Mutex::new(record),
            saving: tokio::sync::Mutex::new(()),
            cancel,
            waiting: Mutex::new(HashMap::new()),
            asked: AtomicUsize::new(0),
            inputs_read: AtomicUsize::new(0),
            announced: AtomicU64::new(u64::MAX),
            version,
            capabilities,
            kept: Mutex::new(Map::new()),
        }
    }

    /// The record as it stands.
    pub(crate) fn record(&self) -> TaskRecord {
        lock(&self.record).clone()
    }

    /// Changes the record with `change`.
    pub(crate) fn update<T>(&self, change: impl FnOnce(&mut TaskRecord) -> T) -> T {
        change(&mut lock(&self.record))
    }

    /// Writes the record to the store, and tells listeners when it changed
    /// since the last time (a renewed lease alone is no change to them).
    pub(crate) async fn save(&self, tasks: &Tasks) -> Result<(), crate::server::store::StoreError> {
        let _order = self.saving.lock().await;
        let record = self.record();
        let changed = self.announced.swap(record.updated_ms, Ordering::SeqCst) != record.updated_ms;
        tasks.write(&record, changed).await
    }

    /// Gives the answers in `responses` to the questions waiting for them;
    /// answers to no waiting question are ignored (the extension's rule). An
    /// answer of the wrong shape for its question refuses them all, naming it.
    pub(crate) fn answer(&self, responses: &Map<String, Value>) -> Result<usize, String> {
        let mut waiting = lock(&self.waiting);
        for (key, answer) in responses {
            if let Some(question) = waiting.get(key)
                && !question.method.is_answer(answer)
            {
                return Err(format!(
                    "the answer to `{key}` is not a result of {} (an elicitation's has an `action`)",
                    question.method.name()
                ));
            }
        }
        let mut answered = 0;
        let mut record = lock(&self.record);
        for (key, answer) in responses {
            if let Some(question) = waiting.remove(key) {
                record.input_requests.remove(key);
                let _ = question.answer.send(answer.clone());
                answered += 1;
            }
        }
        if answered > 0 {
            if record.input_requests.is_empty() && record.status == Status::InputRequired {
                record.set_status(Status::Working, None);
            } else {
                record.touch();
            }
        }
        Ok(answered)
    }
}

/// The asker of a task's tool: a question becomes one of the task's
/// `inputRequests` (status `input_required`), answered by `tasks/update`.
pub(crate) struct TaskAsker {
    pub(crate) task: Arc<RunningTask>,
    pub(crate) tasks: Weak<Tasks>,
}

impl Asker for TaskAsker {
    fn ask(&self, ask: Ask) -> AskFuture {
        let task = Arc::clone(&self.task);
        let index = task.asked.fetch_add(1, Ordering::SeqCst) + 1;
        let key = ask.key.unwrap_or_else(|| question_key(ask.method, index));
        if !ask.method.allowed(task.version, &task.capabilities) {
            let error = AskError::Unsupported { method: ask.method.name(), capability: ask.method.capability() };
            return Box::pin(std::future::ready(Err(error)));
        }
        let params = ask.method.params_for(ask.params, task.version);
        let (sender, answer) = oneshot::channel();
        lock(&task.waiting).insert(key.clone(), Waiting { method: ask.method, answer: sender });
        task.update(|record| {
            record.input_requests.insert(key, json!({ "method": ask.method.name(), "params": params }));
            record.set_status(Status::InputRequired, None);
        });
        let tasks = self.tasks.clone();
        Box::pin(async move {
            if let Some(tasks) = tasks.upgrade()
                && let Err(error) = task.save(&tasks).await
            {
                tracing::warn!("a task's question could not be recorded: {error}");
            }
            tokio::select! {
                answer = answer => answer.map_err(|_| AskError::Cancelled),
                () = task.cancel.cancelled() => Err(AskError::Cancelled),
            }
        })
    }

    fn kept(&self, key: &str) -> Option<Value> {
        lock(&self.task.kept).get(key).cloned()
    }

    fn keep(&self, key: &str, value: Value) {
        lock(&self.task.kept).insert(key.to_owned(), value);
    }
}

/// The notifier of a task's tool: progress becomes the task's status
/// message; log messages are not carried by tasks (the extension says so).
pub(crate) struct TaskNotifier {
    pub(crate) task: Arc<RunningTask>,
    pub(crate) tasks: Weak<Tasks>,
}

impl Notifier for TaskNotifier {
    fn notify(&self, notification: Notification, params: Value) {
        if notification != Notification::Progress {
            return;
        }
        let message = match params.get("message").and_then(Value::as_str) {
            Some(message) => message.to_owned(),
            None => {
                let progress = params.get("progress").cloned().unwrap_or(Value::Null);
                match params.get("total") {
                    Some(total) => format!("{progress} of {total}"),
                    None => format!("{progress}"),
                }
            }
        };
        let changed = self.task.update(|record| {
            if record.status != Status::Working {
                return false;
            }
            record.set_status(Status::Working, Some(message));
            true
        });
        let (Some(tasks), Ok(runtime)) = (self.tasks.upgrade(), tokio::runtime::Handle::try_current()) else {
            return;
        };
        if changed {
            let task = Arc::clone(&self.task);
            runtime.spawn(async move {
                if let Err(error) = task.save(&tasks).await {
                    tracing::debug!("a task's progress could not be recorded: {error}");
                }
            });
        }
    }
}
