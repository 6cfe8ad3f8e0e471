//! Following a server's changes: a 2026-07-28 `subscriptions/listen` request
//! kept open, or, in the legacy era, the HTTP GET stream and
//! `resources/subscribe`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value, json};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::session::RequestOptions;
use super::{Client, ClientError};

/// How long a server gets to acknowledge `subscriptions/listen`.
const ACKNOWLEDGE_TIMEOUT: Duration = Duration::from_secs(30);
/// A listen request waits for no answer: this is "forever".
const FOREVER: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// What to follow: list changes, and updates of resources by URI.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listen {
    tools: bool,
    resources: bool,
    prompts: bool,
    uris: Vec<String>,
}

impl Listen {
    /// Nothing yet.
    pub fn new() -> Listen {
        Listen::default()
    }

    /// Every list change: tools, resources, prompts.
    pub fn lists() -> Listen {
        Listen { tools: true, resources: true, prompts: true, uris: Vec::new() }
    }

    /// Changes of the tool list.
    #[must_use]
    pub fn tools(mut self) -> Listen {
        self.tools = true;
        self
    }

    /// Changes of the resource list.
    #[must_use]
    pub fn resources(mut self) -> Listen {
        self.resources = true;
        self
    }

    /// Changes of the prompt list.
    #[must_use]
    pub fn prompts(mut self) -> Listen {
        self.prompts = true;
        self
    }

    /// Updates of resource `uri`.
    #[must_use]
    pub fn resource(mut self, uri: impl Into<String>) -> Listen {
        self.uris.push(uri.into());
        self
    }
}

/// Changes being followed; they arrive as [`ServerEvent`](super::ServerEvent)s
/// on [`Client::events`]. Dropping it stops following them.
#[derive(Debug)]
pub struct Listening {
    task: Option<JoinHandle<()>>,
    /// What the server said it will send (2026-07-28).
    acknowledged: Value,
    unsubscribe: Option<(Client, Vec<String>)>,
}

impl Listening {
    /// What the server acknowledged it will send (2026-07-28: its
    /// `notifications` filter; legacy: what was asked).
    pub fn acknowledged(&self) -> &Value {
        &self.acknowledged
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        if let Some(task) = self.task.take() {
            task.abort();
        }
        if let (Some((client, uris)), Ok(runtime)) = (self.unsubscribe.take(), tokio::runtime::Handle::try_current()) {
            runtime.spawn(async move {
                for uri in uris {
                    let _ = client.request("resources/unsubscribe", json!({ "uri": uri })).await;
                }
            });
        }
    }
}

impl Client {
    /// Follows the changes `listen` names. Returns once the server has
    /// acknowledged them, so no change after this call is missed.
    pub async fn listen(&self, listen: Listen) -> Result<Listening, ClientError> {
        let mut filter = Map::new();
        for (key, wanted) in [
            ("toolsListChanged", listen.tools),
            ("resourcesListChanged", listen.resources),
            ("promptsListChanged", listen.prompts),
        ] {
            if wanted {
                filter.insert(key.into(), Value::Bool(true));
            }
        }
        if !listen.uris.is_empty() {
            filter.insert("resourceSubscriptions".into(), json!(listen.uris));
        }
        if !self.protocol_version().is_modern() {
            self.session().wire().open_events(self.protocol_version()).await;
            for uri in &listen.uris {
                self.request("resources/subscribe", json!({ "uri": uri })).await?;
            }
            let unsubscribe = (!listen.uris.is_empty()).then(|| (self.clone(), listen.uris.clone()));
            return Ok(Listening { task: None, acknowledged: Value::Object(filter), unsubscribe });
        }
        let (sender, acknowledged) = oneshot::channel();
        let options = RequestOptions {
            timeout: Some(FOREVER),
            subscription: Some(Arc::new(Mutex::new(Some(sender)))),
            ..RequestOptions::default()
        };
        let session = Arc::clone(self.session());
        let params = json!({ "notifications": filter });
        let Value::Object(params) = params else { unreachable!("a JSON object") };
        let (ended, mut end) = oneshot::channel();
        let task = tokio::spawn(async move {
            let outcome = session.request("subscriptions/listen", params, options).await;
            let _ = ended.send(outcome);
        });
        let mut listening = Listening { task: Some(task), acknowledged: Value::Null, unsubscribe: None };
        tokio::select! {
            acknowledgement = tokio::time::timeout(ACKNOWLEDGE_TIMEOUT, acknowledged) => match acknowledgement {
                Ok(Ok(params)) => {
                    listening.acknowledged = params.get("notifications").cloned().unwrap_or_else(|| json!({}));
                    Ok(listening)
                }
                Ok(Err(_)) => Err(ClientError::Closed { reason: self.closed().unwrap_or_else(|| "the listen request ended".into()) }),
                Err(_) => Err(ClientError::Timeout {
                    method: "subscriptions/listen".into(),
                    timeout: ACKNOWLEDGE_TIMEOUT,
                    problem: Some("no notifications/subscriptions/acknowledged arrived".into()),
                }),
            },
            outcome = &mut end => Err(match outcome {
                Ok(Err(error)) => error,
                _ => ClientError::Malformed("subscriptions/listen was answered instead of acknowledged".into()),
            }),
        }
    }
}
