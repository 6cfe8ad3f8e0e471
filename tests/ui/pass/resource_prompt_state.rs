//! `#[resource]` and `#[prompt]` take `State<T>` as `#[tool]` does, injected
//! from `Toolbox::with_state` (also through an alias), and refuse a read or a
//! get when the toolbox has no such state, naming the fix.
use codeagent::prelude::*;
use codeagent::prompts::PromptError;
use codeagent::resources::ResourceError;

struct Catalog {
    name: &'static str,
}

type Shared = State<Catalog>;

/// The catalog's name.
#[resource(uri = "catalog://name")]
fn catalog_name(catalog: State<Catalog>) -> String {
    catalog.name.to_owned()
}

/// One item of the catalog.
#[resource(uri = "catalog://items/{id}")]
async fn item(id: u32, catalog: Shared, ctx: &Context) -> String {
    ctx.debug("item");
    format!("{} #{id}", catalog.name)
}

/// Describe the catalog.
#[prompt]
fn describe(topic: String, catalog: State<Catalog>) -> String {
    format!("Describe {topic} in {}.", catalog.name)
}

/// An undocumented tool still compiles when it says so.
#[tool(undocumented)]
fn hidden() -> i64 {
    1
}

#[tool(description = "A description from the key.")]
fn described() -> i64 {
    2
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new()
        .resource(catalog_name)
        .resource(item)
        .prompt(describe)
        .tool(hidden)
        .tool(described)
        .with_state(Catalog { name: "orders" });
    let contents = toolbox.resources().read("catalog://name").await.unwrap();
    assert_eq!(serde_json::to_value(&contents).unwrap()[0]["text"], "orders");
    let contents = toolbox.resources().read("catalog://items/7").await.unwrap();
    assert_eq!(serde_json::to_value(&contents).unwrap()[0]["text"], "orders #7");
    let messages = toolbox.prompts().get("describe", [("topic", "shipping")]).await.unwrap();
    assert_eq!(messages[0].text(), Some("Describe shipping in orders."));
    // The prompt's `State<T>` is not an argument.
    let spec = toolbox.prompts().specs().into_iter().find(|spec| spec.name() == "describe").unwrap();
    assert_eq!(spec.arguments().len(), 1);

    let bare = Toolbox::new().resource(catalog_name).prompt(describe);
    match bare.resources().read("catalog://name").await {
        Err(ResourceError::Failed(message)) => assert!(message.contains("Toolbox::with_state"), "{message}"),
        other => panic!("{other:?}"),
    }
    match bare.prompts().get("describe", [("topic", "x")]).await {
        Err(PromptError::Failed(message)) => assert!(message.contains("Toolbox::with_state"), "{message}"),
        other => panic!("{other:?}"),
    }
}
