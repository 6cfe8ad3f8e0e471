//! `prompts/list`, `prompts/get` and `completion/complete`.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::input::{Subject, stuck};
use super::resources::cursor_param;
use super::{Engine, Reply, Route, refused, request_context, unless_stopped};
use crate::server::era::Era;
use crate::server::jsonrpc::{INTERNAL_ERROR, INVALID_PARAMS, RpcError, error_message, result_message};
use crate::server::peer::{Peer, Slot};
use crate::toolbox::{CompleteError, PromptError};

fn invalid(message: impl Into<String>) -> RpcError {
    RpcError::new(INVALID_PARAMS, message)
}

/// The error for a prompt that could not be got.
fn prompt_error(error: &PromptError) -> RpcError {
    if error.is_invalid_params() {
        invalid(error.to_string())
    } else {
        RpcError::new(INTERNAL_ERROR, error.to_string())
    }
}

impl Engine {
    /// `prompts/list`.
    pub(super) fn list_prompts(&self, era: Era, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let cursor = cursor_param(params)?;
        self.toolbox.prompts().wire_page(era.version, cursor).map_err(|error| invalid(error.to_string()))
    }

    /// Starts `prompts/get` request `id`.
    pub(super) fn get_prompt(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        id: Value,
        era: Era,
        params: Map<String, Value>,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        let Some(name) = params.get("name").and_then(Value::as_str) else {
            return refused(peer, &id, &slot, &invalid("Invalid params: prompts/get needs a `name` string"));
        };
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => None,
            Some(Value::Object(arguments)) => Some(arguments),
            Some(_) => {
                let error = invalid(format!("Invalid arguments for prompt {name}: arguments must be an object"));
                return refused(peer, &id, &slot, &error);
            }
        };
        let arguments_value = arguments.map_or(Value::Null, |arguments| Value::Object(arguments.clone()));
        let subject = Subject { method: "prompts/get", name, arguments: &arguments_value };
        let (asker, round) = match self.questions(peer, era, &subject, &params, &slot, route) {
            Ok(questions) => questions,
            Err(error) => return refused(peer, &id, &slot, &error),
        };
        let context = request_context(&id, era, &params, &slot, route, Some(asker));
        let getting = match self.toolbox.prompts().start(name, arguments, context) {
            Ok(getting) => getting,
            Err(error) => return refused(peer, &id, &slot, &prompt_error(&error)),
        };
        let description = self
            .toolbox
            .prompts()
            .specs()
            .into_iter()
            .find(|spec| spec.name() == name)
            .and_then(|spec| spec.description().map(str::to_owned));
        let engine = Arc::clone(self);
        let peer = Arc::clone(peer);
        let route = route.clone();
        Reply::Later(Box::pin(async move {
            let round_of_getting = round.clone();
            let getting = async move {
                tokio::select! {
                    biased;
                    got = getting => Some(got),
                    () = stuck(round_of_getting.as_ref()) => None,
                }
            };
            let Some(got) = unless_stopped(&peer, &id, &slot, &route, getting).await? else {
                let round = round.as_ref()?;
                return Some(result_message(&id, engine.input_required(era, round)));
            };
            Some(match got {
                Ok(messages) => {
                    let mut result = Map::new();
                    if let Some(description) = description {
                        result.insert("description".into(), Value::from(description));
                    }
                    let messages = messages.into_iter().map(|message| message.into_wire(era.version)).collect();
                    result.insert("messages".into(), Value::Array(messages));
                    result_message(&id, engine.finish(era, Value::Object(result)))
                }
                Err(error) => error_message(&id, &prompt_error(&error)),
            })
        }))
    }

    /// `completion/complete`, for a prompt argument (`ref/prompt`) or a
    /// resource-template variable (`ref/resource`).
    pub(super) fn complete(&self, params: &Map<String, Value>) -> Result<Value, RpcError> {
        let reference = params.get("ref").and_then(Value::as_object).ok_or_else(|| {
            invalid("Invalid params: completion/complete needs a `ref` object (ref/prompt or ref/resource)")
        })?;
        let argument = params.get("argument").and_then(Value::as_object);
        let (Some(name), Some(typed)) = (
            argument.and_then(|argument| argument.get("name")).and_then(Value::as_str),
            argument.and_then(|argument| argument.get("value")).and_then(Value::as_str),
        ) else {
            return Err(invalid(
                "Invalid params: completion/complete needs an `argument` with `name` and `value` strings",
            ));
        };
        let given: BTreeMap<String, String> = params
            .get("context")
            .and_then(|context| context.get("arguments"))
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .filter_map(|(key, value)| value.as_str().map(|value| (key.clone(), value.to_owned())))
            .collect();
        let completion = match reference.get("type").and_then(Value::as_str) {
            Some("ref/prompt") => {
                let prompt = reference
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| invalid("Invalid params: a ref/prompt needs a `name`"))?;
                self.toolbox.prompts().complete(prompt, name, typed, &given)
            }
            Some("ref/resource") => {
                let template = reference
                    .get("uri")
                    .and_then(Value::as_str)
                    .ok_or_else(|| invalid("Invalid params: a ref/resource needs a `uri`"))?;
                self.toolbox.resources().complete(template, name, typed, &given)
            }
            other => {
                return Err(invalid(format!(
                    "Invalid params: `ref.type` must be \"ref/prompt\" or \"ref/resource\", not {}",
                    other.map_or_else(|| "missing".to_owned(), |other| format!("\"{other}\""))
                )));
            }
        }
        .map_err(|error: CompleteError| match error {
            CompleteError::Panicked(_) => RpcError::new(INTERNAL_ERROR, format!("Internal error: {error}")),
            error => invalid(format!("Invalid params: {error}")),
        })?;
        Ok(
            json!({ "completion": { "values": completion.values, "total": completion.total, "hasMore": completion.has_more } }),
        )
    }
}
