use codeagent::prelude::*;

/// A table: the built-in view.
#[tool]
fn table() -> Table {
    Table::new()
}

/// A table with no view.
#[tool(ui = false)]
fn bare() -> Table {
    Table::new()
}

/// Text in the built-in view.
#[tool(ui = true)]
fn text() -> Text {
    Text::new("hi")
}

/// A view of the server's own.
#[tool(ui = "ui://charts/revenue")]
fn own() -> Result<Image, ToolError> {
    Err(ToolError::new("no chart yet"))
}

fn main() {
    let toolbox = Toolbox::new().tool(table).tool(bare).tool(text).tool(own);
    let view = |name: &str| toolbox.tools().find(name).unwrap().spec().ui().map(str::to_owned);
    assert_eq!(view("table").as_deref(), Some(codeagent::ui::APP_URI));
    assert_eq!(view("bare"), None);
    assert_eq!(view("text").as_deref(), Some(codeagent::ui::APP_URI));
    assert_eq!(view("own").as_deref(), Some("ui://charts/revenue"));
}
