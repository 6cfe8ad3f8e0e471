//! A task's record: what `tasks/get` answers and what the store keeps, the
//! same for every instance that reads it.

use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// Where a task is in its life (the extension's status names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Status {
    /// The tool is running.
    Working,
    /// The tool waits on answers to the questions in `inputRequests`.
    InputRequired,
    /// The tool ended with a result (an `isError` result too).
    Completed,
    /// The call ended with a JSON-RPC error (the tool panicked, or the
    /// instance running it stopped).
    Failed,
    /// The client cancelled the task.
    Cancelled,
}

impl Status {
    /// Whether the task has ended: its record no longer changes.
    pub(crate) fn is_terminal(self) -> bool {
        matches!(self, Status::Completed | Status::Failed | Status::Cancelled)
    }

    /// The status's wire name.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::InputRequired => "input_required",
            Status::Completed => "completed",
            Status::Failed => "failed",
            Status::Cancelled => "cancelled",
        }
    }
}

/// A task as the store keeps it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TaskRecord {
    pub(crate) task_id: String,
    /// The caller the task belongs to (its [identity](crate::toolbox::Caller::identity)),
    /// when the server knows who calls; only that caller reaches the task.
    #[serde(default)]
    pub(crate) owner: Option<String>,
    /// The scopes the task's tool needs: its methods need them too.
    #[serde(default)]
    pub(crate) scopes: Vec<String>,
    pub(crate) status: Status,
    #[serde(default)]
    pub(crate) status_message: Option<String>,
    /// Milliseconds since the epoch.
    pub(crate) created_ms: u64,
    pub(crate) updated_ms: u64,
    pub(crate) ttl_ms: u64,
    pub(crate) poll_interval_ms: u64,
    /// The questions without an answer: key → `{method, params}`.
    #[serde(default)]
    pub(crate) input_requests: Map<String, Value>,
    #[serde(default)]
    pub(crate) result: Option<Value>,
    #[serde(default)]
    pub(crate) error: Option<Value>,
    /// The instance running the task, and until when it promised to be alive.
    pub(crate) instance: String,
    pub(crate) lease_until_ms: u64,
}

impl TaskRecord {
    /// The task as `CreateTaskResult`, `tasks/get` and `notifications/tasks`
    /// state it; `detailed` adds what its status carries (the questions,
    /// the result or the error).
    pub(crate) fn to_wire(&self, detailed: bool) -> Map<String, Value> {
        let mut task = Map::new();
        task.insert("taskId".into(), Value::from(self.task_id.as_str()));
        task.insert("status".into(), Value::from(self.status.as_str()));
        if let Some(message) = &self.status_message {
            task.insert("statusMessage".into(), Value::from(message.as_str()));
        }
        task.insert("createdAt".into(), Value::from(iso8601(self.created_ms)));
        task.insert("lastUpdatedAt".into(), Value::from(iso8601(self.updated_ms)));
        task.insert("ttlMs".into(), Value::from(self.ttl_ms));
        task.insert("pollIntervalMs".into(), Value::from(self.poll_interval_ms));
        if detailed {
            match self.status {
                Status::InputRequired => {
                    task.insert("inputRequests".into(), Value::Object(self.input_requests.clone()));
                }
                Status::Completed => {
                    task.insert("result".into(), self.result.clone().unwrap_or_else(|| json!({ "content": [] })));
                }
                Status::Failed => {
                    let error =
                        self.error.clone().unwrap_or_else(|| json!({ "code": -32603, "message": "Internal error" }));
                    task.insert("error".into(), error);
                }
                Status::Working | Status::Cancelled => {}
            }
        }
        task
    }

    /// When the store may forget the task: its TTL from its creation.
    pub(crate) fn expires_ms(&self) -> u64 {
        self.created_ms.saturating_add(self.ttl_ms)
    }

    /// Moves the task to `status`, now.
    pub(crate) fn set_status(&mut self, status: Status, message: Option<String>) {
        self.status = status;
        self.status_message = message;
        self.touch();
    }

    /// Marks the record changed now: `lastUpdatedAt` moves on by at least a
    /// millisecond at each change, so every change is told apart.
    pub(crate) fn touch(&mut self) {
        self.updated_ms = now_ms().max(self.updated_ms.saturating_add(1));
    }

    /// Ends the task `failed` with JSON-RPC error `code` and `message`.
    pub(crate) fn fail(&mut self, code: i64, message: String) {
        self.error = Some(json!({ "code": code, "message": message }));
        self.input_requests.clear();
        self.set_status(Status::Failed, Some(message));
    }
}

/// Milliseconds since the epoch.
pub(crate) fn now_ms() -> u64 {
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// `ms` since the epoch as an ISO 8601 UTC timestamp, to the millisecond.
pub(crate) fn iso8601(ms: u64) -> String {
    let seconds = ms / 1000;
    let (year, month, day) = civil_from_days(seconds / 86_400);
    let time = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        time / 3600,
        time % 3600 / 60,
        time % 60,
        ms % 1000
    )
}

/// The Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::{Status, TaskRecord, iso8601};

    #[test]
    fn timestamps_are_iso8601_in_utc() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(iso8601(1_764_931_845_123), "2025-12-05T10:50:45.123Z");
        assert_eq!(iso8601(4_107_542_399_999), "2100-02-28T23:59:59.999Z");
    }

    fn record(status: Status) -> TaskRecord {
        TaskRecord {
            task_id: "t1".into(),
            owner: None,
            scopes: Vec::new(),
            status,
            status_message: None,
            created_ms: 0,
            updated_ms: 0,
            ttl_ms: 60_000,
            poll_interval_ms: 500,
            input_requests: serde_json::Map::new(),
            result: Some(serde_json::json!({ "content": [] })),
            error: None,
            instance: "i".into(),
            lease_until_ms: 0,
        }
    }

    #[test]
    fn only_a_detailed_task_carries_what_its_status_carries() {
        let done = record(Status::Completed);
        assert!(done.to_wire(true).contains_key("result"));
        assert!(!done.to_wire(false).contains_key("result"), "a CreateTaskResult never carries a result");
        let mut failed = record(Status::Working);
        failed.fail(-32603, "boom".into());
        let wire = failed.to_wire(true);
        assert_eq!(wire["status"], "failed");
        assert_eq!(wire["error"]["message"], "boom");
        assert!(!wire.contains_key("result"));
        assert!(failed.status.is_terminal());
    }
}
