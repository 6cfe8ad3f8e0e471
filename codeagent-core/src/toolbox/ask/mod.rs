//! Asking the client while a tool runs: the person ([`Context::elicit`],
//! [`Context::elicit_url`]), the client's model ([`Context::sample`]) or the
//! client's roots ([`Context::roots`]).
//!
//! One API for both eras. In the legacy era (2024-11-05 to 2025-11-25) each
//! question is a real request to the client (`elicitation/create`,
//! `sampling/createMessage`, `roots/list`) on the connection or HTTP stream of
//! the tool call, answered while the tool waits. In 2026-07-28 the call ends
//! with an `input_required` result; the client retries it with the answers,
//! and the tool runs again from the start, its questions answered in order
//! (see [`Context::checkpoint`] for work that must not run twice). A client
//! is only asked what it declared it can answer.

mod elicit;
mod error;
mod form;
mod roots;
mod sample;

use std::future::Future;
use std::pin::Pin;

use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

pub use elicit::{Elicitation, UrlElicitation};
pub use error::AskError;

pub use form::{FormError, form_schema};
pub use roots::Root;
pub use sample::{ModelPreferences, Sampled, Sampling, SamplingContent};

use super::Context;
use crate::mcp::ProtocolVersion;

/// What a question asks of the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AskMethod {
    /// A form for the person.
    Elicit,
    /// A URL for the person to open.
    ElicitUrl,
    /// A message from the client's model.
    Sample,
    /// The client's roots.
    Roots,
}

impl AskMethod {
    /// The JSON-RPC method.
    pub(crate) fn name(self) -> &'static str {
        match self {
            AskMethod::Elicit | AskMethod::ElicitUrl => "elicitation/create",
            AskMethod::Sample => "sampling/createMessage",
            AskMethod::Roots => "roots/list",
        }
    }

    /// The client capability it needs, as a path into the capabilities.
    pub(crate) fn capability(self) -> &'static str {
        match self {
            AskMethod::Elicit => "elicitation",
            AskMethod::ElicitUrl => "elicitation.url",
            AskMethod::Sample => "sampling",
            AskMethod::Roots => "roots",
        }
    }

    /// Whether a client of `version` with `capabilities` can be asked this.
    pub(crate) fn allowed(self, version: ProtocolVersion, capabilities: &Value) -> bool {
        let elicitation = capabilities.get("elicitation").filter(|value| value.is_object());
        match self {
            AskMethod::Elicit => {
                version >= ProtocolVersion::V2025_06_18
                    && elicitation.is_some_and(|elicitation| {
                        // An empty `elicitation` object means form mode (2025-11-25).
                        elicitation.get("form").is_some()
                            || elicitation.get("url").is_none()
                            || version < ProtocolVersion::V2025_11_25
                    })
            }
            AskMethod::ElicitUrl => {
                version >= ProtocolVersion::V2025_11_25
                    && elicitation.is_some_and(|elicitation| elicitation.get("url").is_some())
            }
            AskMethod::Sample => capabilities.get("sampling").is_some_and(Value::is_object),
            AskMethod::Roots => capabilities.get("roots").is_some_and(Value::is_object),
        }
    }

    /// Its params as `version` states them: `mode` exists from 2025-11-25,
    /// and a URL elicitation's `elicitationId` only in 2025-11-25.
    pub(crate) fn params_for(self, mut params: Map<String, Value>, version: ProtocolVersion) -> Map<String, Value> {
        if self == AskMethod::Elicit && version < ProtocolVersion::V2025_11_25 {
            params.remove("mode");
        }
        if self == AskMethod::ElicitUrl && version.is_modern() {
            params.remove("elicitationId");
        }
        params
    }

    /// Whether `answer` has the shape of an answer to this method (a form
    /// answer's values are checked by the question itself).
    pub(crate) fn is_answer(self, answer: &Value) -> bool {
        match self {
            AskMethod::Elicit | AskMethod::ElicitUrl => {
                matches!(answer.get("action").and_then(Value::as_str), Some("accept" | "decline" | "cancel"))
            }
            AskMethod::Sample => answer.get("content").is_some_and(|content| content.is_object() || content.is_array()),
            AskMethod::Roots => answer.get("roots").is_some_and(Value::is_array),
        }
    }
}

/// One question: its key if it has one, the method and its params.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ask {
    pub(crate) key: Option<String>,
    pub(crate) method: AskMethod,
    pub(crate) params: Map<String, Value>,
}

/// The future of a question's answer: the client's result.
pub(crate) type AskFuture = Pin<Box<dyn Future<Output = Result<Value, AskError>> + Send>>;

/// Where a context's questions go: the server, which knows the client.
pub(crate) trait Asker: Send + Sync {
    /// Asks the client; the result it answered with.
    fn ask(&self, ask: Ask) -> AskFuture;

    /// A value an earlier run of this call kept under `key` (2026-07-28 retries).
    fn kept(&self, key: &str) -> Option<Value>;

    /// Keeps `value` under `key` for later runs of this call.
    fn keep(&self, key: &str, value: Value);
}

impl Context {
    /// A question with its own `key`: in 2026-07-28 the key names the
    /// question in `inputRequests` and its answer in `inputResponses` (so a
    /// client can answer it without a `requestState`). Unnamed questions
    /// ([`Context::elicit`] and the others) are keyed by their method and
    /// position: `elicitation-1`, `sampling-2`, ... Keys must be unique in a call.
    pub fn question(&self, key: impl Into<String>) -> Question<'_> {
        Question { context: self, key: Some(key.into()) }
    }

    /// Asks the person to fill in a form of `T`'s fields, with `message`
    /// saying why: [`Question::elicit`] of an unnamed question.
    ///
    /// ```no_run
    /// use codeagent_core::ask::Elicitation;
    /// use codeagent_core::toolbox::Context;
    ///
    /// #[derive(serde::Deserialize, schemars::JsonSchema)]
    /// struct Confirm { proceed: bool }
    ///
    /// # async fn demo(ctx: &Context) -> Result<(), codeagent_core::ask::AskError> {
    /// match ctx.elicit::<Confirm>("Delete 3 files?").await? {
    ///     Elicitation::Accepted(Confirm { proceed: true }) => { /* delete */ }
    ///     Elicitation::Accepted(_) | Elicitation::Declined | Elicitation::Cancelled => { /* keep */ }
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn elicit<T: DeserializeOwned + JsonSchema>(
        &self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, AskError> {
        self.unnamed().elicit(message).await
    }

    /// Asks the person to open `url`: [`Question::elicit_url`] of an unnamed question.
    pub async fn elicit_url(
        &self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<UrlElicitation, AskError> {
        self.unnamed().elicit_url(message, url).await
    }

    /// Asks the client's model for a message: [`Question::sample`] of an unnamed question.
    pub async fn sample(&self, request: Sampling) -> Result<Sampled, AskError> {
        self.unnamed().sample(request).await
    }

    /// Asks the client for its roots: [`Question::roots`] of an unnamed question.
    pub async fn roots(&self) -> Result<Vec<Root>, AskError> {
        self.unnamed().roots().await
    }

    /// Passes on a question another server asked (`elicitation/create`,
    /// `sampling/createMessage` or `roots/list`, with its params as asked) to
    /// this call's client, and returns the client's result as it answered:
    /// how a mounted server's questions reach the person at this end.
    #[cfg(feature = "client")]
    pub(crate) async fn forward_question(&self, method: &str, params: Map<String, Value>) -> Result<Value, AskError> {
        let method = match method {
            "elicitation/create" if params.get("mode").and_then(Value::as_str) == Some("url") => AskMethod::ElicitUrl,
            "elicitation/create" => AskMethod::Elicit,
            "sampling/createMessage" => AskMethod::Sample,
            "roots/list" => AskMethod::Roots,
            // The client side passes on these three only.
            _ => return Err(AskError::Unsupported { method: "an unknown method", capability: "unknown" }),
        };
        self.unnamed().ask(method, Value::Object(params)).await
    }

    fn unnamed(&self) -> Question<'_> {
        Question { context: self, key: None }
    }

    /// Runs `work` once per tool call and keeps its value: in 2026-07-28 a
    /// tool that asks runs again from the start when the answers come, and a
    /// checkpoint gives the second run the first run's value instead of doing
    /// the work again (the value travels in the signed `requestState`, so
    /// keep it small). In the legacy era a call runs once and this is `work`.
    pub async fn checkpoint<T, F>(&self, key: &str, work: F) -> T
    where
        T: Serialize + DeserializeOwned,
        F: Future<Output = T>,
    {
        let asker = self.asker();
        if let Some(kept) = asker.and_then(|asker| asker.kept(key))
            && let Ok(value) = serde_json::from_value(kept)
        {
            return value;
        }
        let value = work.await;
        if let (Some(asker), Ok(json)) = (asker, serde_json::to_value(&value)) {
            asker.keep(key, json);
        }
        value
    }
}

/// One question to the client, named or not ([`Context::question`]).
#[derive(Debug)]
pub struct Question<'a> {
    context: &'a Context,
    key: Option<String>,
}

impl Question<'_> {
    /// Asks the person to fill in a form of `T`'s fields, with `message`
    /// saying why. `T` is a flat struct of strings, numbers, integers,
    /// booleans, unit-variant enums and lists of them (multi-select);
    /// `Option` fields are optional and serde defaults are defaults.
    ///
    /// `#[tool]` checks every `T` named as `elicit::<T>` in the tool's body
    /// when the toolbox is built; a `T` named elsewhere is checked here, as
    /// an error.
    pub async fn elicit<T: DeserializeOwned + JsonSchema>(
        self,
        message: impl Into<String>,
    ) -> Result<Elicitation<T>, AskError> {
        let schema = form_schema::<T>().map_err(AskError::NotAForm)?;
        let params = json!({ "mode": "form", "message": message.into(), "requestedSchema": schema });
        let answer = self.ask(AskMethod::Elicit, params).await?;
        let invalid = |problem: String| AskError::InvalidAnswer { method: AskMethod::Elicit.name(), problem };
        match answer.get("action").and_then(Value::as_str) {
            Some("accept") => {
                let content = answer.get("content").cloned().unwrap_or_else(|| json!({}));
                serde_json::from_value(drop_nulls(content))
                    .map(Elicitation::Accepted)
                    .map_err(|error| invalid(format!("the form's values do not fit: {error}")))
            }
            Some("decline") => Ok(Elicitation::Declined),
            Some("cancel") => Ok(Elicitation::Cancelled),
            other => Err(invalid(format!("`action` must be accept, decline or cancel, not {other:?}"))),
        }
    }

    /// Asks the person to open `url` (URL-mode elicitation, 2025-11-25 on):
    /// for what must not pass through the client, such as a sign-in or a
    /// payment.
    pub async fn elicit_url(
        self,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> Result<UrlElicitation, AskError> {
        let elicitation_id = crate::random::hex::<16>().map_err(AskError::NoRandomness)?;
        let params =
            json!({ "mode": "url", "message": message.into(), "url": url.into(), "elicitationId": elicitation_id });
        let answer = self.ask(AskMethod::ElicitUrl, params).await?;
        match answer.get("action").and_then(Value::as_str) {
            Some("accept") => Ok(UrlElicitation::Accepted),
            Some("decline") => Ok(UrlElicitation::Declined),
            Some("cancel") => Ok(UrlElicitation::Cancelled),
            other => Err(AskError::InvalidAnswer {
                method: AskMethod::ElicitUrl.name(),
                problem: format!("`action` must be accept, decline or cancel, not {other:?}"),
            }),
        }
    }

    /// Asks the client's model for a message.
    pub async fn sample(self, request: Sampling) -> Result<Sampled, AskError> {
        let answer = self.ask(AskMethod::Sample, request.to_params()).await?;
        Sampled::from_wire(&answer)
            .map_err(|problem| AskError::InvalidAnswer { method: AskMethod::Sample.name(), problem })
    }

    /// Asks the client for its roots.
    pub async fn roots(self) -> Result<Vec<Root>, AskError> {
        let answer = self.ask(AskMethod::Roots, json!({})).await?;
        let roots = answer.get("roots").cloned().unwrap_or(Value::Null);
        serde_json::from_value(roots).map_err(|error| AskError::InvalidAnswer {
            method: AskMethod::Roots.name(),
            problem: format!("`roots` must be a list of {{uri, name}}: {error}"),
        })
    }

    async fn ask(self, method: AskMethod, params: Value) -> Result<Value, AskError> {
        let Some(asker) = self.context.asker() else { return Err(AskError::NoClient(method.name())) };
        let params = match params {
            Value::Object(params) => params,
            _ => Map::new(),
        };
        asker.ask(Ask { key: self.key, method, params }).await
    }
}

/// Form values sent as `null` are absent.
fn drop_nulls(content: Value) -> Value {
    match content {
        Value::Object(mut values) => {
            values.retain(|_, value| !value.is_null());
            Value::Object(values)
        }
        other => other,
    }
}
