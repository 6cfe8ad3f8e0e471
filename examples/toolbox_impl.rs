//! `#[toolbox]` on an impl block: the methods marked `#[tool]` become tools
//! that share the struct's state through `&self` (here, a stock of items that
//! one tool fills, another takes from and a third lists).
//!
//! ```sh
//! cargo run --example toolbox_impl                                  # serve MCP on stdio
//! cargo run --example toolbox_impl -- --call restock '{"item": "apples", "units": 5}'
//! ```
//!
//! (`--call` runs one tool in a fresh process, so the stock starts empty each
//! time; a client of the stdio server sees one stock across its calls.)

use std::collections::BTreeMap;
use std::sync::Mutex;

use codeagent::Server;
use codeagent::prelude::*;
use serde::Serialize;

/// The stock: units per item, shared by every call.
#[derive(Default)]
struct Stock {
    units: Mutex<BTreeMap<String, u32>>,
}

/// One row of the stock table.
#[derive(Serialize)]
struct Row<'a> {
    item: &'a str,
    units: u32,
}

#[toolbox]
impl Stock {
    /// Add units of an item to the stock.
    #[tool]
    fn restock(
        &self,
        /// The item, such as `apples`.
        item: String,
        /// How many units arrive.
        units: u32,
    ) -> String {
        let mut stock = self.units.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let total = stock.entry(item.clone()).or_default();
        *total += units;
        format!("{item}: {total} in stock")
    }

    /// Take units of an item out of the stock; fails when there are not enough.
    #[tool]
    fn take(
        &self,
        /// The item.
        item: String,
        /// How many units to take.
        units: u32,
    ) -> Result<String, ToolError> {
        let mut stock = self.units.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let total = stock.get(&item).copied().unwrap_or(0);
        if total < units {
            return Err(ToolError::new(format!("only {total} {item} in stock, cannot take {units}")));
        }
        stock.insert(item.clone(), total - units);
        Ok(format!("took {units} {item}, {} left", total - units))
    }

    /// The whole stock, as a table.
    #[tool(read_only)]
    fn list(&self) -> Result<Table, ToolError> {
        let stock = self.units.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let rows: Vec<Row<'_>> = stock.iter().map(|(item, units)| Row { item, units: *units }).collect();
        Ok(Table::from_rows(&rows)?.with_title("Stock"))
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let toolbox = Toolbox::new().tool_set(Stock::default());
    Server::new(toolbox).with_name("codeagent-stock").run().await
}
