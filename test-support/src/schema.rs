//! The official MCP schemas, compiled once per version, and validation of a
//! JSON value against one named definition inside them.
//!
//! Each `schema.json` is one big document of definitions (`definitions` in the
//! draft-07 files 2024-11-05 to 2025-06-18, `$defs` in the 2020-12 files
//! 2025-11-25 and 2026-07-28). It is compiled once per version into a
//! [`jsonschema::ValidatorMap`] (every reachable subschema, keyed by its JSON
//! pointer), with the draft named explicitly, `format` asserted (`uri`, and
//! `byte` checked as standard base64), and the validator for
//! `#/<container>/<Name>` is looked up per call.

use std::sync::OnceLock;

use base64::Engine as _;
use jsonschema::{Draft, ValidatorMap};
use serde_json::Value;

use crate::{VERSIONS, mcp_root};

/// One version's schema document, its draft and its compiled validators.
pub struct VersionSchema {
    /// The version, such as `"2025-06-18"`.
    pub version: &'static str,
    /// The whole `schema.json`.
    pub document: Value,
    /// `definitions` (draft-07) or `$defs` (2020-12).
    pub container: &'static str,
    /// The dialect the file declares.
    pub draft: Draft,
    validators: ValidatorMap,
}

impl VersionSchema {
    fn load(version: &'static str) -> VersionSchema {
        VersionSchema::load_file(version, mcp_root().join("schema").join(version).join("schema.json"))
    }

    fn load_file(version: &'static str, path: std::path::PathBuf) -> VersionSchema {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
        let document: Value =
            serde_json::from_str(&text).unwrap_or_else(|error| panic!("parsing {}: {error}", path.display()));
        let dialect = document["$schema"].as_str().unwrap_or_default();
        let (draft, container) = if dialect.contains("draft-07") {
            (Draft::Draft7, "definitions")
        } else if dialect.contains("2020-12") {
            (Draft::Draft202012, "$defs")
        } else {
            panic!("{}: unexpected $schema {dialect:?}", path.display())
        };
        assert!(document.get(container).is_some_and(Value::is_object), "{}: no `{container}`", path.display());
        let validators = jsonschema::options()
            .with_draft(draft)
            .should_validate_formats(true)
            .with_format("byte", |text: &str| base64::engine::general_purpose::STANDARD.decode(text).is_ok())
            .build_map(&document)
            .unwrap_or_else(|error| panic!("compiling {}: {error}", path.display()));
        VersionSchema { version, document, container, draft, validators }
    }

    /// The definitions object.
    pub fn definitions(&self) -> &serde_json::Map<String, Value> {
        self.document[self.container].as_object().expect("definitions object")
    }

    /// The definition called `name`, if this version has it.
    pub fn definition(&self, name: &str) -> Option<&Value> {
        self.definitions().get(name)
    }

    /// The JSON pointer (URI fragment) of a schema location, e.g.
    /// `#/$defs/CallToolResult`.
    pub fn pointer(&self, name: &str) -> String {
        format!("#/{}/{}", self.container, name)
    }

    /// Resolves a local `$ref` such as `#/$defs/Tool` to its schema.
    pub fn resolve_ref(&self, reference: &str) -> Option<&Value> {
        let pointer = reference.strip_prefix('#')?;
        self.document.pointer(pointer)
    }

    /// The location of a pseudo-definition: `ContentBlock` does not exist
    /// before 2025-06-18, where the content items of `CallToolResult` are an
    /// inline `anyOf` of the block types; that inline schema stands in for it.
    pub fn location(&self, name: &str) -> String {
        if name == "ContentBlock" && self.definition("ContentBlock").is_none() {
            format!("#/{}/CallToolResult/properties/content/items", self.container)
        } else {
            self.pointer(name)
        }
    }

    /// The schema at [`location`](Self::location).
    pub fn schema_at(&self, name: &str) -> Option<&Value> {
        self.resolve_ref(&self.location(name))
    }

    /// Validates `value` against the definition `name` (see [`location`](Self::location)),
    /// returning every schema error.
    pub fn validate(&self, name: &str, value: &Value) -> Result<(), Vec<String>> {
        self.validate_at(&self.location(name), value)
    }

    /// Validates `value` against the compiled subschema at `pointer`.
    pub fn validate_at(&self, pointer: &str, value: &Value) -> Result<(), Vec<String>> {
        let validator =
            self.validators.get(pointer).unwrap_or_else(|| panic!("{}: no compiled schema at {pointer}", self.version));
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|error| format!("{} at {}: {error}", pointer, error.instance_path()))
            .collect();
        if errors.is_empty() { Ok(()) } else { Err(errors) }
    }

    /// Whether `pointer` was compiled (a definition or reachable subschema).
    pub fn has_location(&self, pointer: &str) -> bool {
        self.validators.contains_key(pointer)
    }
}

/// The compiled schema of `version` (one of [`VERSIONS`]): loaded and
/// compiled on first use, once. Panics on an unknown version.
pub fn schema(version: &str) -> &'static VersionSchema {
    static CACHE: [OnceLock<VersionSchema>; 5] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let index = VERSIONS
        .iter()
        .position(|candidate| *candidate == version)
        .unwrap_or_else(|| panic!("no vendored schema for version {version:?}"));
    CACHE[index].get_or_init(|| VersionSchema::load(VERSIONS[index]))
}

/// The name [`tasks_schema`] goes by in messages.
pub const TASKS_EXTENSION_SCHEMA: &str = "ext-tasks";

/// The compiled schema of the tasks extension (`io.modelcontextprotocol/tasks`,
/// vendored in `mcp/ext-tasks/`): `CreateTaskResult`, `GetTaskResult`,
/// `TaskStatusNotification` and the rest, loaded once.
pub fn tasks_schema() -> &'static VersionSchema {
    static TASKS: OnceLock<VersionSchema> = OnceLock::new();
    TASKS.get_or_init(|| {
        VersionSchema::load_file(TASKS_EXTENSION_SCHEMA, mcp_root().join("ext-tasks").join("schema.json"))
    })
}

/// Validates `value` against definition `name` of `version`'s schema.
pub fn validate(version: &str, name: &str, value: &Value) -> Result<(), Vec<String>> {
    schema(version).validate(name, value)
}
