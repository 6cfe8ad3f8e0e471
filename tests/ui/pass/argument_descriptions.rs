//! What describes an argument (a doc comment, `#[doc = ...]`,
//! `#[schemars(description)]`), what needs no description (injected
//! parameters, a `#[serde(flatten)]` one), and `undocumented`, which lets a
//! tool and its arguments go without.
use codeagent::prelude::*;
use serde::Deserialize;
use serde_json::json;

/// The page of a listing.
#[derive(Deserialize, schemars::JsonSchema)]
struct Page {
    /// The first item's index.
    offset: u32,
}

struct Catalog;

/// List the catalog's items.
#[tool(read_only)]
fn list(
    ctx: &Context,
    catalog: State<Catalog>,
    /// Only items whose name starts so.
    prefix: String,
    #[doc = concat!("At most this many items, up to ", "100.")]
    limit: u32,
    #[schemars(description = "Newest first.")]
    newest: bool,
    #[serde(flatten)]
    page: Page,
) -> String {
    let _ = (ctx, catalog);
    format!("{prefix} {limit} {newest} {}", page.offset)
}

#[tool(undocumented)]
fn echo(text: String) -> String {
    text
}

struct Shelf;

#[toolbox]
impl Shelf {
    #[tool(undocumented)]
    fn count(&self, label: String, ctx: Context) -> usize {
        let _ = ctx;
        label.len()
    }
}

#[tokio::main]
async fn main() {
    let toolbox =
        Toolbox::new().with_state(Catalog).tool(list).tool(echo).tool_set(std::sync::Arc::new(Shelf));
    let schema = toolbox.tools().definition("list").unwrap().input_schema;
    assert_eq!(schema["properties"]["prefix"]["description"], "Only items whose name starts so.");
    assert_eq!(schema["properties"]["limit"]["description"], "At most this many items, up to 100.");
    assert_eq!(schema["properties"]["newest"]["description"], "Newest first.");
    assert_eq!(schema["properties"]["offset"]["description"], "The first item's index.");
    let echo_schema = toolbox.tools().definition("echo").unwrap().input_schema;
    assert!(echo_schema["properties"]["text"].get("description").is_none());
    let result = toolbox.tools().call("count", json!({"label": "abc"})).await.unwrap();
    assert_eq!(result.value(), "3");
}
