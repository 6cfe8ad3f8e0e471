//! The gallery's tools that ask: one asks you (a confirmation before it
//! deletes), one asks the client's model (a summary of a table it made).

use std::sync::Mutex;

use codeagent::ask::{AskError, Elicitation, ModelPreferences, Sampling};
use codeagent::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{Region, Sale, sales};

/// The regions whose records were deleted in this process.
pub(crate) static DELETED: Mutex<Vec<Region>> = Mutex::new(Vec::new());

/// The answer to "delete these records?".
#[derive(Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Delete the records?
    confirm: bool,
}

/// Delete one region's sales records, after asking you to confirm.
///
/// The records are gone for the rest of this server's life: the sales table,
/// the statistics and the chart no longer count them.
#[tool(title = "Delete a region's records", destructive, idempotent, open_world = false, scopes = ["sales:write"])]
async fn delete_region(
    ctx: &Context,
    /// The region whose records go.
    region: Region,
) -> Result<Text, ToolError> {
    let count = sales().filter(|sale| sale.region == region).count();
    if count == 0 {
        return Ok(Text::new(format!("{} has no records to delete.", region.name())));
    }
    let records = if count == 1 { "1 sales record".to_owned() } else { format!("{count} sales records") };
    let question = format!("Delete {records} of {}? This cannot be undone.", region.name());
    Ok(match ctx.elicit::<Confirm>(question).await? {
        Elicitation::Accepted(Confirm { confirm: true }) => {
            DELETED.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(region);
            Text::new(format!("Deleted {records} of {}.", region.name()))
        }
        Elicitation::Accepted(_) | Elicitation::Declined => Text::new("Nothing was deleted: you said no."),
        Elicitation::Cancelled => Text::new("Nothing was deleted: the question was dismissed."),
    })
}

/// Summarise the sales table in one sentence, written by the client's model.
///
/// The model that called this tool reads the summary; the person sees the
/// model the client chose. A client that cannot sample gets the table alone.
#[tool(title = "Summarise sales", read_only)]
async fn summarize_sales(
    ctx: &Context,
    /// Only this region; all regions when absent.
    region: Option<Region>,
) -> Result<Text, ToolError> {
    let rows: Vec<&Sale> = sales().filter(|sale| region.is_none_or(|region| sale.region == region)).collect();
    let table = Table::from_rows(&rows)?.to_markdown();
    let request = Sampling::new(120)
        .with_system_prompt("You summarise sales tables in one plain sentence, with the numbers that matter.")
        .user(format!("Summarise this table:\n\n{table}"))
        .with_model_preferences(ModelPreferences::new().with_speed_priority(0.8).with_cost_priority(0.6));
    match ctx.sample(request).await {
        Ok(summary) => {
            let text = summary.text().unwrap_or("(the model answered without text)");
            Ok(Text::new(format!("{text}\n\n(summary by {})", summary.model)))
        }
        Err(AskError::Unsupported { .. } | AskError::NoClient(_)) => {
            Ok(Text::new(format!("This client cannot sample, so here is the table:\n\n{table}")))
        }
        Err(error) => Err(error.into()),
    }
}

/// Adds the asking tools.
pub(crate) fn add(toolbox: Toolbox) -> Toolbox {
    toolbox.tool(delete_region).tool(summarize_sales)
}
