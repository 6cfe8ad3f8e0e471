//! The gallery's long-running tool: a sales report that takes seconds, works
//! region by region and says so, asks you halfway whether to add a column,
//! and stops when cancelled. A client of the tasks extension gets it as a
//! task to poll (`#[tool(task)]`); any other client waits for the table.

use std::time::Duration;

use codeagent::ask::{AskError, Elicitation};
use codeagent::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Region, sales};

/// The answer to "add the average units per sale?".
#[derive(Debug, Deserialize, JsonSchema)]
struct Average {
    /// Add a column with the average units per sale?
    average: bool,
}

/// One region's line of the report.
#[derive(Serialize)]
struct ReportRow {
    region: &'static str,
    sales: u32,
    units: u32,
    revenue: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    average_units: Option<f64>,
}

/// Build the sales report, region by region, over `seconds` seconds.
///
/// Reports progress after each region, asks halfway whether to add the
/// average units per sale, and stops when cancelled. Clients that poll tasks
/// get it as a task.
#[tool(title = "Sales report", read_only, task)]
async fn sales_report(
    ctx: &Context,
    /// How long the report takes, in seconds (1 to 600).
    #[schemars(range(min = 1, max = 600))]
    seconds: u32,
) -> Result<Table, ToolError> {
    let regions = [Region::North, Region::South, Region::East, Region::West];
    let step = Duration::from_secs(u64::from(seconds)) / regions.len() as u32;
    let total = regions.len() as f64;
    let mut rows = Vec::new();
    let mut average = false;
    for (done, region) in regions.into_iter().enumerate() {
        ctx.progress(done as f64, Some(total), Some(&format!("Adding up {}", region.name())));
        tokio::select! {
            () = tokio::time::sleep(step) => {}
            () = ctx.cancelled() => return Err(ToolError::new(format!("The report was cancelled at {}", region.name()))),
        }
        let (mut count, mut units, mut revenue) = (0u32, 0u32, 0.0);
        for sale in sales().filter(|sale| sale.region == region) {
            count += 1;
            units += sale.units;
            revenue += sale.revenue;
        }
        rows.push(ReportRow { region: region.name(), sales: count, units, revenue, average_units: None });
        if done + 1 == regions.len() / 2 {
            average = match ctx.elicit::<Average>("Halfway there: add the average units per sale?").await {
                Ok(Elicitation::Accepted(Average { average })) => average,
                Ok(Elicitation::Declined | Elicitation::Cancelled) => false,
                // A client that cannot be asked gets the report without it.
                Err(AskError::Unsupported { .. } | AskError::NoClient(_) | AskError::Unreachable(_)) => false,
                Err(error) => return Err(error.into()),
            };
        }
    }
    ctx.progress(total, Some(total), Some("Done"));
    if average {
        for row in &mut rows {
            row.average_units = (row.sales > 0).then(|| f64::from(row.units) / f64::from(row.sales));
        }
    }
    Ok(Table::from_rows(&rows)?.with_title("Sales report"))
}

/// Adds the report.
pub(crate) fn add(toolbox: Toolbox) -> Toolbox {
    toolbox.tool(sales_report)
}
