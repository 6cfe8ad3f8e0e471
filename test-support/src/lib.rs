//! Test helpers of the codeagent workspace.
//!
//! - the official MCP schemas of every protocol version and the official
//!   2026-07-28 examples, vendored in `test-support/mcp/` (see its
//!   `ORIGIN.md` and `LICENSE`) and found relative to this crate, so a fresh
//!   clone needs nothing beside it;
//! - [`schema`]: each version's `schema.json` compiled once, and validation of
//!   a value against one named definition;
//! - [`keys`]: the "every key is defined by that version" checker;
//! - [`check`] / [`assert_valid`]: both at once;
//! - [`wire`]: whole JSON-RPC responses, errors and notifications of an era;
//! - [`skills`]: the skills extension's results, which no core schema defines;
//! - [`html`]: the safety check of a rendered HTML card.
//!
//! The crate does not depend on `codeagent` or `codeagent-core` (both use it
//! as a dev-dependency): protocol versions are their strings, such as
//! `"2025-06-18"` (they are dates, so they compare in order as strings).

/// The JSON Schema validator the checks use, for tests that compile schemas
/// of their own (such as a tool's `inputSchema`).
pub use jsonschema;

pub mod html;
pub mod keys;
pub mod schema;
pub mod skills;
pub mod wire;

use std::path::PathBuf;

use serde_json::Value;

/// Every protocol version whose schema is vendored, oldest first.
pub const VERSIONS: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

/// The folder of the vendored MCP files, `test-support/mcp/` of this
/// repository, or `MCP_SCHEMA_ROOT` when that is set (to try other copies).
///
/// The repository is found from the `CARGO_MANIFEST_DIR` that `cargo test`
/// sets for the running test (its package is this crate or a sibling), and
/// only failing that from this crate's own, compiled-in manifest directory:
/// two checkouts sharing one `target/` (as `.ci/run` does) may reuse a build
/// of this crate made in the other checkout, whose compiled-in path is stale.
pub fn mcp_root() -> PathBuf {
    if let Some(root) = std::env::var_os("MCP_SCHEMA_ROOT") {
        return PathBuf::from(root);
    }
    let vendored = |dir: &std::path::Path| dir.join("test-support").join("mcp");
    if let Some(running) = std::env::var_os("CARGO_MANIFEST_DIR") {
        let running = PathBuf::from(running);
        if let Some(found) = running.ancestors().map(vendored).find(|candidate| candidate.join("ORIGIN.md").is_file()) {
            return found;
        }
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp")
}

/// The folder of the official examples of `version` (only 2026-07-28 has them).
pub fn examples_dir(version: &str) -> PathBuf {
    mcp_root().join("examples").join(version)
}

/// Validates `value` against definition `name` of `version`'s official schema
/// (or of the skills extension, see [`skills`]) and checks that every key in
/// it is defined by that version. The error lists every problem and shows the
/// value.
pub fn check(version: &str, name: &str, value: &Value) -> Result<(), String> {
    let problems = if skills::defines(name) {
        skills::problems(version, name, value)
    } else {
        let compiled = schema::schema(version);
        let mut problems = compiled.validate(name, value).err().unwrap_or_default();
        problems.extend(keys::undefined_keys(compiled, name, value));
        problems
    };
    if problems.is_empty() {
        Ok(())
    } else {
        let mut shown = value.to_string();
        if shown.len() > 1500 {
            let cut = (0..=1500).rev().find(|index| shown.is_char_boundary(*index)).unwrap_or(0);
            shown.truncate(cut);
            shown.push_str("...");
        }
        Err(format!("{version} {name}:\n  {}\nvalue: {shown}", problems.join("\n  ")))
    }
}

/// [`check`], panicking with its report.
#[track_caller]
pub fn assert_valid(version: &str, name: &str, value: &Value) {
    if let Err(report) = check(version, name, value) {
        panic!("{report}");
    }
}

/// Schema validation only, without the key check (for JSON-RPC envelopes,
/// whose `result` is the open `Result` definition); panics with every problem.
#[track_caller]
pub fn assert_schema(version: &str, name: &str, value: &Value) {
    if let Err(problems) = schema::validate(version, name, value) {
        panic!("{version} {name}:\n  {}\nvalue: {value}", problems.join("\n  "));
    }
}

/// `text` in standard base64 (with padding), as MCP's `=?base64?...?=`
/// header values and `byte` fields carry it.
pub fn base64_encode(text: impl AsRef<[u8]>) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendored_files_are_found_beside_the_crate() {
        for version in VERSIONS {
            let path = mcp_root().join("schema").join(version).join("schema.json");
            assert!(path.is_file(), "{}", path.display());
        }
        assert!(examples_dir("2026-07-28").join("CallToolResult").is_dir());
        assert!(mcp_root().join("LICENSE").is_file());
    }

    #[test]
    fn check_reports_an_undefined_key_and_a_schema_error() {
        let tool = serde_json::json!({"name": "t", "title": "T", "inputSchema": {"type": "object"}});
        assert!(check("2025-06-18", "Tool", &tool).is_ok());
        let report = check("2024-11-05", "Tool", &tool).unwrap_err();
        assert!(report.contains("$.title"), "{report}");
        let report = check("2025-06-18", "Tool", &serde_json::json!({"name": 1})).unwrap_err();
        assert!(report.contains("Tool"), "{report}");
    }
}
