//! Results written once: a table read from records and a `Json` of them are
//! serialised to JSON text when the tool's output is read, and the server
//! writes that text into its response as it is. What the client receives is
//! exactly what `ToolResult::into_call_result` lowers them to, key order
//! included, in every protocol version.

use codeagent::mcp::ProtocolVersion;
use codeagent::server::SERVER_INFO_KEY;
use codeagent::tools::ResultBudget;
use codeagent::{IntoToolResult, Json, Server, Table, ToolError, Toolbox};
use serde::Serialize;
use serde_json::json;

use super::{call, modern};
use crate::common::client::{Client, Transport};

over_both!(results_written_once_reach_the_client_as_they_are_lowered);

/// A record of every kind of cell: numbers, text that needs escaping, a
/// flag, a missing value and a list.
#[derive(Clone, Serialize, schemars::JsonSchema)]
struct Sale {
    id: u64,
    region: String,
    total: f64,
    open: bool,
    note: Option<String>,
    tags: Vec<String>,
}

fn sales() -> Vec<Sale> {
    (0..40)
        .map(|n| Sale {
            id: n * 7,
            region: ["north \"N\"", "sür\n", "east|west", "\u{1F600}"][n as usize % 4].to_owned(),
            total: n as f64 / 3.0,
            open: n % 2 == 0,
            note: (n % 3 == 0).then(|| format!("note {n}")),
            tags: (0..n % 3).map(|tag| format!("t{tag}")).collect(),
        })
        .collect()
}

/// The sales as a table.
#[codeagent::tool]
fn sales_table() -> Result<Table, ToolError> {
    Ok(Table::from_rows(&sales())?.with_preview_rows(5))
}

/// The sales as a table sent as structured content too.
#[codeagent::tool]
fn structured_sales() -> Result<Table, ToolError> {
    Ok(Table::from_rows(&sales())?.with_structured_content())
}

/// The sales as structured output.
#[codeagent::tool]
fn sales_json() -> Json<Vec<Sale>> {
    Json(sales())
}

async fn results_written_once_reach_the_client_as_they_are_lowered(transport: Transport) {
    let cases = [
        (
            "sales_table",
            Table::from_rows(&sales()).unwrap().with_preview_rows(5).into_tool_result(),
            Table::output_schema(),
        ),
        (
            "structured_sales",
            Table::from_rows(&sales()).unwrap().with_structured_content().into_tool_result(),
            Table::output_schema(),
        ),
        ("sales_json", Json(sales()).into_tool_result(), Json::<Vec<Sale>>::output_schema()),
    ];
    for &version in ProtocolVersion::ALL {
        let toolbox = Toolbox::new().tool(sales_table).tool(structured_sales).tool(sales_json);
        let server = Server::new(toolbox).with_result_budget(ResultBudget::unlimited());
        let mut client = Client::start(transport, server).await;
        let modern_era = version == ProtocolVersion::V2026_07_28;
        if !modern_era {
            client.initialize(version).await;
        }
        for (id, (tool, lowered, schema)) in cases.iter().enumerate() {
            let params = if modern_era { modern(call(tool, json!({}))) } else { call(tool, json!({})) };
            let received = client.result(id as u64 + 1, "tools/call", params).await;
            let mut expected = lowered.clone().into_call_result().into_wire(version, schema.as_ref());
            if modern_era {
                expected["_meta"][SERVER_INFO_KEY] = received["_meta"][SERVER_INFO_KEY].clone();
            }
            assert_eq!(
                serde_json::to_string(&received).unwrap(),
                serde_json::to_string(&expected).unwrap(),
                "{transport}, {version}, {tool}"
            );
            if *tool == "sales_json"
                && let Some(structured) = received.get("structuredContent")
            {
                let data = structured.get("result").unwrap_or(structured);
                assert_eq!(data, &serde_json::to_value(sales()).unwrap(), "{transport}, {version}");
            }
        }
    }
}
