//! How a tool runs as a task (the tasks extension, `io.modelcontextprotocol/tasks`):
//! what a tool declares ([`TaskSupport`]) and the link between a running
//! tool and the task the server made of its call ([`TaskLink`]).

use std::sync::OnceLock;

use tokio_util::sync::CancellationToken;

/// Whether a tool's calls become tasks, for clients that declare the tasks
/// extension (`#[tool(task)]`, [`ToolSpec::with_task`](crate::tools::ToolSpec::with_task)).
///
/// A client that declares the extension gets a task to poll (`tasks/get`),
/// feed answers (`tasks/update`) and cancel (`tasks/cancel`) instead of a
/// request held open while the tool runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaskSupport {
    /// A task for a client that declares the extension; for any other
    /// client, an ordinary call answered when the tool ends
    /// (`#[tool(task)]`, `#[tool(task(optional))]`).
    Optional,
    /// Only as a task: a client that does not declare the extension is
    /// refused with `-32021` naming it (`#[tool(task(required))]`).
    Required,
}

impl TaskSupport {
    /// The name `#[tool(task(...))]` and the documentation use.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskSupport::Optional => "optional",
            TaskSupport::Required => "required",
        }
    }
}

/// The link between a tool's call and the task the server made of it.
#[derive(Debug, Default)]
pub(crate) struct TaskLink {
    /// The task's id, once there is a task.
    id: OnceLock<String>,
    /// Fired by the tool's [`Context::detach`](crate::toolbox::Context::detach).
    requested: CancellationToken,
    /// Fired by the server once the task exists (or will never exist).
    ready: CancellationToken,
}

impl TaskLink {
    /// The link of a call that is a task from its start.
    #[cfg(feature = "tasks")]
    pub(crate) fn started(id: String) -> TaskLink {
        let link = TaskLink::default();
        link.begin(id);
        link
    }

    /// The call is now the task `id`: the tool's questions and progress go
    /// to the task from here on.
    #[cfg(feature = "tasks")]
    pub(crate) fn begin(&self, id: String) {
        let _ = self.id.set(id);
        self.ready.cancel();
    }

    /// No task will be made (the call ended, or the client cannot poll one):
    /// a waiting `detach` returns.
    #[cfg(feature = "tasks")]
    pub(crate) fn decline(&self) {
        self.ready.cancel();
    }

    /// The task's id, once the call is a task.
    pub(crate) fn id(&self) -> Option<&str> {
        self.id.get().map(String::as_str)
    }

    /// Resolves when the tool asks to go on as a task.
    #[cfg(feature = "tasks")]
    pub(crate) async fn requested(&self) {
        self.requested.cancelled().await;
    }

    /// Asks to go on as a task, and waits until the server answered.
    pub(crate) async fn detach(&self) {
        self.requested.cancel();
        self.ready.cancelled().await;
    }
}
