//! How a client answers the server's questions: elicitation (a form, or a
//! URL to visit), sampling (a model's completion) and roots (the client's
//! directories). The same handlers answer legacy server-to-client requests
//! and the questions of a 2026-07-28 `input_required` round.

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value, json};

use crate::toolbox::Context;

/// The future a handler returns.
pub type HandlerFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

type Elicit = Arc<dyn Fn(ElicitationRequest) -> HandlerFuture<ElicitAnswer> + Send + Sync>;
type Sample = Arc<dyn Fn(SamplingRequest) -> HandlerFuture<Result<Value, String>> + Send + Sync>;
type Roots = Arc<dyn Fn() -> HandlerFuture<Vec<Root>> + Send + Sync>;

/// A question for the person at the client: an `elicitation/create`
/// request (the answer is an [`ElicitAnswer`]).
#[derive(Clone, Debug)]
pub struct ElicitationRequest {
    params: Map<String, Value>,
}

impl ElicitationRequest {
    /// The request of `params`, which must hold the question (`message`, a
    /// string); what is wrong otherwise.
    pub(crate) fn from_params(params: Map<String, Value>) -> Result<ElicitationRequest, String> {
        match params.get("message") {
            Some(Value::String(_)) => Ok(ElicitationRequest { params }),
            Some(_) => Err("elicitation/create: `message` must be a string".to_owned()),
            None => Err("elicitation/create: `message` is missing".to_owned()),
        }
    }

    /// The question the server asks.
    pub fn message(&self) -> &str {
        self.params.get("message").and_then(Value::as_str).unwrap_or_default()
    }

    /// The schema of the form (form mode), if any.
    pub fn requested_schema(&self) -> Option<&Value> {
        self.params.get("requestedSchema")
    }

    /// The URL to visit (URL mode), if any.
    pub fn url(&self) -> Option<&str> {
        self.params.get("url").and_then(Value::as_str)
    }

    /// The request's parameters as the server sent them.
    pub fn params(&self) -> &Map<String, Value> {
        &self.params
    }

    /// The `default` of each property of the form that has one: what a
    /// client shows pre-filled, and what [`ElicitAnswer::accept_defaults`] sends.
    pub fn defaults(&self) -> Map<String, Value> {
        let properties = self.requested_schema().and_then(|schema| schema.get("properties")).and_then(Value::as_object);
        properties
            .into_iter()
            .flatten()
            .filter_map(|(name, property)| Some((name.clone(), property.get("default")?.clone())))
            .collect()
    }
}

/// The person's answer to an [`ElicitationRequest`].
#[derive(Clone, Debug, PartialEq)]
pub enum ElicitAnswer {
    /// The form filled in (empty for a URL visited).
    Accept(Map<String, Value>),
    /// The person said no.
    Decline,
    /// The person dismissed the question.
    Cancel,
}

impl ElicitAnswer {
    /// Accepts `elicitation` with the defaults of its form.
    pub fn accept_defaults(elicitation: &ElicitationRequest) -> ElicitAnswer {
        ElicitAnswer::Accept(elicitation.defaults())
    }

    /// The answer as an `ElicitResult`.
    pub(crate) fn to_wire(&self) -> Value {
        match self {
            ElicitAnswer::Accept(content) => json!({ "action": "accept", "content": content }),
            ElicitAnswer::Decline => json!({ "action": "decline" }),
            ElicitAnswer::Cancel => json!({ "action": "cancel" }),
        }
    }
}

/// A request for a model's completion: a `sampling/createMessage` request
/// (answered with a `CreateMessageResult`, [`SamplingRequest::text_answer`]).
#[derive(Clone, Debug)]
pub struct SamplingRequest {
    params: Map<String, Value>,
}

impl SamplingRequest {
    /// The request of `params`, which must hold the conversation
    /// (`messages`, an array); what is wrong otherwise.
    pub(crate) fn from_params(params: Map<String, Value>) -> Result<SamplingRequest, String> {
        match params.get("messages") {
            Some(Value::Array(_)) => Ok(SamplingRequest { params }),
            Some(_) => Err("sampling/createMessage: `messages` must be an array".to_owned()),
            None => Err("sampling/createMessage: `messages` is missing".to_owned()),
        }
    }

    /// The conversation to complete, as the server sent it.
    pub fn messages(&self) -> &[Value] {
        self.params.get("messages").and_then(Value::as_array).map_or(&[], Vec::as_slice)
    }

    /// The request's parameters as the server sent them.
    pub fn params(&self) -> &Map<String, Value> {
        &self.params
    }

    /// The text of the last message's text content, if it has any.
    pub fn last_text(&self) -> Option<&str> {
        let content = &self.messages().last()?["content"];
        let block = match content {
            Value::Array(blocks) => blocks.iter().find(|block| block["type"] == "text")?,
            block => block,
        };
        block["text"].as_str()
    }

    /// A `CreateMessageResult` of `text` from `model`, ending its turn.
    pub fn text_answer(model: &str, text: &str) -> Value {
        json!({
            "role": "assistant",
            "content": { "type": "text", "text": text },
            "model": model,
            "stopReason": "endTurn",
        })
    }
}

pub use crate::mcp::Root;

/// The handlers a client answers the server's questions with. Each one it
/// has is declared as a client capability; a question without a handler is
/// refused (legacy: a `-32601` error; 2026-07-28: the call fails with
/// [`ClientError::Unanswerable`](super::ClientError::Unanswerable)).
///
/// ```
/// use codeagent_core::client::{ElicitAnswer, Handlers, Root, SamplingRequest};
///
/// let handlers = Handlers::new()
///     .on_elicitation(|question| async move { ElicitAnswer::accept_defaults(&question) })
///     .on_sampling(|request| async move {
///         Ok(SamplingRequest::text_answer("echo", request.last_text().unwrap_or_default()))
///     })
///     .with_roots(vec![Root::new("file:///tmp/project")]);
/// assert_eq!(handlers.capabilities()["roots"]["listChanged"], false);
/// ```
#[derive(Clone, Default)]
pub struct Handlers {
    elicit: Option<Elicit>,
    sample: Option<Sample>,
    roots: Option<Roots>,
    forward: Option<Arc<Callers>>,
}

/// The local calls of mounted tools running now: a mounted server's
/// question goes to the caller of the latest.
#[derive(Default)]
pub(crate) struct Callers {
    running: Mutex<Vec<(u64, Context)>>,
    next: AtomicU64,
}

/// A call registered with [`Callers`], until dropped.
pub(crate) struct Caller {
    callers: Arc<Callers>,
    id: u64,
}

impl Drop for Caller {
    fn drop(&mut self) {
        self.callers.running.lock().unwrap_or_else(PoisonError::into_inner).retain(|(id, _)| *id != self.id);
    }
}

impl Callers {
    /// Registers the call of `context` while the result lives.
    pub(crate) fn enter(self: &Arc<Self>, context: Context) -> Caller {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.running.lock().unwrap_or_else(PoisonError::into_inner).push((id, context));
        Caller { callers: Arc::clone(self), id }
    }

    fn latest(&self) -> Option<Context> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner).last().map(|(_, context)| context.clone())
    }
}

impl std::fmt::Debug for Handlers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Handlers")
            .field("elicitation", &self.elicit.is_some())
            .field("sampling", &self.sample.is_some())
            .field("roots", &self.roots.is_some())
            .field("forward", &self.forward.is_some())
            .finish()
    }
}

impl Handlers {
    /// No handlers: the client declares no capabilities.
    pub fn new() -> Handlers {
        Handlers::default()
    }

    /// Passes every question on to the caller of the tool it concerns, once
    /// the client is mounted ([`Toolbox::mount`](crate::toolbox::Toolbox::mount)):
    /// the person, model and roots at the local end answer the mounted
    /// server. A question asked while no mounted tool runs is refused.
    /// Declares elicitation, sampling and roots; the local client is asked
    /// only what it declared itself.
    pub fn forward() -> Handlers {
        Handlers { forward: Some(Arc::new(Callers::default())), ..Handlers::default() }
    }

    /// The callers questions are passed on to, when [`forward`](Handlers::forward)ing.
    pub(crate) fn callers(&self) -> Option<&Arc<Callers>> {
        self.forward.as_ref()
    }

    /// Answers `elicitation/create` with `handler`.
    #[must_use]
    pub fn on_elicitation<F, Fut>(mut self, handler: F) -> Handlers
    where
        F: Fn(ElicitationRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ElicitAnswer> + Send + 'static,
    {
        self.elicit = Some(Arc::new(move |question| Box::pin(handler(question))));
        self
    }

    /// Answers `sampling/createMessage` with `handler`: a `CreateMessageResult`,
    /// or why the client refuses.
    #[must_use]
    pub fn on_sampling<F, Fut>(mut self, handler: F) -> Handlers
    where
        F: Fn(SamplingRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, String>> + Send + 'static,
    {
        self.sample = Some(Arc::new(move |request| Box::pin(handler(request))));
        self
    }

    /// Answers `roots/list` with `handler`.
    #[must_use]
    pub fn on_roots<F, Fut>(mut self, handler: F) -> Handlers
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Vec<Root>> + Send + 'static,
    {
        self.roots = Some(Arc::new(move || Box::pin(handler())));
        self
    }

    /// Answers `roots/list` with `roots`, always.
    #[must_use]
    pub fn with_roots(self, roots: Vec<Root>) -> Handlers {
        self.on_roots(move || std::future::ready(roots.clone()))
    }

    /// The client capabilities these handlers make.
    pub fn capabilities(&self) -> Value {
        let mut capabilities = Map::new();
        let forward = self.forward.is_some();
        if self.elicit.is_some() || forward {
            capabilities.insert("elicitation".into(), json!({ "form": {}, "url": {} }));
        }
        if self.sample.is_some() || forward {
            capabilities.insert("sampling".into(), json!({}));
        }
        if self.roots.is_some() || forward {
            capabilities.insert("roots".into(), json!({ "listChanged": false }));
        }
        Value::Object(capabilities)
    }

    /// Answers the question `method` with `params`: its result, or `None`
    /// without a handler for it; `Err` when the question is malformed or the
    /// handler refuses.
    pub(crate) async fn answer(&self, method: &str, params: Map<String, Value>) -> Option<Result<Value, Refusal>> {
        if let Some(callers) = &self.forward {
            if !matches!(method, "elicitation/create" | "sampling/createMessage" | "roots/list") {
                return None;
            }
            let Some(caller) = callers.latest() else {
                return Some(Err(Refusal::Refused(format!(
                    "no call of a mounted tool is running to pass `{method}` on to"
                ))));
            };
            return Some(
                caller.forward_question(method, params).await.map_err(|error| Refusal::Refused(error.to_string())),
            );
        }
        match method {
            "elicitation/create" => {
                let handler = self.elicit.as_ref()?;
                match ElicitationRequest::from_params(params) {
                    Ok(request) => Some(Ok(handler(request).await.to_wire())),
                    Err(problem) => Some(Err(Refusal::Invalid(problem))),
                }
            }
            "sampling/createMessage" => {
                let handler = self.sample.as_ref()?;
                match SamplingRequest::from_params(params) {
                    Ok(request) => Some(handler(request).await.map_err(Refusal::Refused)),
                    Err(problem) => Some(Err(Refusal::Invalid(problem))),
                }
            }
            "roots/list" => {
                let handler = self.roots.as_ref()?;
                let roots = handler().await;
                Some(Ok(json!({ "roots": roots })))
            }
            _ => None,
        }
    }
}

/// Why a question of the server is not answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The question is malformed (`-32602` to a legacy server): what is wrong.
    Invalid(String),
    /// The handler, or the caller a question is passed on to, refused: why.
    Refused(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Invalid(problem) | Refusal::Refused(problem) => f.write_str(problem),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[tokio::test]
    async fn a_malformed_question_is_refused_naming_the_field_never_answered_with_a_default() {
        let handlers = Handlers::new()
            .on_elicitation(|question| async move { ElicitAnswer::accept_defaults(&question) })
            .on_sampling(
                |request| async move { Ok(SamplingRequest::text_answer("m", request.last_text().unwrap_or("?"))) },
            );
        let missing = handlers.answer("elicitation/create", params(json!({ "requestedSchema": {} }))).await;
        assert_eq!(missing, Some(Err(Refusal::Invalid("elicitation/create: `message` is missing".into()))));
        let wrong = handlers.answer("elicitation/create", params(json!({ "message": 5 }))).await;
        assert_eq!(wrong, Some(Err(Refusal::Invalid("elicitation/create: `message` must be a string".into()))));
        let wrong = handlers.answer("sampling/createMessage", params(json!({ "messages": "hi" }))).await;
        assert_eq!(wrong, Some(Err(Refusal::Invalid("sampling/createMessage: `messages` must be an array".into()))));

        let asked = json!({ "message": "Go?", "requestedSchema": { "properties": { "go": { "default": true } } } });
        let answer = handlers.answer("elicitation/create", params(asked)).await;
        assert_eq!(answer, Some(Ok(json!({ "action": "accept", "content": { "go": true } }))));
        let roots = Handlers::new().with_roots(vec![Root::new("file:///p").with_name("p")]);
        let listed = roots.answer("roots/list", Map::new()).await;
        assert_eq!(listed, Some(Ok(json!({ "roots": [{ "uri": "file:///p", "name": "p" }] }))));
    }
}
