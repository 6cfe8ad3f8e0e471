//! What a server's tasks are kept in and for how long: the builder methods
//! of [`Server`] for the tasks extension.

use std::sync::Arc;
use std::time::Duration;

use super::Tasks;
use crate::server::{Server, store};

impl Server {
    /// Keeps the records of tasks (tools marked `#[tool(task)]`, called by
    /// clients of the tasks extension) in `store` instead of this process's
    /// memory: every instance sharing it answers `tasks/get`, `tasks/update`
    /// and `tasks/cancel` for any task, and a task whose instance dies ends
    /// `failed` within seconds. Over HTTP with a shared store
    /// ([`HttpOptions::with_store`](crate::server::http::HttpOptions::with_store)) tasks use
    /// that store unless this says otherwise.
    #[must_use]
    pub fn with_task_store(mut self, store: Arc<dyn store::Store>) -> Self {
        self.engine.tasks = Arc::new(self.engine.tasks.with_store(store));
        self.task_store_given = true;
        self
    }

    /// How long a task is kept from its creation, its result included
    /// ([`DEFAULT_TASK_TTL`](super::DEFAULT_TASK_TTL), an hour, unless set); `tasks/get` of an older
    /// task is refused as unknown.
    #[must_use]
    pub fn with_task_ttl(mut self, ttl: Duration) -> Self {
        let tasks = &self.engine.tasks;
        self.engine.tasks = Arc::new(Tasks::new(tasks.store(), ttl, tasks.poll_interval, tasks.lease));
        self
    }

    /// How often clients are asked to poll a task (`pollIntervalMs`,
    /// [`DEFAULT_TASK_POLL_INTERVAL`](super::DEFAULT_TASK_POLL_INTERVAL) unless set).
    #[must_use]
    pub fn with_task_poll_interval(mut self, interval: Duration) -> Self {
        let tasks = &self.engine.tasks;
        self.engine.tasks = Arc::new(Tasks::new(tasks.store(), tasks.ttl, interval, tasks.lease));
        self
    }

    /// How long the instance running a task vouches for it at each renewal
    /// of its lease ([`DEFAULT_TASK_LEASE`](super::DEFAULT_TASK_LEASE), five seconds, unless set); it
    /// renews the lease five times a lease. Instances sharing a
    /// [task store](Server::with_task_store) end a task whose lease lapsed
    /// (its instance died) `failed`: a shorter lease notices a dead instance
    /// sooner, for more writes to the store. Give every instance the same.
    #[must_use]
    pub fn with_task_lease(mut self, lease: Duration) -> Self {
        let tasks = &self.engine.tasks;
        self.engine.tasks = Arc::new(Tasks::new(tasks.store(), tasks.ttl, tasks.poll_interval, lease));
        self
    }
}
