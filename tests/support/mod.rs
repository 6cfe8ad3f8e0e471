//! Shared helpers for the MCP wire tests: the official schemas compiled once
//! per version ([`schema`]) and the "every key is defined by that version"
//! checker ([`keys`]).

#![allow(dead_code, unreachable_pub)]

pub mod keys;
pub mod schema;

use codeagent::ProtocolVersion;
use serde_json::Value;

/// Validates `value` against definition `name` of `version`'s official schema
/// and checks that every key in it is defined by that version. The error
/// lists every problem and shows the value.
pub fn check(version: ProtocolVersion, name: &str, value: &Value) -> Result<(), String> {
    let compiled = schema::schema(version);
    let mut problems = compiled.validate(name, value).err().unwrap_or_default();
    problems.extend(keys::undefined_keys(compiled, name, value));
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
pub fn assert_valid(version: ProtocolVersion, name: &str, value: &Value) {
    if let Err(report) = check(version, name, value) {
        panic!("{report}");
    }
}
