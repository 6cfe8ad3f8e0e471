//! Following a task (the tasks extension) to its end, for a client that
//! declared it ([`ClientBuilder::tasks`](super::ClientBuilder::tasks)): a
//! request answered with `resultType: "task"` is polled with `tasks/get`, its
//! questions answered with `tasks/update`, until it completes (its result is
//! the request's), fails (its error is) or is cancelled. A caller that stops
//! waiting cancels it with `tasks/cancel`.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value, json};

use super::ClientError;
use super::session::{RequestOptions, Session};
use crate::log_text::escaped;

/// The shortest and longest wait between two polls, whatever the server asks.
const POLL_BOUNDS: (Duration, Duration) = (Duration::from_millis(10), Duration::from_secs(5));

/// Cancels the task on the server unless it ended (or was followed to its end).
struct Followed {
    session: Arc<Session>,
    id: String,
    ended: bool,
}

impl Drop for Followed {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        let (session, id) = (Arc::clone(&self.session), self.id.clone());
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let params = Map::from_iter([("taskId".to_owned(), Value::from(id.as_str()))]);
                if let Err(error) = session.exchange("tasks/cancel", &params, &RequestOptions::default()).await {
                    tracing::debug!("task {} could not be cancelled: {}", escaped(&id), escaped(&error.to_string()));
                }
            });
        }
    }
}

impl Session {
    /// Follows the task `created` (the answer to request `method`) to its
    /// end, within the request's timeout: its result, or its error.
    pub(crate) async fn follow_task(
        self: &Arc<Self>,
        method: &str,
        created: Value,
        options: &RequestOptions,
    ) -> Result<Value, ClientError> {
        if !self.settings.tasks {
            return Err(ClientError::Malformed(format!(
                "{method} was answered with a task, but this client did not declare the tasks extension"
            )));
        }
        let Some(id) = created.get("taskId").and_then(Value::as_str).map(str::to_owned) else {
            return Err(ClientError::Malformed(format!("{method} was answered with a task without a `taskId`")));
        };
        let mut followed = Followed { session: Arc::clone(self), id, ended: false };
        let timeout = options.timeout.unwrap_or(self.settings.timeout);
        let outcome = tokio::time::timeout(timeout, self.poll(method, created, &mut followed)).await;
        outcome.unwrap_or_else(|_| Err(ClientError::Timeout { method: method.to_owned(), timeout, problem: None }))
    }

    async fn poll(
        self: &Arc<Self>,
        method: &str,
        mut task: Value,
        followed: &mut Followed,
    ) -> Result<Value, ClientError> {
        let id = followed.id.clone();
        let get = Map::from_iter([("taskId".to_owned(), Value::from(id.as_str()))]);
        let mut answered: HashSet<String> = HashSet::new();
        loop {
            match task.get("status").and_then(Value::as_str) {
                Some("completed") => {
                    followed.ended = true;
                    return match task.get("result") {
                        Some(Value::Object(result)) => Ok(Value::Object(result.clone())),
                        _ => Err(ClientError::Malformed(format!("task {id} completed without a `result` object"))),
                    };
                }
                Some("failed") => {
                    followed.ended = true;
                    let error = task.get("error").cloned().unwrap_or_else(|| json!({}));
                    return Err(ClientError::Rpc {
                        method: method.to_owned(),
                        code: error.get("code").and_then(Value::as_i64).unwrap_or(-32603),
                        message: error.get("message").and_then(Value::as_str).unwrap_or("the task failed").to_owned(),
                        data: error.get("data").cloned().map(Box::new),
                    });
                }
                Some("cancelled") => {
                    followed.ended = true;
                    return Err(ClientError::TaskCancelled { method: method.to_owned(), task: id });
                }
                Some("input_required") => {
                    let questions: Map<String, Value> = match task.get("inputRequests") {
                        Some(Value::Object(questions)) => questions
                            .iter()
                            .filter(|(key, _)| !answered.contains(*key))
                            .map(|(k, v)| (k.clone(), v.clone()))
                            .collect(),
                        _ => return Err(ClientError::Malformed(format!("task {id} needs input but names none"))),
                    };
                    if !questions.is_empty() {
                        answered.extend(questions.keys().cloned());
                        let answers = self.answer_all(questions).await?;
                        let mut update = get.clone();
                        update.insert("inputResponses".into(), Value::Object(answers));
                        self.exchange("tasks/update", &update, &RequestOptions::default()).await?;
                    }
                }
                Some("working") => {}
                other => return Err(ClientError::Malformed(format!("task {id} has an unknown status {other:?}"))),
            }
            let interval = task
                .get("pollIntervalMs")
                .and_then(Value::as_u64)
                .map_or(Duration::from_secs(1), Duration::from_millis);
            tokio::time::sleep(interval.clamp(POLL_BOUNDS.0, POLL_BOUNDS.1)).await;
            task = self.exchange("tasks/get", &get, &RequestOptions::default()).await?;
        }
    }
}
