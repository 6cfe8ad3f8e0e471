//! `Toolbox` as a user holds it: a live registry shared by every clone, next
//! to a configuration that is a plain value; one way to call a tool and one
//! to start it; a typed listing.

use codeagent::prelude::*;
use codeagent::toolbox::CacheHint;
use codeagent::tools::{AddToolError, CallError};
use serde_json::json;

/// Add two integers.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Greet someone.
#[tool]
fn greet(
    /// The name of the person to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// Say which greeting the toolbox was configured with.
#[tool]
fn configured(greeting: State<String>) -> String {
    greeting.to_string()
}

#[test]
fn a_clone_configured_differently_leaves_the_original_alone() {
    let base = Toolbox::new().tool(add).tool(greet);
    let paged = base.clone().with_page_size(1).with_cache_hint(CacheHint::private(std::time::Duration::from_secs(5)));

    let whole = base.tools().list(None).unwrap();
    assert_eq!(whole.items.len(), 2, "the original keeps its page size");
    assert_eq!(whole.next_cursor, None);
    assert_eq!(whole.cache, CacheHint::default());

    let first = paged.tools().list(None).unwrap();
    assert_eq!(first.items.iter().map(|tool| tool.name.as_str()).collect::<Vec<_>>(), ["add"]);
    assert_eq!(first.next_cursor.as_deref(), Some("1"));
    let second = paged.tools().list(first.next_cursor.as_deref()).unwrap();
    assert_eq!(second.items[0].name, "greet");
    assert_eq!(second.next_cursor, None);
    assert!(!first.cache.is_public());
}

#[tokio::test]
async fn the_registry_is_shared_by_every_clone() {
    let base = Toolbox::new().tool(add);
    let clone = base.clone().with_page_size(7);
    clone.tools().try_add(greet).unwrap();
    assert_eq!(base.tools().names(), ["add", "greet"], "a tool added through a clone is in the original");
    assert!(
        matches!(base.tools().try_add(greet), Err(AddToolError::Duplicate(duplicate)) if duplicate.name() == "greet")
    );
    assert!(base.tools().remove("add"));
    assert!(
        matches!(clone.tools().call("add", json!({"a": 1, "b": 2})).await, Err(CallError::UnknownTool(name)) if name == "add")
    );
}

#[tokio::test]
async fn shared_state_is_part_of_the_configuration() {
    let base = Toolbox::new().tool(configured).with_state("hello".to_owned());
    let other = base.clone().with_state("bonjour".to_owned());
    assert_eq!(base.tools().call("configured", None).await.unwrap().value(), "hello");
    assert_eq!(other.tools().call("configured", None).await.unwrap().value(), "bonjour");
    let bare = Toolbox::new().tool(configured);
    let missing = bare.tools().call("configured", None).await.unwrap();
    assert!(missing.is_error());
    assert!(missing.value().contains("Toolbox::with_state"), "{}", missing.value());
}

#[tokio::test]
async fn a_started_call_names_its_tool_and_yields_the_result() {
    let toolbox = Toolbox::new().tool(add);
    let started = toolbox.tools().start("add", json!({"a": 2, "b": 3}), Context::detached()).unwrap();
    assert_eq!(started.spec().name(), "add");
    assert_eq!(started.await.value(), "5");
    let refused = toolbox.tools().start("add", json!([1, 2]), Context::detached()).unwrap_err();
    assert_eq!(refused.to_string(), "Invalid arguments for tool add: arguments must be an object, got an array");
}

#[test]
fn the_typed_page_lowers_to_each_version() {
    let page = Toolbox::new().tool(add).tools().list(None).unwrap();
    let legacy = page.to_wire(ProtocolVersion::V2024_11_05);
    assert_eq!(legacy["tools"][0]["name"], "add");
    assert!(legacy.get("resultType").is_none());
    let modern = page.to_wire(ProtocolVersion::LATEST);
    assert_eq!(modern["resultType"], "complete");
    assert_eq!(modern["ttlMs"], 0);
    assert_eq!(modern["cacheScope"], "public");
}

/// A form with a nested struct: MCP elicitation cannot carry it.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Address {
    street: String,
}

#[derive(serde::Deserialize, schemars::JsonSchema)]
struct Shipping {
    address: Address,
}

/// Asks for a form elicitation cannot carry.
#[tool]
async fn ship(ctx: &Context) -> Result<String, ToolError> {
    let answer = ctx.elicit::<Shipping>("Where to?").await?;
    Ok(answer.accepted().map(|shipping| shipping.address.street).unwrap_or_default())
}

#[test]
fn a_tool_asking_for_an_impossible_form_is_refused_when_the_toolbox_is_built() {
    let error = Toolbox::new().tools().try_add(ship).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the tool `ship` cannot be added: `Shipping` cannot be an elicitation form: field `address`: \
         a nested struct or map is not allowed: a form is one flat struct"
    );
    assert!(matches!(error, AddToolError::NotAForm { .. }));
}
