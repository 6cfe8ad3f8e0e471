//! Telling clients the tool list changed: on a 2026-07-28
//! `subscriptions/listen` stream, and to legacy clients that finished their
//! handshake.

use std::sync::Arc;

use serde_json::{Map, Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch};

#[cfg(feature = "tasks")]
use super::tasks::{belongs_to, declares_tasks, tasks_not_declared};
use super::{Engine, Reply, Route, params, refused};
use crate::mcp::Notification;
use crate::mcp::meta::SUBSCRIPTION_ID_KEY;
use crate::server::era::Era;
use crate::server::jsonrpc::{INVALID_PARAMS, RpcError};
use crate::server::outlet::{Outlet, notify};
use crate::server::peer::{Peer, Slot};
use crate::server::store::next_message;
#[cfg(feature = "tasks")]
use crate::server::tasks::MAX_LISTENED_TASKS;

/// What changed on the server that a client may hear of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    Tools,
    Resources,
    Prompts,
    Updated(String),
}

/// The receivers of every change, taken before anything is answered so that
/// no change is missed.
pub(crate) struct Changes {
    tools: watch::Receiver<u64>,
    resources: watch::Receiver<u64>,
    prompts: watch::Receiver<u64>,
    updates: broadcast::Receiver<String>,
    /// The changes other instances announce (see [`Change::to_wire`]).
    remote: Option<broadcast::Receiver<String>>,
}

impl Change {
    /// The change as text, for instances to tell each other.
    #[cfg(feature = "http")]
    pub(crate) fn to_wire(&self) -> String {
        match self {
            Change::Tools => "tools".to_owned(),
            Change::Resources => "resources".to_owned(),
            Change::Prompts => "prompts".to_owned(),
            Change::Updated(uri) => format!("updated:{uri}"),
        }
    }

    /// The change `text` names, if it names one.
    pub(crate) fn from_wire(text: &str) -> Option<Change> {
        match text {
            "tools" => Some(Change::Tools),
            "resources" => Some(Change::Resources),
            "prompts" => Some(Change::Prompts),
            _ => text.strip_prefix("updated:").map(|uri| Change::Updated(uri.to_owned())),
        }
    }
}

/// The next change `remote` carries; pending forever without one.
async fn next_remote(remote: &mut Option<broadcast::Receiver<String>>) -> Option<Change> {
    let Some(receiver) = remote else { return std::future::pending().await };
    loop {
        match receiver.recv().await {
            Ok(text) => {
                if let Some(change) = Change::from_wire(&text) {
                    return Some(change);
                }
            }
            Err(RecvError::Lagged(missed)) => tracing::warn!("a client missed {missed} changes of other instances"),
            Err(RecvError::Closed) => {
                *remote = None;
                return std::future::pending().await;
            }
        }
    }
}

impl Changes {
    /// These changes and those `remote` carries from other instances.
    #[cfg(feature = "http")]
    pub(crate) fn with_remote(mut self, remote: broadcast::Receiver<String>) -> Changes {
        self.remote = Some(remote);
        self
    }

    /// The next change; `None` once the toolbox is gone.
    pub(crate) async fn next(&mut self) -> Option<Change> {
        loop {
            tokio::select! {
                change = next_remote(&mut self.remote) => return change,
                changed = self.tools.changed() => return changed.ok().map(|()| Change::Tools),
                changed = self.resources.changed() => return changed.ok().map(|()| Change::Resources),
                changed = self.prompts.changed() => return changed.ok().map(|()| Change::Prompts),
                updated = self.updates.recv() => match updated {
                    Ok(uri) => return Some(Change::Updated(uri)),
                    Err(RecvError::Lagged(missed)) => {
                        tracing::warn!("a client missed {missed} resource updates: it is not reading fast enough");
                    }
                    Err(RecvError::Closed) => return None,
                },
            }
        }
    }
}

/// The id of the next task whose record changed; pending forever without a
/// receiver (always, without the `tasks` feature).
async fn next_task(changes: &mut Option<broadcast::Receiver<String>>) -> String {
    let Some(receiver) = changes else { return std::future::pending().await };
    match next_message(receiver, "task changes: a client is not reading fast enough").await {
        Some(task) => task,
        None => {
            *changes = None;
            std::future::pending().await
        }
    }
}

#[cfg(feature = "tasks")]
impl Engine {
    /// Those of `ids` that name a task `caller` may see.
    async fn visible_tasks(&self, ids: Vec<String>, caller: Option<&crate::toolbox::Caller>) -> Vec<String> {
        let mut visible = Vec::new();
        for id in ids {
            match self.tasks.load(&id).await {
                Ok(Some(record)) if belongs_to(&record, caller) => visible.push(id),
                Ok(_) => {}
                Err(error) => tracing::warn!("task {id} could not be read for a listener: {error}"),
            }
        }
        visible
    }

    /// Sends `notifications/tasks` with task `id` as it stands to `outlet`.
    async fn notify_task(&self, outlet: &dyn Outlet, id: &str, meta: &Value) {
        match self.tasks.load(id).await {
            Ok(Some(record)) => {
                let mut params = record.to_wire(true);
                params.insert("_meta".into(), meta.clone());
                notify(outlet, Notification::Tasks, Value::Object(params));
            }
            Ok(None) => {}
            Err(error) => tracing::warn!("task {id} could not be read for a listener: {error}"),
        }
    }
}

impl Engine {
    /// The receivers of every change from now on.
    pub(crate) fn list_changes(&self) -> Changes {
        let mut tools = self.toolbox.tools().changes();
        tools.borrow_and_update();
        let mut resources = self.toolbox.resources().changes();
        resources.borrow_and_update();
        let mut prompts = self.toolbox.prompts().changes();
        prompts.borrow_and_update();
        Changes { tools, resources, prompts, updates: self.toolbox.resources().updates(), remote: None }
    }

    /// `subscriptions/listen` request `id`: acknowledged, then one
    /// notification per change asked for (a list, a subscribed resource, and
    /// with `taskIds` each task as it stands, then at each of its changes),
    /// until the request is cancelled or the client hangs up. It has no response.
    pub(super) fn listen(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        id: Value,
        era: Era,
        params: Map<String, Value>,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        let filter = match params.get("notifications") {
            Some(filter @ Value::Object(_)) => params::decode::<ListenFilter>("notifications", filter),
            _ => Err(RpcError::new(
                INVALID_PARAMS,
                "Invalid params: subscriptions/listen needs a `notifications` filter object",
            )),
        };
        let filter = match filter {
            Ok(filter) => filter,
            Err(error) => return refused(peer, &id, &slot, &error),
        };
        let has_resources = !self.toolbox.resources().is_empty();
        let tools = filter.tools_list_changed == Some(true);
        let resources = filter.resources_list_changed == Some(true) && has_resources;
        let prompts = filter.prompts_list_changed == Some(true) && !self.toolbox.prompts().is_empty();
        let watched = filter.resource_subscriptions.filter(|_| has_resources).unwrap_or_default();
        let task_ids = filter.task_ids.unwrap_or_default();
        #[cfg(not(feature = "tasks"))]
        {
            // The era matters only to whether a client declared tasks.
            let _ = era;
            if !task_ids.is_empty() {
                return refused(peer, &id, &slot, &super::without_tasks::no_tasks_to_listen());
            }
        }
        #[cfg(feature = "tasks")]
        if !task_ids.is_empty() && !declares_tasks(peer, era, &params) {
            return refused(peer, &id, &slot, &tasks_not_declared("listening to tasks (`taskIds`)"));
        }
        #[cfg(feature = "tasks")]
        if task_ids.len() > MAX_LISTENED_TASKS {
            let message = format!(
                "Invalid params: a subscriptions/listen stream follows at most {MAX_LISTENED_TASKS} tasks; `taskIds` names {}",
                task_ids.len()
            );
            return refused(peer, &id, &slot, &RpcError::new(INVALID_PARAMS, message));
        }
        #[cfg(feature = "tasks")]
        let mut task_changes = (!task_ids.is_empty()).then(|| self.tasks.changes());
        #[cfg(not(feature = "tasks"))]
        let mut task_changes: Option<broadcast::Receiver<String>> = None;
        let mut changes = self.list_changes();
        #[cfg(feature = "http")]
        if let Some(remote) = &route.remote_changes {
            changes = changes.with_remote(remote.subscribe());
        }
        let peer = Arc::clone(peer);
        let route = route.clone();
        #[cfg(feature = "tasks")]
        let engine = Arc::clone(self);
        Reply::Later(Box::pin(async move {
            let meta = json!({ SUBSCRIPTION_ID_KEY: id });
            #[cfg(feature = "tasks")]
            let watched_tasks = engine.visible_tasks(task_ids, route.caller.as_ref()).await;
            let mut honoured = Map::new();
            if tools {
                honoured.insert("toolsListChanged".into(), Value::Bool(true));
            }
            if resources {
                honoured.insert("resourcesListChanged".into(), Value::Bool(true));
            }
            if prompts {
                honoured.insert("promptsListChanged".into(), Value::Bool(true));
            }
            if !watched.is_empty() {
                honoured.insert("resourceSubscriptions".into(), json!(watched));
            }
            #[cfg(feature = "tasks")]
            if task_changes.is_some() {
                honoured.insert("taskIds".into(), json!(watched_tasks));
            }
            let acknowledged = json!({ "notifications": honoured, "_meta": meta });
            let hangup = route.hangup.clone().unwrap_or_default();
            if notify(&*route.outlet, Notification::SubscriptionsAcknowledged, acknowledged) {
                // Each task as it stands, so that no change before the stream opened is missed.
                #[cfg(feature = "tasks")]
                for task in &watched_tasks {
                    engine.notify_task(&*route.outlet, task, &meta).await;
                }
                loop {
                    let change = tokio::select! {
                        () = slot.stop.cancelled() => break,
                        () = hangup.cancelled() => break,
                        () = peer.streams_ended().cancelled() => break,
                        () = route.outlet.closed() => break,
                        task = next_task(&mut task_changes) => {
                            #[cfg(feature = "tasks")]
                            if watched_tasks.contains(&task) {
                                engine.notify_task(&*route.outlet, &task, &meta).await;
                            }
                            #[cfg(not(feature = "tasks"))]
                            let _ = task;
                            continue;
                        }
                        change = changes.next() => change,
                    };
                    let message = match change {
                        None => break,
                        Some(Change::Tools) if tools => (Notification::ToolsListChanged, json!({ "_meta": meta })),
                        Some(Change::Resources) if resources => {
                            (Notification::ResourcesListChanged, json!({ "_meta": meta }))
                        }
                        Some(Change::Prompts) if prompts => {
                            (Notification::PromptsListChanged, json!({ "_meta": meta }))
                        }
                        Some(Change::Updated(uri)) if watched.contains(&uri) => {
                            (Notification::ResourcesUpdated, json!({ "uri": uri, "_meta": meta }))
                        }
                        Some(_) => continue,
                    };
                    notify(&*route.outlet, message.0, message.1);
                }
            }
            slot.finish();
            peer.complete(&id);
            None
        }))
    }

    /// Tells a legacy client, through `outlet`, that tools or resources were
    /// added or removed, and that a resource it subscribed to changed, once
    /// its handshake is done; until the client is closed or the outlet is.
    pub(crate) async fn announce_list_changes(&self, peer: &Peer, outlet: &dyn Outlet, mut changes: Changes) {
        let mut logs = self.toolbox.log_messages();
        loop {
            let change = tokio::select! {
                () = peer.closed().cancelled() => return,
                () = outlet.closed() => return,
                change = changes.next() => change,
                logged = logs.recv() => {
                    match logged {
                        Ok((level, data)) => {
                            let negotiated = peer.negotiated();
                            if negotiated.initialized && negotiated.log_level.is_none_or(|least| level >= least) {
                                let params = json!({ "level": level.as_str(), "logger": "codeagent", "data": data });
                                notify(outlet, Notification::Message, params);
                            }
                        }
                        Err(RecvError::Lagged(missed)) => tracing::warn!("a client missed {missed} log messages"),
                        Err(RecvError::Closed) => return,
                    }
                    continue;
                }
            };
            let (notification, params) = match change {
                None => return,
                Some(_) if !peer.negotiated().initialized => continue,
                Some(Change::Tools) => (Notification::ToolsListChanged, json!({})),
                Some(Change::Resources) => (Notification::ResourcesListChanged, json!({})),
                Some(Change::Prompts) => (Notification::PromptsListChanged, json!({})),
                Some(Change::Updated(uri)) if peer.is_subscribed(&uri) => {
                    (Notification::ResourcesUpdated, json!({ "uri": uri }))
                }
                Some(Change::Updated(_)) => continue,
            };
            notify(outlet, notification, params);
        }
    }
}

/// The `notifications` filter of a `subscriptions/listen` request
/// (2026-07-28): what the stream is to carry. A field of the wrong type is
/// refused, naming it; `null` is the field left out; an unknown field (a
/// later revision's) is ignored.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListenFilter {
    /// `notifications/tools/list_changed`.
    #[serde(default)]
    tools_list_changed: Option<bool>,
    /// `notifications/resources/list_changed`.
    #[serde(default)]
    resources_list_changed: Option<bool>,
    /// `notifications/prompts/list_changed`.
    #[serde(default)]
    prompts_list_changed: Option<bool>,
    /// `notifications/resources/updated` for these URIs.
    #[serde(default)]
    resource_subscriptions: Option<Vec<String>>,
    /// Each of these tasks as it stands, then at each of its changes.
    #[serde(default)]
    task_ids: Option<Vec<String>>,
}
