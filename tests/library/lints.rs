//! The expansion of `#[tool]` and `#[toolbox]` is lint-clean: this file
//! denies warnings, `unused_qualifications` and clippy's pedantic and nursery
//! groups, so
//! `cargo test` and `cargo clippy --all-targets -- -D warnings` both fail if
//! the generated code trips a lint. It defines a representative set of tools
//! (sync and async, every kind of parameter and return value, a toolbox impl),
//! resources and prompts, and calls each of them.
//!
//! The other half: the user's own code in a tool stays under the user's lints.
//! [`user_code`] and [`user_method`] expect the pedantic lint their tool's
//! body trips; were the
//! expansion to put that body under an `allow` of its own, the lint would not
//! be emitted, and the unfulfilled expectation (a warning, denied here) fails
//! `cargo clippy` (rustc alone does not check clippy's expectations).

#![deny(warnings, unused_qualifications)]
#![deny(clippy::pedantic, clippy::nursery)]
#![allow(clippy::missing_const_for_fn, reason = "of the tool functions as written: they could be `const`")]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use codeagent::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A unit-only enum.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Unit {
    /// Celsius.
    C,
    /// Fahrenheit.
    F,
}

/// A nested struct.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

/// Shared state.
struct Config {
    greeting: String,
}

fn default_scale() -> f64 {
    1.0
}

/// Every kind of argument, sync.
#[tool(title = "Everything", read_only, idempotent = true, meta(kind = "lint"))]
fn everything(
    /// A number.
    count: u32,
    /// A string.
    label: String,
    /// An optional value.
    note: Option<String>,
    /// A list.
    items: Vec<i64>,
    /// An enum.
    unit: Unit,
    /// A struct.
    point: Point,
    /// A default from a function.
    #[serde(default = "default_scale")]
    scale: f64,
    /// A renamed, constrained argument.
    #[serde(rename = "top-n")]
    #[schemars(range(min = 1))]
    top: Option<u32>,
    ctx: &Context,
    config: State<Config>,
) -> Result<Json<Value>, ToolError> {
    ctx.debug("everything");
    if count == 0 {
        return Err(ToolError::new("`count` must be positive"));
    }
    let sum: i64 = items.into_iter().sum();
    Ok(Json(json!({
        "count": count,
        "label": format!("{} {label}", config.greeting),
        "note": note,
        "sum": sum,
        "unit": format!("{unit:?}"),
        "norm": point.x.hypot(point.y) * scale,
        "top": top,
    })))
}

/// Async, with the context by value and a unit return.
#[tool]
async fn notify(
    /// The message to log.
    message: String,
    ctx: Context,
) {
    tokio::task::yield_now().await;
    ctx.info(message);
}

/// Async, returning a typed output.
#[tool(destructive = false, open_world = false)]
async fn table(
    /// The points, one row each.
    rows: Vec<Point>,
) -> Result<Table, ToolError> {
    tokio::task::yield_now().await;
    Table::from_rows(&rows)
}

/// No parameters.
#[tool]
fn version() -> &'static str {
    "1"
}

/// A raw identifier.
#[tool]
fn r#type(
    /// The text to echo.
    r#type: String,
) -> String {
    r#type
}

/// A tool whose body trips a pedantic lint, which the module expects: the
/// user's code is linted as the user's, not as the macro's.
#[expect(clippy::cast_possible_truncation, reason = "the lint this test expects on the tool's body")]
mod user_code {
    use codeagent::prelude::*;

    /// The low byte of a number.
    #[tool]
    pub(super) fn low_byte(
        /// The number.
        value: u64,
    ) -> u8 {
        value as u8
    }
}

/// The same, in a toolbox method.
#[expect(clippy::cast_possible_truncation, reason = "the lint this test expects on the method's body")]
mod user_method {
    use codeagent::prelude::*;

    /// Takes a byte of a 16-bit number.
    pub(super) struct Bytes {
        /// How far to shift before truncating.
        pub(super) shift: u32,
    }

    #[toolbox]
    impl Bytes {
        /// A byte of a 16-bit number.
        #[tool]
        fn byte_of(
            &self,
            /// The number.
            value: u16,
        ) -> u8 {
            (value >> self.shift) as u8
        }
    }
}

/// A toolbox.
struct Counter {
    hits: AtomicU64,
}

#[toolbox]
impl Counter {
    /// Count a hit.
    #[tool]
    fn hit(
        &self,
        /// How many hits to count (default 1).
        by: Option<u64>,
    ) -> u64 {
        let by = by.unwrap_or(1);
        self.hits.fetch_add(by, Ordering::SeqCst) + by
    }

    /// Read the count.
    #[tool(read_only)]
    async fn read(&self, ctx: &Context) -> Text {
        ctx.debug("read");
        tokio::task::yield_now().await;
        Text::new(self.hits.load(Ordering::SeqCst).to_string())
    }
}

#[tokio::test]
async fn every_tool_is_listed_and_callable() {
    let toolbox = Toolbox::new()
        .tool(everything)
        .tool(notify)
        .tool(table)
        .tool(version)
        .tool(r#type)
        .tool(user_code::low_byte)
        .tool_set(user_method::Bytes { shift: 8 })
        .tool_set(Counter { hits: AtomicU64::new(0) })
        .with_state(Config { greeting: "Hello".to_owned() });
    assert_eq!(
        toolbox.tools().names(),
        ["everything", "notify", "table", "version", "type", "low_byte", "byte_of", "hit", "read"]
    );

    let arguments = json!({
        "count": 2, "label": "x", "items": [1, 2], "unit": "c", "point": {"x": 3.0, "y": 4.0}, "top-n": 3
    });
    let result = toolbox.tools().call("everything", arguments).await.unwrap();
    assert!(!result.is_error(), "{}", result.value());
    let value: Value = serde_json::from_str(result.value()).unwrap();
    assert_eq!(value["label"], "Hello x");
    assert_eq!(value["norm"], 5.0);
    assert_eq!(value["sum"], 3);

    let calls = [
        ("notify", json!({"message": "hi"}), ""),
        ("version", Value::Null, "1"),
        ("type", json!({"type": "t"}), "t"),
        ("hit", json!({"by": 2}), "2"),
        ("read", Value::Null, "2"),
        ("low_byte", json!({"value": 258}), "2"),
        ("byte_of", json!({"value": 513}), "2"),
    ];
    for (name, arguments, expected) in calls {
        let result = toolbox.tools().call(name, arguments).await.unwrap();
        assert_eq!((result.value(), result.is_error()), (expected, false), "{name}");
    }
    // (`let table = ...` would be a pattern: `table` is the tool's unit struct.)
    let rows = toolbox.tools().call("table", json!({"rows": [{"x": 1.0, "y": 2.0}]})).await.unwrap();
    assert_eq!(rows.artifact().unwrap().kind_name(), "table");
}

#[tokio::test]
async fn the_functions_stay_callable() {
    let counter = Arc::new(Counter { hits: AtomicU64::new(0) });
    assert_eq!(counter.hit(None), 1);
    assert_eq!(counter.read(&Context::detached()).await.as_str(), "1");
    assert_eq!(version(), "1");
    assert_eq!(r#type("a".to_owned()), "a");
    notify("direct".to_owned(), Context::detached()).await;
    assert!(table(vec![Point { x: 0.0, y: 0.0 }]).await.is_ok());
}

/// A fixed resource.
#[resource(uri = "file:///lint.txt", mime_type = "text/plain", size = 4)]
fn lint_notes() -> String {
    "lint".to_owned()
}

/// A template resource with a typed, an optional and an injected parameter.
#[resource(uri = "lint://{id}/page{?q}", title = "Page")]
async fn lint_page(id: u64, q: Option<String>, ctx: &Context) -> Result<String, std::fmt::Error> {
    ctx.debug("page");
    tokio::task::yield_now().await;
    Ok(format!("{id} {}", q.unwrap_or_default()))
}

fn lint_complete(typed: &str, _: &std::collections::BTreeMap<String, String>) -> Vec<String> {
    vec![typed.to_owned()]
}

/// A prompt with a required, an optional and a completed argument.
#[prompt(title = "Lint")]
fn lint_prompt(
    /// Required.
    path: String,
    /// Optional, completed.
    #[complete(lint_complete)]
    focus: Option<String>,
    ctx: &Context,
) -> String {
    ctx.debug("prompt");
    format!("{path} {}", focus.unwrap_or_default())
}

/// An async prompt.
#[prompt]
async fn lint_async_prompt(topic: String) -> Text {
    tokio::task::yield_now().await;
    Text::new(topic)
}

#[tokio::test]
async fn resources_and_prompts_expand_lint_clean() {
    let toolbox = Toolbox::new().resource(lint_notes).resource(lint_page).prompt(lint_prompt).prompt(lint_async_prompt);
    assert_eq!(toolbox.resources().read("file:///lint.txt").await.unwrap().len(), 1);
    assert_eq!(toolbox.resources().read("lint://3/page?q=x").await.unwrap().len(), 1);
    let messages = toolbox.prompts().get("lint_prompt", [("path", "a")]).await.unwrap();
    assert_eq!(messages[0].text(), Some("a "));
    assert_eq!(toolbox.prompts().get("lint_async_prompt", [("topic", "t")]).await.unwrap().len(), 1);
    assert_eq!(lint_notes(), "lint");
    assert_eq!(lint_prompt("p".to_owned(), None, &Context::detached()), "p ");
}
