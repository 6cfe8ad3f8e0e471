//! `tools/call`: a tool runs in its request's context until it finishes, the
//! client cancels it, the transport loses the client, or the deadline passes.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::call_refusal::with_error_artifact;
use super::input::{Round, Subject, stuck};
#[cfg(feature = "tasks")]
use super::task_call::{Detachable, TaskMode};
use super::{CANCEL_GRACE, Engine, Reply, Route, refused, request_context};
use crate::raw_json::RawParts;
use crate::server::budget::{self, Call};
use crate::server::era::Era;
use crate::server::jsonrpc::{
    INTERNAL_ERROR, INVALID_PARAMS, RpcError, error_message, raw_result_message, result_message,
};
use crate::server::outgoing::Outgoing;
use crate::server::peer::{Peer, Slot};
use crate::toolbox::{Context, StartedCall, ToolSpec};

/// A tool call under way, in 2026-07-28 its round of questions, and for a
/// `task(detach)` tool what it needs to become a task.
struct Started {
    call: StartedCall,
    round: Option<Round>,
    #[cfg(feature = "tasks")]
    detachable: Option<Detachable>,
}

/// How a tool call ended.
// It lives on the stack for one match; boxing the result would cost an
// allocation per call.
#[allow(clippy::large_enum_variant)]
enum Outcome {
    Finished(crate::ToolResult),
    /// 2026-07-28: a question has no answer yet.
    InputRequired,
    Stopped,
    TimedOut,
    /// A `task(detach)` tool detached: the call goes on as a task.
    Detached,
}

/// Resolves when the tool of `link` asks to detach; never without one.
#[cfg(feature = "tasks")]
async fn detach_requested(link: Option<&crate::toolbox::task::TaskLink>) {
    match link {
        Some(link) => link.requested().await,
        None => std::future::pending().await,
    }
}

impl Engine {
    /// Starts `tools/call` request `id`.
    pub(super) fn call(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        id: Value,
        era: Era,
        mut params: Map<String, Value>,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        let name = match params.remove("name") {
            Some(Value::String(name)) => name,
            _ => {
                let error = RpcError::new(INVALID_PARAMS, "Invalid params: tools/call needs a `name` string");
                return refused(peer, &id, &slot, &error);
            }
        };
        #[cfg(feature = "tasks")]
        let mut mode = None;
        if let Some(tool) = self.toolbox.tools().find(&name) {
            let checked = match self.missing_capability(peer, era, &params, tool.spec()) {
                Some(error) => Err(error),
                #[cfg(feature = "tasks")]
                None => self.task_mode(peer, era, &params, tool.spec()).map(|found| mode = found),
                #[cfg(not(feature = "tasks"))]
                None => self.task_mode(tool.spec()),
            };
            if let Err(error) = checked {
                // 2026-07-28 defines this error's `data` whole: no artifact there.
                let error = if era.is_modern() { error } else { with_error_artifact(error) };
                return refused(peer, &id, &slot, &error);
            }
        }
        let arguments = params.remove("arguments");
        #[cfg(feature = "tasks")]
        if let Some(TaskMode::AtOnce) = mode {
            return self.call_as_task(peer, id, era, &name, arguments, &params, slot, route);
        }
        let subject =
            Subject { method: "tools/call", name: &name, arguments: arguments.as_ref().unwrap_or(&Value::Null) };
        let (asker, round) = match self.questions(peer, era, &subject, &params, &slot, route) {
            Ok(questions) => questions,
            Err(error) => return refused(peer, &id, &slot, &with_error_artifact(error)),
        };
        #[cfg(feature = "tasks")]
        let (context, detachable) = match mode {
            Some(TaskMode::AtDetach) => {
                let (context, detachable) =
                    self.detachable_context(peer, &id, era, (&name, &params), &slot, route, asker);
                (context, Some(detachable))
            }
            _ => (request_context(&id, era, &params, &slot, route, Some(asker)), None),
        };
        #[cfg(not(feature = "tasks"))]
        let context = request_context(&id, era, &params, &slot, route, Some(asker));
        let started = match self.start_tool(&name, arguments, context) {
            Ok(started) => started,
            Err(error) => return refused(peer, &id, &slot, &error),
        };
        let engine = Arc::clone(self);
        let peer = Arc::clone(peer);
        let route = route.clone();
        let started = Started {
            call: started,
            round,
            #[cfg(feature = "tasks")]
            detachable,
        };
        Reply::Later(Box::pin(async move { engine.run(&peer, id, era, &slot, &route, started).await }))
    }

    /// Runs a started call to its end; the response, unless none is owed.
    async fn run(
        self: &Arc<Self>,
        peer: &Peer,
        id: Value,
        era: Era,
        slot: &Slot,
        route: &Route,
        started: Started,
    ) -> Option<Outgoing> {
        #[cfg(feature = "tasks")]
        let Started { mut call, round, detachable } = started;
        #[cfg(not(feature = "tasks"))]
        let Started { mut call, round } = started;
        #[cfg(feature = "tasks")]
        let detach = {
            let link = detachable.as_ref().map(|detachable| Arc::clone(&detachable.link));
            async move { detach_requested(link.as_deref()).await }
        };
        // Without tasks no call detaches.
        #[cfg(not(feature = "tasks"))]
        let detach = std::future::pending::<()>();
        let hangup = route.hangup.clone().unwrap_or_default();
        let deadline = route.deadline;
        let expired = async move {
            match deadline {
                Some(deadline) => tokio::time::sleep(deadline).await,
                None => std::future::pending().await,
            }
        };
        let outcome = tokio::select! {
            biased;
            result = &mut call => Outcome::Finished(result),
            () = stuck(round.as_ref()) => Outcome::InputRequired,
            () = detach => Outcome::Detached,
            () = slot.stop.cancelled() => Outcome::Stopped,
            () = hangup.cancelled() => Outcome::Stopped,
            () = expired => Outcome::TimedOut,
        };
        slot.finish();
        // A client's `notifications/cancelled` wins even over a result that
        // raced it: it took the request out of the table.
        let owed = peer.complete(&id);
        #[cfg(feature = "tasks")]
        let detachable = match (matches!(outcome, Outcome::Detached), detachable) {
            (true, Some(detachable)) => {
                let created = self.detach(era, detachable, call).await;
                return owed.then(|| match created {
                    Ok(result) => result_message(&id, result),
                    Err(error) => error_message(&id, &with_error_artifact(error)),
                });
            }
            (_, detachable) => detachable,
        };
        #[cfg(feature = "tasks")]
        if let Some(detachable) = &detachable {
            // The call ends as a request: a `detach` still to come returns at once.
            detachable.link.decline();
            if !matches!(outcome, Outcome::Finished(_)) {
                detachable.cancel.cancel();
            }
        }
        let response = match outcome {
            Outcome::Finished(result) => {
                if !owed {
                    return None;
                }
                let owner = route.caller.as_ref().map(crate::toolbox::Caller::identity);
                let (wire, parts, kept) = self.call_result(era, call.spec(), result, owner.as_deref());
                if let Some(uri) = kept {
                    self.share_result(&uri, owner.as_deref()).await;
                }
                return Some(raw_result_message(&id, wire, parts));
            }
            Outcome::InputRequired => {
                // The tool waits on a question this round cannot answer: it ends here.
                drop(call);
                let round = round.as_ref()?;
                return owed.then(|| result_message(&id, self.input_required(era, round)));
            }
            Outcome::TimedOut if owed => {
                let seconds = deadline.unwrap_or_default().as_secs_f64();
                let error = RpcError::new(INTERNAL_ERROR, format!("The request timed out after {seconds} seconds"));
                let error = with_error_artifact(error);
                Some(error_message(&id, &error))
            }
            Outcome::Stopped | Outcome::TimedOut | Outcome::Detached => None,
        };
        // The tool did not finish: let it see `ctx.cancelled()` and clean up
        // before it is dropped.
        slot.stop.cancel();
        tokio::spawn(async move {
            let _ = tokio::time::timeout(CANCEL_GRACE, call).await;
        });
        response
    }

    /// Starts `tools/call` request `id` of task tool `name` as a task: the
    /// answer is the `CreateTaskResult`, once the task is recorded.
    #[cfg(feature = "tasks")]
    #[allow(clippy::too_many_arguments)]
    fn call_as_task(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        id: Value,
        era: Era,
        name: &str,
        arguments: Option<Value>,
        params: &Map<String, Value>,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        let task = match self.new_task(peer, era, (name, params), route) {
            Ok(task) => task,
            Err(error) => return refused(peer, &id, &slot, &with_error_artifact(error)),
        };
        let context = self.task_context(&id, era, params, &task, route);
        let started = match self.start_tool(name, arguments, context) {
            Ok(started) => started,
            Err(error) => return refused(peer, &id, &slot, &error),
        };
        let engine = Arc::clone(self);
        let peer = Arc::clone(peer);
        Reply::Later(Box::pin(async move {
            let created = engine.begin_task(era, task, started).await;
            slot.finish();
            peer.complete(&id).then(|| match created {
                Ok(result) => result_message(&id, result),
                Err(error) => error_message(&id, &with_error_artifact(error)),
            })
        }))
    }

    /// Starts tool `name` with `arguments` in `context`; a call the toolbox
    /// refuses (an unknown tool, arguments that are not an object) is an
    /// invalid-params error naming why.
    fn start_tool(&self, name: &str, arguments: Option<Value>, context: Context) -> Result<StartedCall, RpcError> {
        self.toolbox
            .tools()
            .start(name, arguments, context)
            .map_err(|error| with_error_artifact(RpcError::new(INVALID_PARAMS, error.to_string())))
    }

    /// The response to a finished tool call: the result as the era sends
    /// it, or its preview when it is over the tool's (or the server's)
    /// budget, with the URI the whole is kept at.
    /// Large data written as JSON text when the tool's output was read stays
    /// so: the result holds markers of the parts returned, and the response
    /// is written around it (see `raw_json`).
    pub(crate) fn call_result(
        &self,
        era: Era,
        tool: &ToolSpec,
        result: crate::ToolResult,
        owner: Option<&str>,
    ) -> (Value, RawParts, Option<String>) {
        let schema = tool.definition().output_schema.as_ref();
        let budget = tool.result_budget().unwrap_or(self.budget);
        let value_over = budget.value_bytes().is_some_and(|limit| result.value().len() > limit);
        let (call, mut parts) = result.into_call_result_raw();
        let wire = call.into_wire_raw(era.version, schema, &mut parts);
        let (wire, kept) = if budget.is_unlimited() {
            (wire, None)
        } else {
            let call = Call {
                tool: tool.name(),
                version: era.version,
                budget,
                value_over,
                has_output_schema: schema.is_some(),
                owner,
            };
            budget::bounded(&self.results, &call, wire, &mut parts)
        };
        (self.finish(era, wire), parts, kept)
    }

    /// Copies kept result `uri` of `owner` to the shared store, when there
    /// is one, so that any instance can read it; a failure leaves it
    /// readable here only.
    pub(super) async fn share_result(&self, uri: &str, owner: Option<&str>) {
        #[cfg(feature = "http")]
        if let Some(store) = &self.shared_results
            && let Some(found) = self.results.get(uri, tokio::time::Instant::now(), owner)
        {
            let key = budget::shared_key(uri, owner);
            if let Err(error) = store.set(&key, found.document.as_str().to_owned(), self.results.ttl()).await {
                tracing::warn!("the result at {uri} can be read from this instance only: {error}");
            }
        }
        #[cfg(not(feature = "http"))]
        let _ = (uri, owner);
    }

    /// Whether a result of some tool can be over budget, and so be kept and
    /// linked to (the store keeps anything): then the server offers `resources`.
    pub(super) fn keeps_results(&self) -> bool {
        let limited = |budget: crate::toolbox::ResultBudget| !budget.is_unlimited();
        if !self.results.can_keep() {
            return false;
        }
        limited(self.budget)
            || self.toolbox.tools().names().iter().any(|name| {
                self.toolbox.tools().find(name).is_some_and(|tool| tool.spec().result_budget().is_some_and(limited))
            })
    }
}
