//! A gallery of codeagent tools served over MCP: one tool per kind of output,
//! plus progress and cancellation; resources (a text, a PNG, a template), a
//! prompt, a tool that links to one of the resources, tools that ask you or
//! the client's model (`gallery/asking.rs`), and a report that takes seconds,
//! served as a task to clients that poll tasks (`gallery/report.rs`).
//!
//! ```sh
//! cargo run --example gallery                   # serve MCP on stdio
//! cargo run --example gallery -- --list         # print the tools/list result
//! cargo run --example gallery -- --call add '{"a": 2, "b": 3}'
//! ```

use std::time::Duration;

use codeagent::Server;
use codeagent::completion::Completer;
use codeagent::mcp::{CallToolResult, ContentBlock, InvalidContent};
use codeagent::prelude::*;
use codeagent::prompts::{PromptArgument, PromptMessage, PromptSpec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[path = "gallery/asking.rs"]
mod asking;
#[path = "gallery/png.rs"]
mod png;
#[path = "gallery/report.rs"]
mod report;

// `inline`: the body is quick and never blocks, so it runs on the async worker
// instead of the blocking pool that sync tools use by default.
/// Add two integers.
#[tool(read_only, idempotent, open_world = false, inline)]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Greet someone by name, as plain text.
#[tool(title = "Greeting", read_only)]
fn greet(
    /// Who to greet.
    name: String,
) -> Text {
    Text::new(format!("Hello, {name}!")).with_title("Greeting")
}

/// A sales region.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Region {
    North,
    South,
    East,
    West,
}

impl Region {
    /// The region's name.
    fn name(self) -> &'static str {
        REGION_NAMES[self as usize]
    }
}

/// The sales records, less those of regions deleted with `delete_region`.
fn sales() -> impl Iterator<Item = &'static Sale> {
    let deleted = asking::DELETED.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    SALES.iter().filter(move |sale| !deleted.contains(&sale.region))
}

#[derive(Serialize)]
struct Sale {
    region: Region,
    product: &'static str,
    units: u32,
    revenue: f64,
}

const SALES: [Sale; 6] = [
    Sale { region: Region::North, product: "kettle", units: 120, revenue: 3600.0 },
    Sale { region: Region::North, product: "toaster", units: 80, revenue: 2000.0 },
    Sale { region: Region::South, product: "kettle", units: 95, revenue: 2850.0 },
    Sale { region: Region::East, product: "blender", units: 40, revenue: 2400.0 },
    Sale { region: Region::West, product: "toaster", units: 150, revenue: 3750.0 },
    Sale { region: Region::West, product: "kettle", units: 60, revenue: 1800.0 },
];

/// List sales records as a table, optionally for one region.
///
/// The model sees a bounded Markdown table; hosts get the full table.
#[tool(title = "Sales table", read_only)]
fn sales_table(
    /// Only this region; all regions when absent.
    region: Option<Region>,
) -> Result<Table, ToolError> {
    let rows: Vec<&Sale> = sales().filter(|sale| region.is_none_or(|region| sale.region == region)).collect();
    Ok(Table::from_rows(&rows)?.with_title("Sales").with_icon("table"))
}

/// One day's sales in one region.
#[derive(Serialize)]
struct DailySale {
    day: u32,
    region: Region,
    units: u32,
    revenue: f64,
}

/// List the daily sales history as a large table (`rows` rows, made up).
///
/// The model sees the first 20 rows and how many there are; hosts that
/// render results get every row.
#[tool(title = "Sales history", read_only)]
fn sales_history(
    /// How many rows (1 to 100000).
    #[schemars(range(min = 1, max = 100_000))]
    rows: u32,
) -> Result<Table, ToolError> {
    let regions = [Region::North, Region::South, Region::East, Region::West];
    let history: Vec<DailySale> = (0..rows)
        .map(|row| {
            let units = 40 + (row * 37) % 120;
            DailySale { day: row / 4 + 1, region: regions[(row % 4) as usize], units, revenue: f64::from(units) * 25.5 }
        })
        .collect();
    Ok(Table::from_rows(&history)?.with_title("Sales history"))
}

/// Draw a bar chart of revenue per region as a PNG image.
#[tool(title = "Revenue chart", read_only)]
fn revenue_chart() -> Result<Image, ToolError> {
    let mut totals = [0.0_f64; 4];
    for sale in sales() {
        totals[sale.region as usize] += sale.revenue;
    }
    let bytes = png::bar_chart(&totals, 160, 100);
    Ok(Image::from_bytes(bytes, "image/png")?
        .with_output("Revenue per region: north, south, east, west (left to right).")
        .with_title("Revenue by region"))
}

/// Show a Rust function that adds two numbers.
#[tool(read_only)]
fn show_code() -> Code {
    Code::new("fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n")
        .with_lang("rust")
        .with_filename("src/add.rs")
        .with_output("add(2, 3) == 5")
}

/// Show the change that renames a function.
#[tool(read_only)]
fn show_diff() -> Diff {
    let old = "fn sum(a: i64, b: i64) -> i64 {\n    a + b\n}\n";
    let new = "fn add(a: i64, b: i64) -> i64 {\n    a + b\n}\n";
    Diff::new(old, new).with_path("src/add.rs")
}

/// Divide two numbers; dividing by zero is a tool error the model can read.
#[tool(read_only)]
fn divide(
    /// The dividend.
    numerator: f64,
    /// The divisor; must not be zero.
    denominator: f64,
) -> Result<f64, ToolError> {
    if denominator == 0.0 {
        return Err(ToolError::new("cannot divide by zero").with_detail("pass a non-zero `denominator`"));
    }
    Ok(numerator / denominator)
}

/// Revenue statistics for a region.
#[derive(Serialize, JsonSchema)]
struct RegionStats {
    /// The region.
    region: Region,
    /// Units sold.
    units: u32,
    /// Revenue in euros.
    revenue: f64,
}

/// Structured statistics for one region.
#[tool(title = "Region statistics", read_only)]
fn region_stats(
    /// The region to summarise.
    region: Region,
) -> Json<RegionStats> {
    let sales = sales().filter(|sale| sale.region == region);
    let (units, revenue) = sales.fold((0, 0.0), |(units, revenue), sale| (units + sale.units, revenue + sale.revenue));
    Json(RegionStats { region, units, revenue })
}

/// Count to `steps`, reporting progress after each step.
#[tool]
async fn count_with_progress(
    /// How many steps (1 to 100).
    #[schemars(range(min = 1, max = 100))]
    steps: u32,
    ctx: &Context,
) -> String {
    for step in 1..=steps {
        tokio::time::sleep(Duration::from_millis(10)).await;
        ctx.progress(f64::from(step), Some(f64::from(steps)), Some(&format!("step {step} of {steps}")));
    }
    ctx.info(format!("counted to {steps}"));
    format!("Counted to {steps}.")
}

/// Wait for `seconds`, or until the client cancels.
#[tool]
async fn slow(
    /// How long to wait (at most 600 seconds).
    #[schemars(range(min = 0.0, max = 600.0))]
    seconds: f64,
    ctx: &Context,
) -> Result<String, ToolError> {
    tokio::select! {
        () = tokio::time::sleep(Duration::from_secs_f64(seconds)) => Ok(format!("Waited {seconds} seconds.")),
        () = ctx.cancelled() => Err(ToolError::new("cancelled")),
    }
}

/// A link to the resource holding one region's statistics, which this server
/// serves: the client reads it with `resources/read`.
#[tool(title = "Region report", read_only)]
fn region_report(
    /// The region to report on.
    region: Region,
) -> Result<CallToolResult, InvalidContent> {
    let name = serde_json::to_value(region).ok().and_then(|name| name.as_str().map(str::to_owned)).unwrap_or_default();
    let uri = format!("gallery://regions/{name}");
    CallToolResult::from_content([
        ContentBlock::text(format!("The {name} report is the resource {uri}.")),
        ContentBlock::resource_link(&uri, format!("{name} report"))?.with_mime_type("application/json").into(),
    ])
}

/// The region named `name`, as the template variable gives it.
fn parse_region(name: &str) -> Result<Region, String> {
    serde_json::from_value(serde_json::Value::from(name))
        .map_err(|_| format!("`{name}` is not a region: try north, south, east or west"))
}

/// The region names, for completion.
const REGION_NAMES: [&str; 4] = ["north", "south", "east", "west"];

/// The resources: a README, the revenue chart as a PNG, and a template for
/// each region's statistics as JSON.
fn resources(toolbox: Toolbox) -> Toolbox {
    let readme = ResourceSpec::fixed("gallery://readme", "readme")
        .expect("a valid URI")
        .with_title("About the gallery")
        .with_mime_type("text/markdown")
        .serve(|_| async { Text::new(README) });
    let chart = ResourceSpec::fixed("gallery://charts/revenue.png", "revenue-chart")
        .expect("a valid URI")
        .with_title("Revenue chart")
        .serve(|_| async { revenue_chart() });
    let regions = ResourceSpec::template("gallery://regions/{region}", "region")
        .expect("a valid URI template")
        .with_title("Region statistics")
        .with_description("Units and revenue of one region, as JSON.")
        .with_mime_type("application/json")
        .with_completer("region", Completer::from_values(REGION_NAMES))
        .serve(|read| async move {
            let region = parse_region(read.variable("region").unwrap_or_default())?;
            serde_json::to_string(&region_stats(region).0).map_err(|error| error.to_string())
        });
    toolbox.resource(readme).resource(chart).resource(regions)
}

/// What the gallery's README resource says.
const README: &str = "# codeagent gallery\n\nOne tool per kind of output (text, table, image, code, diff, error, JSON), \
    a resource per kind of content (this text, a PNG chart, a JSON template) and a prompt.";

/// A prompt asking the model to explain one region's sales, with the
/// region's statistics embedded.
fn prompts(toolbox: Toolbox) -> Toolbox {
    let explain = PromptSpec::new("explain_region")
        .with_title("Explain a region")
        .with_description("Ask the model to explain one region's sales.")
        .with_argument(
            PromptArgument::required("region")
                .with_description("north, south, east or west.")
                .with_completer(Completer::from_values(REGION_NAMES)),
        )
        .serve(|get| async move {
            let region = parse_region(get.argument("region").unwrap_or_default())?;
            let stats = serde_json::to_string(&region_stats(region).0).map_err(|error| error.to_string())?;
            Ok::<_, String>(vec![
                PromptMessage::user(format!("Here are the sales of one region: {stats}")),
                PromptMessage::user("Explain them in two sentences."),
            ])
        });
    toolbox.prompt(explain)
}

/// The gallery's tools, resources and prompt.
fn toolbox() -> Toolbox {
    let toolbox = Toolbox::new()
        .tool(add)
        .tool(greet)
        .tool(sales_table)
        .tool(sales_history)
        .tool(revenue_chart)
        .tool(show_code)
        .tool(show_diff)
        .tool(divide)
        .tool(region_stats)
        .tool(count_with_progress)
        .tool(slow)
        .tool(region_report);
    let toolbox = report::add(asking::add(toolbox));
    prompts(resources(toolbox))
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    Server::new(toolbox())
        .with_name("codeagent-gallery")
        .with_title("codeagent gallery")
        .with_instructions("Example tools, one per kind of output: text, table, image, code, diff, error, JSON.")
        .run()
        .await
}
