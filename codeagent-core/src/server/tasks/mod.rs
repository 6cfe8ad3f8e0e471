//! Tasks (the tasks extension, `io.modelcontextprotocol/tasks`, SEP-2663): a
//! tool call answered at once with a task the client polls (`tasks/get`),
//! feeds answers (`tasks/update`) and cancels (`tasks/cancel`), while the
//! tool runs on.
//!
//! Every task is a record in a [`Store`] (in memory unless the server is
//! given a shared one), written before the client hears of the task, so any
//! instance sharing the store answers for it. The instance running the tool
//! renews a lease in the record five times a lease (every second for the
//! default lease of five seconds); an instance reading a task
//! whose lease lapsed (its instance died) ends it `failed`, so no task stays
//! `working` until its TTL because the process running it is gone. A cancel
//! or an answer given to another instance travels through the store (a
//! flag, a list) and its bus to the instance running the tool.

mod options;
pub(crate) mod record;
pub(crate) mod running;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::broadcast;

use super::store::{MemoryStore, Store, StoreError, next_message};
use record::{TaskRecord, now_ms};
use running::RunningTask;

pub use crate::mcp::meta::TASKS_EXTENSION;

/// How long a task is kept from its creation unless the server says otherwise: an hour.
pub const DEFAULT_TASK_TTL: Duration = Duration::from_secs(3600);

/// How often clients are asked to poll a task unless the server says otherwise.
pub const DEFAULT_TASK_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// How long the instance running a task vouches for it at each renewal
/// unless the server says otherwise: five seconds. It renews the lease five
/// times a lease (every second); a task whose lease lapsed, its instance
/// gone, is ended `failed` by the next instance that reads it.
pub const DEFAULT_TASK_LEASE: Duration = Duration::from_secs(5);

/// The most tasks one `subscriptions/listen` stream may follow.
pub(crate) const MAX_LISTENED_TASKS: usize = 100;

/// Whether `id` has the shape of the ids this server makes (32 lowercase hex
/// digits): anything else names no task, and is not looked up.
pub(crate) fn is_task_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

/// What one instance tells the others about a task, over the store's bus.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind")]
enum TaskBus {
    /// The task's record changed.
    #[serde(rename = "task_changed")]
    Changed { task: String },
    /// The client cancelled the task.
    #[serde(rename = "task_cancel")]
    Cancel { task: String },
    /// The client answered some of the task's questions (in the input list).
    #[serde(rename = "task_input")]
    Input { task: String },
}

fn record_key(id: &str) -> String {
    format!("task:{id}")
}

fn cancel_key(id: &str) -> String {
    format!("task:{id}:cancel")
}

fn input_key(id: &str) -> String {
    format!("task:{id}:input")
}

/// The tasks of a server: the store their records live in, and those this
/// instance runs.
pub(crate) struct Tasks {
    store: Arc<dyn Store>,
    /// This instance's name in the records it writes.
    pub(crate) instance: String,
    pub(crate) ttl: Duration,
    pub(crate) poll_interval: Duration,
    /// How long each renewal vouches for a task run here.
    pub(crate) lease: Duration,
    running: Mutex<HashMap<String, Arc<RunningTask>>>,
    /// The ids of tasks whose record changed, on any instance.
    changed: broadcast::Sender<String>,
    /// Whether this instance listens to the store's bus yet.
    listening: AtomicBool,
}

impl std::fmt::Debug for Tasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tasks").field("instance", &self.instance).field("ttl", &self.ttl).finish_non_exhaustive()
    }
}

impl Tasks {
    /// Tasks kept in `store`, each kept for `ttl`, polled every
    /// `poll_interval`, and leased for `lease` by the instance running it.
    pub(crate) fn new(store: Arc<dyn Store>, ttl: Duration, poll_interval: Duration, lease: Duration) -> Tasks {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
        Tasks {
            store,
            instance: format!("{:x}-{nanos:x}", std::process::id()),
            ttl,
            poll_interval,
            lease,
            running: Mutex::new(HashMap::new()),
            changed: broadcast::channel(256).0,
            listening: AtomicBool::new(false),
        }
    }

    /// Tasks in this process's memory, with the default TTL, poll interval and lease.
    pub(crate) fn in_memory() -> Tasks {
        Tasks::new(Arc::new(MemoryStore::new()), DEFAULT_TASK_TTL, DEFAULT_TASK_POLL_INTERVAL, DEFAULT_TASK_LEASE)
    }

    /// How often the instance running a task renews its lease (and looks for
    /// a cancel or answers other instances left in the store): five times a
    /// lease.
    pub(crate) fn renewal(&self) -> Duration {
        (self.lease / 5).max(Duration::from_millis(1))
    }

    /// The store the records live in.
    pub(crate) fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.store)
    }

    /// These tasks' settings with `store` instead.
    pub(crate) fn with_store(&self, store: Arc<dyn Store>) -> Tasks {
        Tasks::new(store, self.ttl, self.poll_interval, self.lease)
    }

    /// A fresh record for a task of `owner` whose tool needs `scopes`, run here.
    pub(crate) fn new_record(
        &self,
        owner: Option<String>,
        scopes: Vec<String>,
    ) -> Result<TaskRecord, crate::RandomError> {
        let now = now_ms();
        let millis = |duration: Duration| u64::try_from(duration.as_millis()).unwrap_or(u64::MAX).max(1);
        Ok(TaskRecord {
            task_id: crate::random::hex::<16>()?,
            owner,
            scopes,
            status: record::Status::Working,
            status_message: None,
            created_ms: now,
            updated_ms: now,
            ttl_ms: millis(self.ttl),
            poll_interval_ms: millis(self.poll_interval),
            input_requests: Map::new(),
            result: None,
            error: None,
            instance: self.instance.clone(),
            lease_until_ms: now.saturating_add(millis(self.lease)),
        })
    }

    /// Registers `task` as running here.
    pub(crate) fn run_here(self: &Arc<Self>, task: &Arc<RunningTask>) {
        self.listen();
        let id = task.record().task_id;
        self.lock_running().insert(id, Arc::clone(task));
    }

    /// Forgets `id` as running here (it ended).
    pub(crate) fn ended_here(&self, id: &str) {
        self.lock_running().remove(id);
    }

    /// The task `id` if this instance runs it.
    pub(crate) fn running(&self, id: &str) -> Option<Arc<RunningTask>> {
        self.lock_running().get(id).cloned()
    }

    fn lock_running(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<RunningTask>>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The ids of tasks whose record changes from now on.
    pub(crate) fn changes(self: &Arc<Self>) -> broadcast::Receiver<String> {
        self.listen();
        self.changed.subscribe()
    }

    /// Writes `record` to the store, expiring with the task, and, when
    /// `changed` (more than its lease), tells every instance it changed.
    pub(crate) async fn write(&self, record: &TaskRecord, changed: bool) -> Result<(), StoreError> {
        let text = serde_json::to_string(record)
            .map_err(|error| StoreError::caused_by("a task record could not be written", error))?;
        let left = record.expires_ms().saturating_sub(now_ms()).max(1);
        self.store.set(&record_key(&record.task_id), text, Duration::from_millis(left)).await?;
        if changed {
            self.announce(TaskBus::Changed { task: record.task_id.clone() }).await;
        }
        Ok(())
    }

    /// The record of task `id` as it stands (`None`: no such task, or it
    /// expired). A task whose instance stopped renewing its lease is ended
    /// `failed` here, for every instance to see.
    pub(crate) async fn load(&self, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        if !is_task_id(id) {
            return Ok(None);
        }
        if let Some(task) = self.running(id) {
            return Ok(Some(task.record()));
        }
        let Some(text) = self.store.get(&record_key(id), self.ttl).await? else { return Ok(None) };
        let mut record: TaskRecord = serde_json::from_str(&text).map_err(|error| {
            StoreError::caused_by(format!("the record of task {id} in the store is not valid"), error)
        })?;
        let now = now_ms();
        if record.expires_ms() <= now {
            let _ = self.store.delete(&record_key(id)).await;
            return Ok(None);
        }
        if !record.status.is_terminal() && record.lease_until_ms < now {
            let message = format!(
                "The task failed: the server instance running it ({}) stopped before it ended",
                record.instance
            );
            record.fail(crate::server::jsonrpc::INTERNAL_ERROR, message);
            self.write(&record, true).await?;
        }
        Ok(Some(record))
    }

    /// Cancels task `id`: at once if it runs here, else through the store
    /// for the instance running it.
    pub(crate) async fn cancel(&self, record: &TaskRecord) -> Result<(), StoreError> {
        let id = &record.task_id;
        if let Some(task) = self.running(id) {
            task.cancel.cancel();
            return Ok(());
        }
        let left = record.expires_ms().saturating_sub(now_ms()).max(1);
        self.store.set(&cancel_key(id), "1".to_owned(), Duration::from_millis(left)).await?;
        self.announce(TaskBus::Cancel { task: id.clone() }).await;
        Ok(())
    }

    /// Gives task `record` the answers `responses`: at once if it runs here,
    /// else through the store. An answer of the wrong shape is an error
    /// naming it (only checked where the task runs).
    pub(crate) async fn answer(&self, record: &TaskRecord, responses: Map<String, Value>) -> Result<(), AnswerError> {
        let id = &record.task_id;
        if let Some(task) = self.running(id) {
            if task.answer(&responses).map_err(AnswerError::Invalid)? > 0 {
                task.save(self).await.map_err(AnswerError::Store)?;
            }
            return Ok(());
        }
        if responses.is_empty() || record.status.is_terminal() {
            return Ok(());
        }
        let left = record.expires_ms().saturating_sub(now_ms()).max(1);
        let text = Value::Object(responses).to_string();
        self.store.push(&input_key(id), text, Duration::from_millis(left)).await.map_err(AnswerError::Store)?;
        self.announce(TaskBus::Input { task: id.clone() }).await;
        Ok(())
    }

    /// Renews the lease of `task`, run here, and takes up a cancel or
    /// answers other instances left in the store.
    pub(crate) async fn renew(&self, task: &RunningTask) -> Result<(), StoreError> {
        let id = task.update(|record| {
            record.lease_until_ms = now_ms().saturating_add(u64::try_from(self.lease.as_millis()).unwrap_or(u64::MAX));
            record.task_id.clone()
        });
        if self.store.get(&cancel_key(&id), self.lease).await?.is_some() {
            task.cancel.cancel();
        }
        self.take_inputs(task, &id).await?;
        task.save(self).await
    }

    /// The answers other instances left for `task` since the last look.
    async fn take_inputs(&self, task: &RunningTask, id: &str) -> Result<(), StoreError> {
        let from = task.inputs_read.load(Ordering::SeqCst);
        let items = self.store.items(&input_key(id), from).await?;
        task.inputs_read.fetch_add(items.len(), Ordering::SeqCst);
        for item in items {
            match serde_json::from_str::<Map<String, Value>>(&item) {
                Ok(responses) => {
                    if let Err(problem) = task.answer(&responses) {
                        tracing::warn!(
                            "ignoring answers to task {id} given elsewhere: {}",
                            crate::log_text::escaped(&problem.to_string())
                        );
                    }
                }
                Err(error) => tracing::warn!("ignoring answers to task {id} that are not JSON: {error}"),
            }
        }
        Ok(())
    }

    async fn announce(&self, message: TaskBus) {
        match serde_json::to_string(&message) {
            Ok(text) => {
                if let Err(error) = self.store.publish(text).await {
                    tracing::debug!("other instances did not hear of a task change: {error}");
                }
            }
            Err(error) => tracing::debug!("a task message could not be written: {error}"),
        }
    }

    /// Starts listening to the store's bus, once, while a runtime runs.
    fn listen(self: &Arc<Self>) {
        if self.listening.swap(true, Ordering::SeqCst) {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            self.listening.store(false, Ordering::SeqCst);
            return;
        };
        let mut bus = self.store.subscribe();
        let tasks: Weak<Tasks> = Arc::downgrade(self);
        runtime.spawn(async move {
            while let Some(text) = next_message(&mut bus, "task messages of the store's bus").await {
                let Some(tasks) = tasks.upgrade() else { return };
                let Ok(message) = serde_json::from_str::<TaskBus>(&text) else { continue };
                match message {
                    TaskBus::Changed { task } => {
                        let _ = tasks.changed.send(task);
                    }
                    TaskBus::Cancel { task } => {
                        if let Some(running) = tasks.running(&task) {
                            running.cancel.cancel();
                        }
                    }
                    TaskBus::Input { task } => {
                        if let Some(running) = tasks.running(&task) {
                            let saved = match tasks.take_inputs(&running, &task).await {
                                Ok(()) => running.save(&tasks).await,
                                Err(error) => Err(error),
                            };
                            if let Err(error) = saved {
                                tracing::warn!("answers to task {task} given elsewhere were not taken: {error}");
                            }
                        }
                    }
                }
            }
        });
    }
}

/// Why answers to a task's questions were not taken.
#[derive(Debug)]
pub(crate) enum AnswerError {
    /// An answer is not of its question's shape.
    Invalid(String),
    /// The store failed.
    Store(StoreError),
}
