//! The results of the skills extension (SEP-2640,
//! `io.modelcontextprotocol/skills`), which no core schema defines, checked
//! as [`check`](crate::check) checks the core's: every required key there,
//! each of its type, and no key the extension does not define.
//!
//! - [`LIST_SKILLS_RESULT`] (`skills/list`): `skills`, an array of skill
//!   entries, and an optional `nextCursor`;
//! - [`GET_SKILL_RESULT`] (`skills/get`): `skill`, one entry;
//! - a skill entry: `uri`, `frontmatter` (an object with `name` and
//!   `description` strings) and `resources`, `"dynamic"` or an array of
//!   `{uri, digest, size}` (`digest` is `sha256:` and 64 lowercase hex digits);
//! - both results: an optional `_meta` object; in 2026-07-28 also
//!   `resultType`, and the caching hints every result there carries,
//!   `ttlMs` (a non-negative integer) and `cacheScope` (`public` or `private`).
//!
//! `resources/directory/read` answers a `ListResourcesResult` of the core
//! schema (its children are resources), so it needs nothing here.

use serde_json::{Map, Value};

use crate::wire::V2026;

/// The result of `skills/list`.
pub const LIST_SKILLS_RESULT: &str = "ListSkillsResult";
/// The result of `skills/get`.
pub const GET_SKILL_RESULT: &str = "GetSkillResult";

/// Whether `name` is a definition of the extension's.
pub fn defines(name: &str) -> bool {
    matches!(name, LIST_SKILLS_RESULT | GET_SKILL_RESULT)
}

/// Every problem of `value` as definition `name` (one of the extension's,
/// see [`defines`]) of `version`.
pub fn problems(version: &str, name: &str, value: &Value) -> Vec<String> {
    let mut checker = Checker { version, problems: Vec::new() };
    let Some(result) = checker.object(value, "$") else { return checker.problems };
    let mut defined = vec!["_meta"];
    if version == V2026 {
        defined.extend(["resultType", "ttlMs", "cacheScope"]);
        checker.cache_hints(result);
    }
    match name {
        LIST_SKILLS_RESULT => {
            defined.extend(["skills", "nextCursor"]);
            match result.get("skills") {
                Some(Value::Array(entries)) => {
                    for (index, entry) in entries.iter().enumerate() {
                        checker.entry(entry, &format!("$.skills[{index}]"));
                    }
                }
                other => checker.wrong("$.skills", "an array", other),
            }
            if let Some(cursor) = result.get("nextCursor").filter(|cursor| !cursor.is_string()) {
                checker.wrong("$.nextCursor", "a string", Some(cursor));
            }
        }
        GET_SKILL_RESULT => {
            defined.push("skill");
            match result.get("skill") {
                Some(entry) => checker.entry(entry, "$.skill"),
                None => checker.wrong("$.skill", "a skill entry", None),
            }
        }
        other => panic!("{other} is not a definition of the skills extension"),
    }
    checker.only(result, "$", &defined);
    if let Some(meta) = result.get("_meta").filter(|meta| !meta.is_object()) {
        checker.wrong("$._meta", "an object", Some(meta));
    }
    checker.problems
}

/// The problems found so far.
struct Checker<'a> {
    version: &'a str,
    problems: Vec<String>,
}

impl Checker<'_> {
    fn wrong(&mut self, path: &str, expected: &str, found: Option<&Value>) {
        let found = found.map_or_else(|| "nothing".to_owned(), Value::to_string);
        self.problems.push(format!("{path}: expected {expected}, found {found}"));
    }

    fn object<'v>(&mut self, value: &'v Value, path: &str) -> Option<&'v Map<String, Value>> {
        let object = value.as_object();
        if object.is_none() {
            self.wrong(path, "an object", Some(value));
        }
        object
    }

    /// Every key of `object` is one of `defined`.
    fn only(&mut self, object: &Map<String, Value>, path: &str, defined: &[&str]) {
        for key in object.keys().filter(|key| !defined.contains(&key.as_str())) {
            self.problems.push(format!("{path}.{key}: not defined by the skills extension in {}", self.version));
        }
    }

    fn string(&mut self, object: &Map<String, Value>, key: &str, path: &str) {
        if !object.get(key).is_some_and(Value::is_string) {
            self.wrong(&format!("{path}.{key}"), "a string", object.get(key));
        }
    }

    fn cache_hints(&mut self, result: &Map<String, Value>) {
        if !result.get("ttlMs").is_some_and(Value::is_u64) {
            self.wrong("$.ttlMs", "a non-negative integer", result.get("ttlMs"));
        }
        if !matches!(result.get("cacheScope").and_then(Value::as_str), Some("public" | "private")) {
            self.wrong("$.cacheScope", r#""public" or "private""#, result.get("cacheScope"));
        }
    }

    fn entry(&mut self, value: &Value, path: &str) {
        let Some(entry) = self.object(value, path) else { return };
        self.only(entry, path, &["uri", "frontmatter", "resources", "_meta"]);
        self.string(entry, "uri", path);
        let frontmatter_path = format!("{path}.frontmatter");
        if let Some(frontmatter) = entry.get("frontmatter").and_then(Value::as_object) {
            self.string(frontmatter, "name", &frontmatter_path);
            self.string(frontmatter, "description", &frontmatter_path);
        } else {
            self.wrong(&frontmatter_path, "an object", entry.get("frontmatter"));
        }
        match entry.get("resources") {
            Some(Value::String(dynamic)) if dynamic == "dynamic" => {}
            Some(Value::Array(resources)) => {
                for (index, resource) in resources.iter().enumerate() {
                    self.resource(resource, &format!("{path}.resources[{index}]"));
                }
            }
            other => self.wrong(&format!("{path}.resources"), r#"an array or "dynamic""#, other),
        }
    }

    fn resource(&mut self, value: &Value, path: &str) {
        let Some(resource) = self.object(value, path) else { return };
        self.only(resource, path, &["uri", "digest", "size"]);
        self.string(resource, "uri", path);
        let digest = resource.get("digest").and_then(Value::as_str);
        let hex = digest.and_then(|digest| digest.strip_prefix("sha256:"));
        if !hex.is_some_and(|hex| hex.len() == 64 && hex.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f')))
        {
            self.wrong(&format!("{path}.digest"), "sha256: and 64 lowercase hex digits", resource.get("digest"));
        }
        if !resource.get("size").is_some_and(Value::is_u64) {
            self.wrong(&format!("{path}.size"), "a non-negative integer", resource.get("size"));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn entry() -> Value {
        json!({
            "uri": "skill://a/SKILL.md",
            "frontmatter": {"name": "a", "description": "does a", "license": "MIT"},
            "resources": [{"uri": "skill://a/SKILL.md", "digest": format!("sha256:{}", "0f".repeat(32)), "size": 12}],
        })
    }

    #[test]
    fn a_listing_and_an_entry_of_either_era_pass() {
        let list = json!({"skills": [entry()], "nextCursor": "2"});
        assert_eq!(problems("2025-11-25", LIST_SKILLS_RESULT, &list), Vec::<String>::new());
        let modern = json!({"skills": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "public"});
        assert_eq!(problems(V2026, LIST_SKILLS_RESULT, &modern), Vec::<String>::new());
        let dynamic = json!({"skill": {"uri": "skill://a/SKILL.md", "frontmatter": {"name": "a", "description": "d"},
            "resources": "dynamic"}});
        assert_eq!(problems("2025-11-25", GET_SKILL_RESULT, &dynamic), Vec::<String>::new());
    }

    #[test]
    fn each_fault_is_named_by_its_path() {
        let mut bad = entry();
        bad["resources"][0]["digest"] = json!("sha256:ABC");
        bad["resources"][0].as_object_mut().unwrap().remove("size");
        bad["frontmatter"].as_object_mut().unwrap().remove("description");
        bad["extra"] = json!(1);
        let found = problems("2025-11-25", GET_SKILL_RESULT, &json!({"skill": bad, "ttlMs": 5}));
        let paths: Vec<&str> = found.iter().map(|problem| problem.split(':').next().unwrap()).collect();
        assert_eq!(
            paths,
            [
                "$.skill.extra",
                "$.skill.frontmatter.description",
                "$.skill.resources[0].digest",
                "$.skill.resources[0].size",
                "$.ttlMs"
            ],
            "{found:#?}"
        );
        let modern = problems(V2026, LIST_SKILLS_RESULT, &json!({"skills": {}, "resultType": "complete"}));
        assert_eq!(modern.len(), 3, "no ttlMs, no cacheScope, skills not an array: {modern:#?}");
    }
}
