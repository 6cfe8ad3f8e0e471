//! Golden snapshots of what clients receive, per protocol version.

use std::path::{Path, PathBuf};

use codeagent_core::client::Client;
use codeagent_core::mcp::ProtocolVersion;
use codeagent_core::server::{SERVER_INFO_KEY, Server};
use serde_json::{Map, Value};

use super::connect;

/// The environment variable that, set to `1`, writes snapshots instead of
/// comparing them.
pub const BLESS_VAR: &str = "CODEAGENT_BLESS";

/// Snapshots in a directory of your crate: one pretty-printed JSON file per
/// snapshot and protocol version, `NAME.VERSION.json`.
///
/// Each snapshot is what a client of that version receives, checked against
/// the version's official MCP schema before it is compared. A difference
/// fails with a unified diff; `CODEAGENT_BLESS=1` writes the new snapshot
/// instead (review it, and commit it). A missing snapshot fails, naming the
/// variable.
///
/// ```no_run
/// # async fn example(server: codeagent::Server) {
/// use codeagent::testing::Golden;
/// use serde_json::json;
///
/// let golden = Golden::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden"));
/// golden.listing("weather", &server).await;
/// golden.call("weather-oslo", &server, "forecast", json!({"city": "Oslo"})).await;
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Golden {
    dir: PathBuf,
    bless: bool,
}

impl Golden {
    /// Snapshots kept in `dir`, written instead of compared when
    /// [`BLESS_VAR`] is `1`.
    pub fn new(dir: impl Into<PathBuf>) -> Golden {
        let bless = std::env::var_os(BLESS_VAR).is_some_and(|bless| bless == "1");
        Golden { dir: dir.into(), bless }
    }

    /// Writes the snapshots instead of comparing them (or not), whatever
    /// [`BLESS_VAR`] says.
    #[must_use]
    pub fn with_bless(mut self, bless: bool) -> Golden {
        self.bless = bless;
        self
    }

    /// Snapshots what `server` lists in every protocol version: its tools,
    /// resources, resource templates and prompts (each listing it offers).
    #[track_caller]
    pub fn listing<'a>(&'a self, name: &'a str, server: &'a Server) -> impl Future<Output = ()> + 'a {
        let caller = std::panic::Location::caller();
        async move {
            for &version in ProtocolVersion::ALL {
                let client = connect(server, version).await;
                let mut snapshot = Map::new();
                for (method, key, definition) in LISTINGS {
                    if !offers(&client, method) {
                        continue;
                    }
                    let page = match client.request(method, Value::Null).await {
                        Ok(page) => page,
                        Err(error) => panic!("{caller}: {method} in {version}: {error}"),
                    };
                    check(version, definition, &page, caller);
                    snapshot.insert(key.to_owned(), page.get(key).cloned().unwrap_or(Value::Null));
                }
                self.compare(name, version, &Value::Object(snapshot), caller);
            }
        }
    }

    /// Snapshots the result of calling `tool` with `arguments` on `server`
    /// in every protocol version.
    #[track_caller]
    pub fn call<'a>(
        &'a self,
        name: &'a str,
        server: &'a Server,
        tool: &'a str,
        arguments: Value,
    ) -> impl Future<Output = ()> + 'a {
        let caller = std::panic::Location::caller();
        async move {
            for &version in ProtocolVersion::ALL {
                let client = connect(server, version).await;
                let output = match client.call(tool, arguments.clone()).await {
                    Ok(output) => output,
                    Err(error) => panic!("{caller}: calling `{tool}` in {version}: {error}"),
                };
                check(version, "CallToolResult", output.raw(), caller);
                self.compare(name, version, &without_identity(output.raw()), caller);
            }
        }
    }

    fn path(&self, name: &str, version: ProtocolVersion) -> PathBuf {
        self.dir.join(format!("{name}.{version}.json"))
    }

    fn compare(&self, name: &str, version: ProtocolVersion, value: &Value, caller: &std::panic::Location<'_>) {
        let path = self.path(name, version);
        let mut text = serde_json::to_string_pretty(value).expect("JSON values serialise");
        text.push('\n');
        if self.bless {
            write(&path, &text);
            return;
        }
        let Ok(expected) = std::fs::read_to_string(&path) else {
            panic!("{caller}: no snapshot at {}; run with {BLESS_VAR}=1 to write it", path.display());
        };
        if expected != text {
            let patch = diffy::create_patch(&expected, &text);
            panic!(
                "{caller}: the {version} snapshot `{name}` changed ({}); run with {BLESS_VAR}=1 to accept it:\n{patch}",
                path.display()
            );
        }
    }
}

/// Each listing a snapshot holds: its method, its key, its result's schema definition.
const LISTINGS: [(&str, &str, &str); 4] = [
    ("tools/list", "tools", "ListToolsResult"),
    ("resources/list", "resources", "ListResourcesResult"),
    ("resources/templates/list", "resourceTemplates", "ListResourceTemplatesResult"),
    ("prompts/list", "prompts", "ListPromptsResult"),
];

/// Whether the server offers listing `method`.
fn offers(client: &Client, method: &str) -> bool {
    let offered = client.server_capabilities();
    match method.split('/').next().unwrap_or_default() {
        "tools" => offered.tools.is_some(),
        "resources" => offered.resources.is_some(),
        "prompts" => offered.prompts.is_some(),
        _ => false,
    }
}

fn check(version: ProtocolVersion, definition: &str, value: &Value, caller: &std::panic::Location<'_>) {
    if let Err(report) = codeagent_test_support::check(version.as_str(), definition, value) {
        panic!("{caller}: not a valid {version} {definition}:\n{report}");
    }
}

/// `raw` without the server's identity, which every 2026-07-28 result carries.
fn without_identity(raw: &Value) -> Value {
    let mut raw = raw.clone();
    if let Some(object) = raw.as_object_mut() {
        let empty = object.get_mut("_meta").and_then(Value::as_object_mut).is_some_and(|meta| {
            meta.remove(SERVER_INFO_KEY);
            meta.is_empty()
        });
        if empty {
            object.remove("_meta");
        }
    }
    raw
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|error| panic!("creating {}: {error}", parent.display()));
    }
    std::fs::write(path, text).unwrap_or_else(|error| panic!("writing {}: {error}", path.display()));
    eprintln!("wrote {}", path.display());
}
