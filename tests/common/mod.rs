//! The harness of the server tests, shared by every test file with
//! `mod common;`: the test tools ([`tools`]), a stdio client ([`stdio`]), an
//! HTTP client ([`http`]), the transport-neutral client of the behaviour
//! suite ([`client`]) and the fixture's skills as they are on disk
//! ([`skills`]). Every message a client reads is validated against the
//! official schema of its era (`codeagent_test_support::wire`, which also
//! explains the one tolerance: an error with `"id": null`).
//!
//! Every wait has a timeout ([`WAIT`] per message, [`TEST_LIMIT`] per test
//! with [`bounded`]), so a hang fails instead of hanging CI.

// Each test file uses part of the harness.
#![allow(dead_code, unreachable_pub)]

pub mod checks;
pub mod client;
pub mod http;
pub mod skills;
pub mod stdio;
pub mod tools;

use std::future::Future;
use std::time::Duration;

use codeagent::ProtocolVersion;
use codeagent_test_support::wire;
use serde_json::Value;

pub const V2024: ProtocolVersion = ProtocolVersion::V2024_11_05;
pub const V2025_03: ProtocolVersion = ProtocolVersion::V2025_03_26;
pub const V2025_06: ProtocolVersion = ProtocolVersion::V2025_06_18;
pub const V2025_11: ProtocolVersion = ProtocolVersion::V2025_11_25;
pub const V2026: ProtocolVersion = ProtocolVersion::V2026_07_28;
pub const LEGACY: [ProtocolVersion; 4] = [V2024, V2025_03, V2025_06, V2025_11];

/// How long a test waits for a message, an event or a body it expects.
pub const WAIT: Duration = Duration::from_secs(10);
/// How long a test listens to make sure nothing (more) arrives.
pub const QUIET: Duration = Duration::from_millis(400);
/// How long a whole test may take.
pub const TEST_LIMIT: Duration = Duration::from_secs(60);

pub const PARSE_ERROR: i64 = -32700;
pub const INVALID_REQUEST: i64 = -32600;
pub const METHOD_NOT_FOUND: i64 = -32601;
pub const INVALID_PARAMS: i64 = -32602;
pub const INTERNAL_ERROR: i64 = -32603;
pub const HEADER_MISMATCH: i64 = -32020;
pub const UNSUPPORTED_VERSION: i64 = -32022;

/// For each `case` (an `async fn(Transport)` in scope), a module `case` with
/// the tests `stdio` and `http`, each bounded by [`TEST_LIMIT`]. A binary
/// that runs cases over both transports declares `#[macro_use] mod common;`.
#[allow(unused_macros)]
macro_rules! over_both {
    ($($case:ident),* $(,)?) => {
        $(
            mod $case {
                use crate::common::client::Transport;

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn stdio() {
                    crate::common::bounded(super::$case(Transport::Stdio)).await;
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn http() {
                    crate::common::bounded(super::$case(Transport::Http)).await;
                }
            }
        )*
    };
}

/// Fails the test when `test` takes longer than [`TEST_LIMIT`].
pub async fn bounded(test: impl Future<Output = ()>) {
    bounded_by(TEST_LIMIT, test).await;
}

/// Fails the test when `test` takes longer than `limit`.
pub async fn bounded_by(limit: Duration, test: impl Future<Output = ()>) {
    if tokio::time::timeout(limit, test).await.is_err() {
        panic!("the test took longer than {limit:?}");
    }
}

/// Schema validation only (no key check): for JSON-RPC envelopes.
#[track_caller]
pub fn assert_schema(version: ProtocolVersion, name: &str, value: &Value) {
    codeagent_test_support::assert_schema(version.as_str(), name, value);
}

/// See [`wire::without_null_id`].
pub fn without_null_id(version: ProtocolVersion, message: &Value) -> Value {
    wire::without_null_id(version.as_str(), message)
}

/// See [`wire::check_error`].
#[track_caller]
pub fn check_error(version: ProtocolVersion, message: &Value) -> i64 {
    wire::check_error(version.as_str(), message)
}

/// See [`wire::check_notification`].
#[track_caller]
pub fn check_notification(version: ProtocolVersion, message: &Value) {
    wire::check_notification(version.as_str(), message);
}
