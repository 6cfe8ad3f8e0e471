//! The skills extension's methods (SEP-2640): `skills/list`, `skills/get` and
//! `resources/directory/read`, and its capability. A server without skills
//! (or built without the `skills` feature) knows none of them.

use serde_json::{Map, Value};

use super::Engine;
use crate::mcp::Method;
use crate::server::era::Era;
use crate::server::jsonrpc::{METHOD_NOT_FOUND, RpcError};

impl Engine {
    /// Answers skills method `method`.
    pub(super) fn skills_method(
        &self,
        method: Method,
        era: Era,
        params: &Map<String, Value>,
    ) -> Result<Value, RpcError> {
        #[cfg(feature = "skills")]
        if let Some(skills) = &self.skills {
            return serve::answer(self, skills, method, era, params);
        }
        let _ = (era, params);
        Err(RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method} (this server serves no skills)")))
    }

    /// Adds the extension to the server's `capabilities` when it has skills.
    pub(super) fn advertise_skills(&self, capabilities: &mut Map<String, Value>) {
        #[cfg(feature = "skills")]
        if self.skills.is_some() {
            capabilities.entry("resources").or_insert_with(|| Value::Object(Map::new()));
            let extensions = capabilities.entry("extensions").or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(extensions) = extensions {
                extensions.insert(crate::skills::EXTENSION.into(), serde_json::json!({ "directoryRead": true }));
            }
        }
        let _ = capabilities;
    }
}

#[cfg(feature = "skills")]
mod serve {
    use serde_json::{Map, Value, json};

    use super::super::Engine;
    use super::super::resources::cursor_param;
    use crate::mcp::Method;
    use crate::server::era::Era;
    use crate::server::jsonrpc::{INVALID_PARAMS, METHOD_NOT_FOUND, RpcError};
    use crate::skills::{SKILL_FILE, Skill, Skills};
    use crate::toolbox::Page;
    use crate::toolbox::listing::wire_page;

    /// Answers `method` from `skills`.
    pub(super) fn answer(
        engine: &Engine,
        skills: &Skills,
        method: Method,
        era: Era,
        params: &Map<String, Value>,
    ) -> Result<Value, RpcError> {
        let toolbox = &engine.toolbox;
        let invalid = |error: crate::toolbox::InvalidCursor| RpcError::new(INVALID_PARAMS, error.to_string());
        match method {
            Method::SkillsList => {
                let cursor = cursor_param(params)?;
                let page = Page::of(skills.as_slice(), cursor, toolbox.page_size(), toolbox.cache_hint(), Skill::entry)
                    .map_err(invalid)?;
                Ok(wire_page(era.version, "skills", page.items, page.next_cursor.as_deref(), page.cache))
            }
            Method::SkillsGet => {
                let uri = uri_param(params)?;
                let skill = skills.get(uri).ok_or_else(|| {
                    RpcError::new(
                        INVALID_PARAMS,
                        format!("Invalid params: no skill at {uri}: skills/get takes the URI of a served skill's {SKILL_FILE}"),
                    )
                    .with_data(json!({ "uri": uri }))
                })?;
                let mut result = Map::new();
                result.insert("skill".into(), skill.entry());
                if era.is_modern() {
                    let cache = toolbox.cache_hint();
                    let ttl = u64::try_from(cache.ttl().as_millis()).unwrap_or(u64::MAX);
                    result.insert("ttlMs".into(), Value::from(ttl));
                    result
                        .insert("cacheScope".into(), Value::from(if cache.is_public() { "public" } else { "private" }));
                }
                Ok(Value::Object(result))
            }
            Method::ResourcesDirectoryRead => {
                let uri = uri_param(params)?;
                let cursor = cursor_param(params)?;
                let children = skills.children(uri, era.version).ok_or_else(|| {
                    let why =
                        if skills.file(uri).is_some() { "a file, not a directory" } else { "not a directory resource" };
                    RpcError::new(INVALID_PARAMS, format!("Invalid params: {uri} is {why}"))
                        .with_data(json!({ "uri": uri }))
                })?;
                let page = Page::of(&children, cursor, toolbox.page_size(), toolbox.cache_hint(), Value::clone)
                    .map_err(invalid)?;
                Ok(wire_page(era.version, "resources", page.items, page.next_cursor.as_deref(), page.cache))
            }
            other => Err(RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {other}"))),
        }
    }

    /// The `uri` string parameter.
    fn uri_param(params: &Map<String, Value>) -> Result<&str, RpcError> {
        params
            .get("uri")
            .and_then(Value::as_str)
            .ok_or_else(|| RpcError::new(INVALID_PARAMS, "Invalid params: the request needs a `uri` string"))
    }
}
