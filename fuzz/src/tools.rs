//! The fuzzing toolbox: tools over the argument shapes argument decoding and
//! constraint checking handle (scalars, narrow numbers, patterns, sets,
//! tagged and untagged enums, nested structs, maps), tools returning each
//! kind of output, tools that ask (elicitation, sampling, roots, a
//! checkpoint), a fixed resource, a resource template with a completer, and
//! a prompt. Nothing here sleeps or blocks: every call finishes at once or
//! waits on a question.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use codeagent::mcp::{CallToolResult, ContentBlock, InvalidContent};
use codeagent::prelude::*;
use codeagent::ask::{Elicitation, Sampling};
use codeagent::completion::Completer;
use codeagent::prompts::{PromptArgument, PromptMessage, PromptSpec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Add two integers.
#[tool(read_only, idempotent, inline)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a.wrapping_add(b)
}

/// Greet someone.
#[tool(title = "Greeting", read_only, inline)]
fn greet(
    /// Who to greet.
    #[schemars(length(min = 1, max = 64))]
    name: String,
) -> Text {
    Text::new(format!("Hello, {name}!")).with_title("Greeting")
}

/// A numeric code, a byte and a single-precision ratio.
#[tool(inline)]
fn narrow(
    /// Digits only.
    #[schemars(regex(pattern = r"^[0-9]+$"))]
    code: String,
    /// A byte.
    byte: u8,
    /// A ratio.
    #[schemars(range(min = 0.0, max = 1.0))]
    ratio: Option<f32>,
) -> String {
    format!("{code} {byte} {ratio:?}")
}

/// Sets of numbers and words.
#[tool(inline)]
fn sets(
    /// Distinct numbers.
    numbers: HashSet<u32>,
    /// Distinct words.
    #[schemars(length(max = 8))]
    words: BTreeSet<String>,
) -> usize {
    numbers.len() + words.len()
}

/// A meeting, in the string formats argument checking enforces.
#[tool(inline)]
fn meet(
    /// When (RFC 3339).
    #[schemars(extend("format" = "date-time"))]
    at: String,
    /// The daily time, with its offset.
    #[schemars(extend("format" = "time"))]
    daily: Option<String>,
    /// The first day.
    #[schemars(extend("format" = "date"))]
    day: Option<String>,
    /// The local time, without an offset.
    #[schemars(extend("format" = "partial-date-time"))]
    local: Option<String>,
    /// Its id.
    #[schemars(extend("format" = "uuid"))]
    id: Option<String>,
    /// Where.
    #[schemars(extend("format" = "ip"))]
    host: Option<String>,
    /// Who, as a pattern.
    #[schemars(extend("format" = "regex"))]
    who: Option<String>,
) -> String {
    format!("{at} {daily:?} {day:?} {local:?} {id:?} {host:?} {who:?}")
}

/// A shape, tagged by `kind`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Shape {
    /// A circle.
    Circle {
        /// Its radius.
        #[schemars(range(min = 0))]
        radius: f64,
    },
    /// A square.
    Square {
        /// Its side.
        #[schemars(range(min = 0))]
        side: f64,
    },
}

/// A limit, by count or by name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
enum Limit {
    /// At most this many.
    Count {
        /// How many.
        #[schemars(range(min = 1))]
        count: u32,
    },
    /// Up to the one named.
    Name {
        /// The name.
        #[schemars(length(min = 2))]
        name: String,
    },
}

/// A sales region.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Region {
    North,
    South,
}

/// One line of an order.
#[derive(Debug, Deserialize, JsonSchema)]
struct Line {
    /// What.
    product: String,
    /// How many.
    #[schemars(range(min = 1, max = 1000))]
    units: u32,
    /// Extra attributes.
    #[serde(default)]
    attributes: BTreeMap<String, i64>,
}

/// An order.
#[derive(Debug, Deserialize, JsonSchema)]
struct Order {
    /// Where.
    region: Region,
    /// The lines.
    #[schemars(length(min = 1, max = 16))]
    lines: Vec<Line>,
    /// A note.
    note: Option<String>,
    /// Express delivery.
    #[serde(default)]
    express: bool,
}

/// Draw a shape up to a limit.
#[tool(inline)]
fn draw(
    /// The shape to draw.
    shape: Shape,
    /// The largest area to draw, if any.
    limit: Option<Limit>,
) -> String {
    let area = match shape {
        Shape::Circle { radius } => 3.0 * radius * radius,
        Shape::Square { side } => side * side,
    };
    let limit = match limit {
        None => "none".to_owned(),
        Some(Limit::Count { count }) => count.to_string(),
        Some(Limit::Name { name }) => name,
    };
    format!("{area} {limit}")
}

/// Place an order.
#[tool(inline)]
fn order(
    /// The order.
    order: Order,
    /// A tag for each line.
    tags: Option<Vec<Option<String>>>,
) -> Result<Table, ToolError> {
    #[derive(Serialize)]
    struct Row<'a> {
        region: Region,
        product: &'a str,
        units: u32,
        attributes: usize,
        express: bool,
        tag: Option<&'a str>,
    }
    let tags = tags.unwrap_or_default();
    let rows: Vec<Row<'_>> = order
        .lines
        .iter()
        .enumerate()
        .map(|(index, line)| Row {
            region: order.region,
            product: &line.product,
            units: line.units,
            attributes: line.attributes.len(),
            express: order.express,
            tag: tags.get(index).and_then(Option::as_deref),
        })
        .collect();
    Ok(Table::from_rows(&rows)?.with_title(order.note.clone().unwrap_or_default()))
}

/// A region's statistics.
#[derive(Serialize, JsonSchema)]
struct Stats {
    /// The region.
    region: Region,
    /// Units.
    units: u32,
}

/// Structured output.
#[tool(read_only, inline)]
fn stats(
    /// The region to report on.
    region: Region,
) -> Json<Stats> {
    Json(Stats { region, units: 7 })
}

/// Code, a diff and an error, by `kind`.
#[tool(inline)]
fn show(
    /// `code`, `diff` or anything else for an error.
    kind: String,
    /// The text shown.
    text: String,
) -> Result<Output, ToolError> {
    match kind.as_str() {
        "code" => Ok(Code::new(text).with_lang("rust").into()),
        "diff" => Ok(Diff::new("a\n", text).with_path("a.txt").into()),
        _ => Err(ToolError::new(text).with_detail(kind)),
    }
}

/// A text block and a link to a resource.
#[tool(inline)]
fn link(
    /// The region.
    region: Region,
) -> Result<CallToolResult, InvalidContent> {
    let uri = format!("fuzz://regions/{}", if region == Region::North { "north" } else { "south" });
    CallToolResult::from_content([
        ContentBlock::text(format!("See {uri}.")),
        ContentBlock::resource_link(&uri, "report")?.with_mime_type("application/json").into(),
    ])
}

/// The answer to a confirmation.
#[derive(Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Go ahead?
    ok: bool,
    /// Why.
    reason: Option<String>,
}

/// Ask the person to confirm, after a checkpoint.
#[tool]
async fn confirm(
    ctx: &Context,
    /// What to ask the person to confirm.
    what: Option<String>,
) -> Result<String, ToolError> {
    let first: u32 = ctx.checkpoint("first", async { 41 }).await;
    let question = format!("Go ahead with {}?", what.unwrap_or_default());
    Ok(match ctx.elicit::<Confirm>(question).await? {
        Elicitation::Accepted(Confirm { ok, reason }) => format!("{first} ok: {ok} {reason:?}"),
        Elicitation::Declined => "declined".to_owned(),
        Elicitation::Cancelled => "cancelled".to_owned(),
    })
}

/// Ask the model, then the roots.
#[tool]
async fn model_and_roots(ctx: &Context) -> Result<String, ToolError> {
    let answer = ctx.sample(Sampling::new(10).with_system_prompt("Be brief.").user("Hi?")).await?;
    let roots = ctx.roots().await?;
    Ok(format!("{} from {}; roots: {}", answer.text().unwrap_or("?"), answer.model, roots.len()))
}

/// Needs sampling.
#[tool(requires = ["sampling"], inline)]
fn sampler() -> String {
    "allowed".to_owned()
}

/// The region named `name`.
fn parse_region(name: &str) -> Result<Region, String> {
    serde_json::from_value(serde_json::Value::from(name)).map_err(|_| format!("`{name}` is not a region"))
}

/// The fuzzing toolbox.
pub fn toolbox() -> Toolbox {
    let readme = ResourceSpec::fixed("fuzz://readme", "readme")
        .unwrap_or_else(|error| panic!("a fixed resource: {error}"))
        .with_mime_type("text/markdown")
        .serve(|_| async { Text::new("# readme") });
    let regions = ResourceSpec::template("fuzz://regions/{region}{?units}", "region")
        .unwrap_or_else(|error| panic!("a resource template: {error}"))
        .with_mime_type("application/json")
        .with_completer("region", Completer::from_values(["north", "south"]))
        .serve(|read| async move {
            let region = parse_region(read.variable("region").unwrap_or_default())?;
            let units = read.variable("units").unwrap_or("7").to_owned();
            serde_json::to_string(&(region, units)).map_err(|error| error.to_string())
        });
    let files = ResourceSpec::template("file:///{+path}", "file")
        .unwrap_or_else(|error| panic!("a resource template: {error}"))
        .serve(|read| async move { Text::new(read.variable("path").unwrap_or_default().to_owned()) });
    let explain = PromptSpec::new("explain")
        .with_description("Explain a region.")
        .with_argument(PromptArgument::required("region").with_completer(Completer::from_values(["north", "south"])))
        .with_argument(PromptArgument::optional("style"))
        .serve(|get| async move {
            let region = parse_region(get.argument("region").unwrap_or_default())?;
            Ok::<_, String>(vec![
                PromptMessage::user(format!("Explain {region:?}.")),
                PromptMessage::user(get.argument("style").unwrap_or("briefly").to_owned()),
            ])
        });
    Toolbox::new()
        .tool(add)
        .tool(greet)
        .tool(narrow)
        .tool(sets)
        .tool(meet)
        .tool(draw)
        .tool(order)
        .tool(stats)
        .tool(show)
        .tool(link)
        .tool(confirm)
        .tool(model_and_roots)
        .tool(sampler)
        .resource(readme)
        .resource(regions)
        .resource(files)
        .prompt(explain)
}
