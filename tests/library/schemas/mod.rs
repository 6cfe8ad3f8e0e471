//! Golden input and output schemas of `#[tool]` signatures, compared as
//! exact JSON: `Value` equality, and the serialised text too, so key order
//! (which `serde_json`'s `preserve_order` keeps) is part of the contract.
//!
//! When a schema changes on purpose, print the new one with
//! `serde_json::to_string_pretty` and read it before pasting it here.

mod arguments;
mod outputs;

use std::sync::atomic::{AtomicU64, Ordering};

use codeagent::ProtocolVersion;
use codeagent::prelude::*;
use codeagent::tools::Tool;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// Add two numbers.
///
/// The second paragraph stays in the description,
/// line breaks included.
#[tool]
fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> i64 {
    a + b
}

/// How to group.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Group {
    Region,
    Product,
}

/// Group rows.
#[tool]
fn group_by(
    /// What to group the rows by.
    group: Group,
) -> String {
    match group {
        Group::Region => "region".to_owned(),
        Group::Product => "product".to_owned(),
    }
}

/// A shape.
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Shape {
    /// A circle.
    Circle { radius: f64 },
    /// A rectangle.
    Rectangle { width: f64, height: f64 },
}

/// An externally tagged command.
#[allow(dead_code, reason = "only its schema matters")]
#[derive(Deserialize, JsonSchema)]
enum Command {
    Stop,
    Move(i32),
    Jump { height: u8 },
}

/// Measure a shape.
#[tool]
fn area(
    /// The shape to measure.
    shape: Shape,
    /// What to do with the result, if anything.
    command: Option<Command>,
) -> f64 {
    let _ = command;
    match shape {
        Shape::Circle { radius } => std::f64::consts::PI * radius * radius,
        Shape::Rectangle { width, height } => width * height,
    }
}

/// A point.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Point {
    /// Horizontal.
    x: f64,
    /// Vertical.
    y: f64,
}

/// A segment between two points.
#[derive(Deserialize, JsonSchema)]
struct Segment {
    from: Point,
    to: Point,
}

/// Length of a segment.
#[tool]
fn length(
    /// The segment to measure.
    segment: Segment,
) -> f64 {
    (segment.to.x - segment.from.x).hypot(segment.to.y - segment.from.y)
}

/// Optional and list arguments.
#[tool]
fn filter(
    /// The tags to keep.
    tags: Vec<String>,
    /// At most this many, if given.
    limit: Option<u32>,
    /// A pattern the tags must match, if given.
    pattern: Option<String>,
) -> usize {
    let _ = pattern;
    tags.len().min(limit.map_or(usize::MAX, |limit| limit as usize))
}

fn default_page_size() -> u32 {
    50
}

/// Defaults.
#[tool]
fn page(
    /// The page, from 0.
    #[serde(default)]
    page: u32,
    /// How many rows a page has.
    #[serde(default = "default_page_size")]
    size: u32,
    /// Newest first.
    #[serde(default)]
    reverse: bool,
) -> String {
    format!("{page} {size} {reverse}")
}

/// Search options, in camelCase on the wire.
#[allow(dead_code, reason = "only its schema matters")]
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SearchOptions {
    case_sensitive: bool,
    max_results: Option<u32>,
}

/// Renames.
#[tool]
fn search(
    /// The query.
    #[serde(rename = "q")]
    query: String,
    /// How to search.
    options: SearchOptions,
) -> String {
    let _ = options;
    query
}

/// Nothing to send.
#[tool]
fn now() -> u64 {
    0
}

struct Settings {
    prefix: String,
}

/// Context and state are injected, not arguments.
#[tool]
async fn log(
    /// What to log.
    message: String,
    ctx: &Context,
    settings: State<Settings>,
    owned: Context,
) -> String {
    ctx.info(message.clone());
    let _ = owned;
    format!("{}{message}", settings.prefix)
}

/// Injected parameters first: the arguments keep their order.
#[tool]
fn ordered(
    ctx: &Context,
    /// The first number.
    first: u8,
    /// The second number.
    second: u8,
    /// The third number.
    third: u8,
) -> u16 {
    ctx.debug("ordered");
    u16::from(first) + u16::from(second) + u16::from(third)
}

/// Constraints.
#[tool]
fn constrained(
    /// The level, 1 to 10.
    #[schemars(range(min = 1, max = 10))]
    level: u8,
    /// A short name, 1 to 3 characters.
    #[schemars(length(min = 1, max = 3))]
    name: String,
) -> String {
    format!("{level}{name}")
}

/// A summary.
#[derive(Serialize, JsonSchema)]
struct Summary {
    count: u32,
    mean: Option<f64>,
}

/// Json output.
#[tool]
fn summary(
    /// The numbers to summarise.
    values: Vec<f64>,
) -> Json<Summary> {
    let _ = values;
    Json(Summary { count: 0, mean: None })
}

/// Table output.
#[tool]
fn points() -> Table {
    Table::from_rows(&[Point { x: 1.0, y: 2.0 }]).unwrap()
}

/// Result of Json output.
#[tool]
async fn maybe_point(
    /// Whether to return a point or an error.
    ok: bool,
) -> Result<Json<Point>, ToolError> {
    if ok { Ok(Json(Point { x: 0.0, y: 0.0 })) } else { Err(ToolError::new("no point")) }
}

struct Counter {
    hits: AtomicU64,
}

#[toolbox]
impl Counter {
    /// Count hits.
    #[tool]
    fn hit(
        &self,
        /// How many.
        by: Option<u64>,
    ) -> u64 {
        self.hits.fetch_add(by.unwrap_or(1), Ordering::SeqCst)
    }

    /// Read the count.
    #[tool]
    async fn read(&self, ctx: &Context) -> u64 {
        let _ = ctx;
        self.hits.load(Ordering::SeqCst)
    }
}

/// The tools, with their schemas listed as schemars derives them (formats
/// such as `int64` included); [`published`] is the default form.
fn toolbox() -> Toolbox {
    published().with_schemars_formats(true)
}

/// The tools, listed as a toolbox lists them by default: only standard formats.
fn published() -> Toolbox {
    Toolbox::new()
        .tool(add)
        .tool(group_by)
        .tool(area)
        .tool(length)
        .tool(filter)
        .tool(page)
        .tool(search)
        .tool(now)
        .tool(log)
        .tool(ordered)
        .tool(constrained)
        .tool(summary)
        .tool(points)
        .tool(maybe_point)
        .tool_set(Counter { hits: AtomicU64::new(0) })
        .with_state(Settings { prefix: String::new() })
}

/// Asserts `actual == expected`, key order included.
#[track_caller]
fn assert_json(actual: &Value, expected: &Value) {
    assert_eq!(actual, expected);
    assert_eq!(
        serde_json::to_string_pretty(actual).unwrap(),
        serde_json::to_string_pretty(expected).unwrap(),
        "same JSON, different key order"
    );
}

#[track_caller]
fn assert_input(name: &str, expected: &Value) {
    let definition = toolbox().tools().definition(name).unwrap();
    assert_json(&definition.input_schema, expected);
}

#[track_caller]
fn assert_output(name: &str, expected: Option<&Value>) {
    let definition = toolbox().tools().definition(name).unwrap();
    match (definition.output_schema.as_ref(), expected) {
        (Some(actual), Some(expected)) => assert_json(actual, expected),
        (actual, expected) => assert_eq!(actual, expected, "{name}"),
    }
}
