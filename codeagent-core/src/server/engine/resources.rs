//! `resources/list`, `resources/templates/list`, `resources/read` and the
//! legacy `resources/subscribe` / `resources/unsubscribe`.

use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::{Engine, Reply, Route, refused, request_context, unless_stopped};
use crate::mcp::ResourceContents;
use crate::server::apps;
use crate::server::budget::{Found, RESULT_MIME_TYPE, RESULT_URI_PREFIX, duration_text};
use crate::server::era::Era;
use crate::server::jsonrpc::{
    INTERNAL_ERROR, INVALID_PARAMS, RESOURCE_NOT_FOUND, RpcError, error_message, result_message,
};
use crate::server::peer::{Peer, Slot};
use crate::toolbox::ResourceError;
use crate::ui::APP_URI;

/// The `uri` parameter of a resource request.
fn uri_param(params: &Map<String, Value>) -> Result<&str, RpcError> {
    params
        .get("uri")
        .and_then(Value::as_str)
        .ok_or_else(|| RpcError::new(INVALID_PARAMS, "Invalid params: resource requests need a `uri` string"))
}

/// The `cursor` parameter of a list request.
pub(super) fn cursor_param(params: &Map<String, Value>) -> Result<Option<&str>, RpcError> {
    match params.get("cursor") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(cursor)) => Ok(Some(cursor.as_str())),
        Some(_) => Err(RpcError::new(INVALID_PARAMS, "Invalid params: `cursor` must be a string")),
    }
}

/// The error for a resource that could not be read, as `era` states it.
fn read_error(era: Era, uri: &str, error: &ResourceError) -> RpcError {
    match error {
        ResourceError::NotFound(_) => not_found(era, uri, format!("Resource not found: {uri}")),
        other => RpcError::new(INTERNAL_ERROR, format!("Reading {uri} failed: {other}")),
    }
}

/// Resource `uri` is not there, as `era` says it (with `message`).
fn not_found(era: Era, uri: &str, message: String) -> RpcError {
    // SEP-2164: 2026-07-28 answers an unknown resource with invalid params.
    let code = if era.is_modern() { INVALID_PARAMS } else { RESOURCE_NOT_FOUND };
    RpcError::new(code, message).with_data(json!({ "uri": uri }))
}

impl Engine {
    /// `resources/list` or, with `templates`, `resources/templates/list`.
    pub(super) fn list_resources(
        &self,
        era: Era,
        params: &Map<String, Value>,
        templates: bool,
    ) -> Result<Value, RpcError> {
        let cursor = cursor_param(params)?;
        let mut page = self
            .toolbox
            .resources()
            .wire_page(era.version, cursor, templates)
            .map_err(|error| RpcError::new(INVALID_PARAMS, error.to_string()))?;
        if era.apps && !templates {
            apps::list_builtin_view(&mut page, &self.toolbox);
        }
        Ok(page)
    }

    /// `resources/subscribe` (`subscribe`) or `resources/unsubscribe`.
    pub(super) fn subscription(
        &self,
        peer: &Peer,
        params: &Map<String, Value>,
        subscribe: bool,
    ) -> Result<Value, RpcError> {
        let uri = uri_param(params)?;
        if subscribe {
            peer.subscribe(uri);
        } else {
            peer.unsubscribe(uri);
        }
        Ok(Value::Object(Map::new()))
    }

    /// A read of kept result `uri`: the whole result while it is kept, a
    /// resource-not-found error naming why it may be gone after.
    fn read_kept(&self, era: Era, uri: &str, found: Option<Found>) -> Result<Value, RpcError> {
        let Some(found) = found else {
            let ttl = duration_text(self.results.ttl());
            return Err(not_found(
                era,
                uri,
                format!(
                    "Resource not found: {uri}: a tool result over budget is kept for {ttl} after its call, \
                     or until newer ones need the room"
                ),
            ));
        };
        let contents = ResourceContents::text(uri, found.document.as_str())
            .map_err(|error| RpcError::new(INTERNAL_ERROR, format!("Reading {uri} failed: {error}")))?
            .with_mime_type(RESULT_MIME_TYPE.to_owned());
        let mut result = Map::new();
        result.insert("contents".into(), Value::Array(vec![contents.into_wire(era.version)]));
        if era.is_modern() {
            // The result never changes: this client may cache it while it is kept.
            let ttl = u64::try_from(found.remaining.as_millis()).unwrap_or(u64::MAX);
            result.insert("ttlMs".into(), Value::from(ttl));
            result.insert("cacheScope".into(), Value::from("private"));
        }
        Ok(self.finish(era, Value::Object(result)))
    }

    /// The result of a read of `uri` that gave `contents` (on the wire).
    fn read_result(&self, era: Era, uri: &str, contents: Vec<Value>) -> Value {
        let mut result = Map::new();
        result.insert("contents".into(), Value::Array(contents));
        if era.is_modern() {
            let cache = self.toolbox.resources().cache_hint(uri);
            let ttl = u64::try_from(cache.ttl().as_millis()).unwrap_or(u64::MAX);
            result.insert("ttlMs".into(), Value::from(ttl));
            let scope = if cache.is_public() { "public" } else { "private" };
            result.insert("cacheScope".into(), Value::from(scope));
        }
        self.finish(era, Value::Object(result))
    }

    /// Starts `resources/read` request `id`.
    pub(super) fn read(
        self: &Arc<Self>,
        peer: &Arc<Peer>,
        id: Value,
        era: Era,
        params: Map<String, Value>,
        slot: Arc<Slot>,
        route: &Route,
    ) -> Reply {
        let uri = match uri_param(&params) {
            Ok(uri) => uri.to_owned(),
            Err(error) => return refused(peer, &id, &slot, &error),
        };
        if uri.starts_with(RESULT_URI_PREFIX) {
            // A result kept for a caller is found for that caller only.
            let owner = route.caller.as_ref().map(crate::toolbox::Caller::identity);
            let found = self.results.get(&uri, tokio::time::Instant::now(), owner.as_deref());
            #[cfg(feature = "http")]
            if found.is_none()
                && let Some(store) = self.shared_results.clone()
            {
                // Perhaps another instance kept it.
                let engine = Arc::clone(self);
                let peer = Arc::clone(peer);
                let route = route.clone();
                return Reply::Later(Box::pin(async move {
                    let ttl = engine.results.ttl();
                    let lookup = store.get(&crate::server::budget::shared_key(&uri, owner.as_deref()), ttl);
                    let stored = unless_stopped(&peer, &id, &slot, &route, lookup).await?;
                    let found = match stored {
                        Ok(found) => found.map(|document| Found { document: Arc::new(document), remaining: ttl }),
                        Err(error) => {
                            let message = format!("Reading {uri} failed: the shared store failed: {error}");
                            return Some(error_message(&id, &RpcError::new(INTERNAL_ERROR, message)));
                        }
                    };
                    Some(match engine.read_kept(era, &uri, found) {
                        Ok(result) => result_message(&id, result),
                        Err(error) => error_message(&id, &error),
                    })
                }));
            }
            let answer = self.read_kept(era, &uri, found);
            slot.finish();
            peer.complete(&id);
            return Reply::Now(Some(match answer {
                Ok(result) => result_message(&id, result),
                Err(error) => error_message(&id, &error),
            }));
        }
        if uri == APP_URI && apps::serves_builtin_view(&self.toolbox) {
            let answer = apps::builtin_view(era.version)
                .map(|contents| self.read_result(era, &uri, vec![contents]))
                .map_err(|error| RpcError::new(INTERNAL_ERROR, format!("Reading {uri} failed: {error}")));
            slot.finish();
            peer.complete(&id);
            return Reply::Now(Some(match answer {
                Ok(result) => result_message(&id, result),
                Err(error) => error_message(&id, &error),
            }));
        }
        let context = request_context(&id, era, &params, &slot, route, None);
        let reading = match self.toolbox.resources().start(&uri, context) {
            Ok(reading) => reading,
            Err(error) => return refused(peer, &id, &slot, &read_error(era, &uri, &error)),
        };
        let engine = Arc::clone(self);
        let peer = Arc::clone(peer);
        let route = route.clone();
        Reply::Later(Box::pin(async move {
            let read = unless_stopped(&peer, &id, &slot, &route, reading).await?;
            Some(match read {
                Ok(contents) => {
                    let contents = contents.into_iter().map(|content| content.into_wire(era.version)).collect();
                    result_message(&id, engine.read_result(era, &uri, contents))
                }
                Err(error) => error_message(&id, &read_error(era, &uri, &error)),
            })
        }))
    }
}
