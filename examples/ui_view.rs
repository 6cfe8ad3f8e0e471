//! An MCP Apps view of your own: the tool names a `ui://` resource
//! (`#[tool(ui = "ui://…")]`), the server serves that resource as an HTML
//! document of type `text/html;profile=mcp-app`, and a host that declares the
//! MCP Apps extension shows it next to the call, handing it each result.
//! This view draws the result's `structuredContent` as a bar chart.
//!
//! ```sh
//! cargo build --example ui_view   # then add target/debug/examples/ui_view to
//!                                 # Claude Desktop or VS Code, and ask for the sales chart
//! ```

use codeagent::Server;
use codeagent::prelude::*;
use schemars::JsonSchema;
use serde::Serialize;

/// One region's revenue.
#[derive(Serialize, JsonSchema)]
struct Bar {
    /// The region.
    region: String,
    /// Its revenue, in euros.
    revenue: f64,
}

/// The revenue of each region.
#[derive(Serialize, JsonSchema)]
struct Revenue {
    /// One bar per region.
    bars: Vec<Bar>,
}

/// The revenue per region, drawn as bars by this server's own view.
#[tool(read_only, ui = "ui://sales/bars")]
fn revenue_chart(
    /// Leave out regions below this revenue.
    min_revenue: Option<f64>,
) -> Json<Revenue> {
    let all = [("north", 5600.0), ("south", 2850.0), ("east", 2400.0), ("west", 5550.0)];
    let bars = all
        .into_iter()
        .filter(|(_, revenue)| *revenue >= min_revenue.unwrap_or(0.0))
        .map(|(region, revenue)| Bar { region: region.to_owned(), revenue })
        .collect();
    Json(Revenue { bars })
}

/// The view: a JSON-RPC peer of the host over `postMessage` (MCP Apps 2026-01-26).
/// It initializes, then draws every `ui/notifications/tool-result` it is sent.
const VIEW: &str = r#"<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Revenue</title>
<style>body{font:14px system-ui;margin:8px}.bar{background:#4a7;color:#fff;margin:2px 0;padding:2px 4px;white-space:nowrap}</style>
</head><body><div id="chart">Waiting for the result…</div>
<script>
  const send = (message) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  function draw(result) {
    const bars = (result.structuredContent || {}).bars || [];
    const top = Math.max(1, ...bars.map((bar) => bar.revenue));
    const chart = document.getElementById("chart");
    chart.replaceChildren(...bars.map((bar) => {
      const row = document.createElement("div");
      row.className = "bar";
      row.style.width = (100 * bar.revenue / top) + "%";
      row.textContent = bar.region + ": " + bar.revenue; // text, never HTML
      return row;
    }));
  }
  window.addEventListener("message", (event) => {
    const message = event.data;
    if (event.source !== window.parent || !message || message.jsonrpc !== "2.0") return;
    if (message.id === 1 && message.result) send({ method: "ui/notifications/initialized", params: {} });
    if (message.method === "ui/notifications/tool-result") draw(message.params);
  });
  send({ id: 1, method: "ui/initialize", params: {
    appInfo: { name: "revenue-bars", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" } });
</script></body></html>
"#;

/// The view, served as the resource the tool names.
#[resource(uri = "ui://sales/bars", name = "revenue-bars", mime_type = "text/html;profile=mcp-app")]
fn bars_view() -> String {
    VIEW.to_owned()
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let toolbox = Toolbox::new().tool(revenue_chart).resource(bars_view);
    Server::new(toolbox).with_name("codeagent-ui-view").run().await
}
