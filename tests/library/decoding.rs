//! Every way a call's arguments can fail to decode, through `toolbox.tools().call`:
//! protocol-level problems are `Err(CallError)`, argument problems are error
//! results (`is_error()`) whose message names the field, so a model can fix
//! its call. A panicking tool is an error result too, and the toolbox lives on.

use std::future::Future as _;

use codeagent::prelude::*;
use codeagent::tools::CallError;
use codeagent::tools::UnknownArguments;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Add.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// A point.
#[derive(Deserialize, JsonSchema)]
struct Point {
    x: f64,
    y: f64,
}

/// How to group.
#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Group {
    Region,
    Product,
}

/// Nested arguments.
#[tool]
fn nested(
    /// The point to measure.
    point: Point,
    /// The items to count.
    items: Vec<u32>,
    /// The group the items belong to, if any.
    group: Option<Group>,
) -> String {
    format!("{} {} {}", point.x + point.y, items.len(), group.is_some())
}

/// Constrained arguments.
#[tool]
fn constrained(
    /// How many results to keep, 1 to 10.
    #[schemars(range(min = 1, max = 10))]
    top: u32,
    /// A short name, 1 to 3 characters.
    #[schemars(length(min = 1, max = 3))]
    name: Option<String>,
    /// At most two tags.
    #[schemars(length(max = 2))]
    tags: Option<Vec<String>>,
) -> String {
    format!("{top} {name:?} {tags:?}")
}

/// Takes anything extra.
#[tool(allow_unknown_arguments)]
fn lenient(
    /// The number to return.
    a: i64,
) -> i64 {
    a
}

/// With an injected parameter.
#[tool]
fn logged(
    /// The message to log and echo.
    message: String,
    ctx: &Context,
) -> String {
    ctx.info(message.clone());
    message
}

/// No arguments.
#[tool]
fn now() -> u64 {
    42
}

/// Panics.
#[tool]
fn boom(
    /// Whether to panic.
    fail: bool,
) -> String {
    assert!(!fail, "boom");
    "fine".to_owned()
}

/// Panics, async.
#[tool]
async fn boom_async(
    /// Whether to panic.
    fail: bool,
) -> String {
    tokio::task::yield_now().await;
    if fail {
        panic!("async boom: {}", 1 + 1);
    }
    "fine".to_owned()
}

fn ten() -> u32 {
    10
}

/// Defaults and a rename: decoded field by field.
#[tool]
fn paged(
    /// The page, from 0.
    #[serde(default)]
    page: u32,
    /// How many items a page has (default 10).
    #[serde(default = "ten")]
    size: u32,
    /// Keep only the first this many, if given.
    #[serde(rename = "top-n")]
    top: Option<u8>,
) -> String {
    format!("{page} {size} {top:?}")
}

/// An alias: decoded by the derived deserializer, which knows it.
#[tool]
fn aliased(
    /// What to search for.
    #[serde(alias = "q")]
    query: String,
    /// Match the whole query only.
    #[serde(default)]
    exact: bool,
) -> String {
    format!("{query} {exact}")
}

fn toolbox() -> Toolbox {
    Toolbox::new()
        .tool(add)
        .tool(paged)
        .tool(aliased)
        .tool(nested)
        .tool(constrained)
        .tool(lenient)
        .tool(logged)
        .tool(now)
        .tool(boom)
        .tool(boom_async)
}

/// [`toolbox`], refusing arguments a tool does not declare.
fn strict() -> Toolbox {
    toolbox().with_unknown_arguments(UnknownArguments::Refuse)
}

/// Calls `name` in the [`strict`] toolbox and returns the message of the
/// error result it must give.
async fn error(name: &str, arguments: impl Into<Option<Value>>) -> String {
    let result = strict().tools().call(name, arguments).await.expect("the call starts");
    assert!(result.is_error(), "{name} should fail, gave {}", result.value());
    result.value().to_owned()
}

/// Calls `name` in the [`strict`] toolbox and returns the value of the
/// successful result.
async fn ok(name: &str, arguments: impl Into<Option<Value>>) -> String {
    let result = strict().tools().call(name, arguments).await.expect("the call starts");
    assert!(!result.is_error(), "{name} should succeed, gave {}", result.value());
    result.value().to_owned()
}

#[tokio::test]
async fn missing_arguments_are_an_empty_object() {
    assert_eq!(ok("now", None).await, "42");
    assert_eq!(ok("now", Value::Null).await, "42");
    assert_eq!(ok("now", json!({})).await, "42");
    assert_eq!(error("add", None).await, "Invalid arguments for tool add: missing field `a`");
    assert_eq!(error("add", Value::Null).await, "Invalid arguments for tool add: missing field `a`");
}

#[tokio::test]
async fn arguments_that_are_not_an_object_are_a_call_error() {
    for (arguments, found) in
        [(json!([1, 2]), "an array"), (json!("a=1"), "a string"), (json!(3), "a number"), (json!(true), "a boolean")]
    {
        let error = toolbox().tools().call("add", arguments).await.unwrap_err();
        assert_eq!(error, CallError::ArgumentsNotAnObject { tool: "add".to_owned(), found });
        assert_eq!(
            error.to_string(),
            format!("Invalid arguments for tool add: arguments must be an object, got {found}")
        );
    }
}

#[tokio::test]
async fn an_unknown_tool_is_a_call_error() {
    let error = toolbox().tools().call("subtract", json!({})).await.unwrap_err();
    assert_eq!(error, CallError::UnknownTool("subtract".to_owned()));
    assert_eq!(error.to_string(), "Unknown tool: subtract");
}

#[tokio::test]
async fn a_wrong_type_names_the_field() {
    assert_eq!(
        error("add", json!({"a": 1, "b": "two"})).await,
        "Invalid arguments for tool add: `b`: invalid type: string \"two\", expected i64"
    );
    assert_eq!(
        error("add", json!({"a": 1.5, "b": 2})).await,
        "Invalid arguments for tool add: `a`: invalid type: floating point `1.5`, expected i64"
    );
}

#[tokio::test]
async fn the_error_given_is_serdes_first_sent_arguments_before_missing_ones() {
    // A wrong type sent before an unknown argument, and the other way round.
    assert_eq!(
        error("add", json!({"a": "one", "c": 3})).await,
        "Invalid arguments for tool add: `a`: invalid type: string \"one\", expected i64"
    );
    assert_eq!(
        error("add", json!({"a": 1, "b": 2.5, "c": 3})).await,
        "Invalid arguments for tool add: `b`: invalid type: floating point `2.5`, expected i64"
    );
    assert_eq!(
        error("add", json!({"a": 1, "c": 3})).await,
        "Invalid arguments for tool add: `c`: unknown field `c`, expected `a` or `b`"
    );
    // What was sent comes before what is missing, whatever the declared order.
    assert_eq!(
        error("add", json!({"b": "two"})).await,
        "Invalid arguments for tool add: `b`: invalid type: string \"two\", expected i64"
    );
    assert_eq!(
        error("add", json!({"b": 2, "c": 3})).await,
        "Invalid arguments for tool add: `c`: unknown field `c`, expected `a` or `b`"
    );
}

#[tokio::test]
async fn a_nested_wrong_type_names_the_path() {
    let point = json!({"point": {"x": 1, "y": "up"}, "items": []});
    assert_eq!(
        error("nested", point).await,
        "Invalid arguments for tool nested: `point.y`: invalid type: string \"up\", expected f64"
    );
    let items = json!({"point": {"x": 1, "y": 2}, "items": [1, -2]});
    assert_eq!(
        error("nested", items).await,
        "Invalid arguments for tool nested: `items[1]`: invalid value: integer `-2`, expected u32"
    );
    let missing = json!({"point": {"x": 1}, "items": []});
    assert_eq!(error("nested", missing).await, "Invalid arguments for tool nested: `point`: missing field `y`");
}

#[tokio::test]
async fn defaults_renames_and_aliases_decode_as_serde_says() {
    assert_eq!(ok("paged", json!({})).await, "0 10 None");
    assert_eq!(ok("paged", json!({"page": 2, "size": 3, "top-n": 4})).await, "2 3 Some(4)");
    assert_eq!(
        error("paged", json!({"top-n": 300})).await,
        "Invalid arguments for tool paged: `top-n`: invalid value: integer `300`, expected u8"
    );
    assert_eq!(
        error("paged", json!({"top": 3})).await,
        "Invalid arguments for tool paged: `top`: unknown field `top`, expected one of `page`, `size`, `top-n`"
    );
    assert_eq!(ok("aliased", json!({"q": "rust"})).await, "rust false");
    assert_eq!(ok("aliased", json!({"query": "rust", "exact": true})).await, "rust true");
    assert_eq!(error("aliased", json!({})).await, "Invalid arguments for tool aliased: missing field `query`");
}

#[tokio::test]
async fn an_injected_parameter_sent_by_the_client_is_refused_when_strict() {
    assert_eq!(
        error("logged", json!({"message": "hi", "ctx": 1})).await,
        "Invalid arguments for tool logged: `ctx`: this parameter is supplied by the server, not the client: leave it out"
    );
}

#[tokio::test]
async fn a_missing_required_field() {
    assert_eq!(error("add", json!({"a": 1})).await, "Invalid arguments for tool add: missing field `b`");
    assert_eq!(
        error("nested", json!({"point": {"x": 1, "y": 2}})).await,
        "Invalid arguments for tool nested: missing field `items`"
    );
}

#[tokio::test]
async fn unknown_fields_are_dropped_by_default() {
    // Gemini CLI adds `wait_for_previous` to every tool and forwards it.
    let result = toolbox().tools().call("add", json!({"a": 1, "b": 2, "wait_for_previous": true})).await.unwrap();
    assert!(!result.is_error(), "{}", result.value());
    assert_eq!(result.value(), "3");
    // An injected parameter sent by a client is dropped too: the server's own is used.
    let result = toolbox().tools().call("logged", json!({"message": "hi", "ctx": {"meta": 1}})).await.unwrap();
    assert_eq!((result.is_error(), result.value()), (false, "hi"));
    // The listing still refuses them, for LLM APIs with strict schemas.
    assert_eq!(toolbox().tools().definition("add").unwrap().input_schema["additionalProperties"], false);
    assert_eq!(toolbox().unknown_arguments(), UnknownArguments::Drop);
}

#[tokio::test]
async fn unknown_fields_are_refused_when_the_toolbox_says_so() {
    assert_eq!(
        error("add", json!({"a": 1, "b": 2, "c": 3})).await,
        "Invalid arguments for tool add: `c`: unknown field `c`, expected `a` or `b`"
    );
    assert_eq!(ok("lenient", json!({"a": 1, "b": 2, "c": {"d": []}})).await, "1");
    let schema = toolbox().tools().definition("lenient").unwrap().input_schema;
    assert!(schema.get("additionalProperties").is_none());
    let strict = toolbox().tools().definition("add").unwrap().input_schema;
    assert_eq!(strict["additionalProperties"], false);
}

#[tokio::test]
async fn ranges_and_lengths_from_schemars_are_checked() {
    assert_eq!(
        ok("constrained", json!({"top": 1, "name": "abc", "tags": ["a", "b"]})).await,
        "1 Some(\"abc\") Some([\"a\", \"b\"])"
    );
    assert_eq!(
        error("constrained", json!({"top": 0})).await,
        "Invalid arguments for tool constrained: `top`: 0 is less than the minimum 1"
    );
    assert_eq!(
        error("constrained", json!({"top": 11})).await,
        "Invalid arguments for tool constrained: `top`: 11 is greater than the maximum 10"
    );
    assert_eq!(
        error("constrained", json!({"top": 1, "name": ""})).await,
        "Invalid arguments for tool constrained: `name`: has 0 characters, fewer than the minimum 1"
    );
    assert_eq!(
        error("constrained", json!({"top": 1, "name": "abcd"})).await,
        "Invalid arguments for tool constrained: `name`: has 4 characters, more than the maximum 3"
    );
    assert_eq!(
        error("constrained", json!({"top": 1, "tags": ["a", "b", "c"]})).await,
        "Invalid arguments for tool constrained: `tags`: has 3 items, more than the maximum 2"
    );
    // A type error is reported before a range: the message is about the type.
    assert_eq!(
        error("constrained", json!({"top": -1})).await,
        "Invalid arguments for tool constrained: `top`: invalid value: integer `-1`, expected u32"
    );
}

#[tokio::test]
async fn an_enum_variant_not_in_the_list() {
    let arguments = json!({"point": {"x": 1, "y": 2}, "items": [], "group": "city"});
    assert_eq!(
        error("nested", arguments).await,
        "Invalid arguments for tool nested: `group`: unknown variant `city`, expected `region` or `product`"
    );
    assert_eq!(ok("nested", json!({"point": {"x": 1, "y": 2}, "items": [], "group": "region"})).await, "3 0 true");
}

#[tokio::test]
async fn a_client_cannot_send_an_injected_parameter() {
    assert_eq!(
        error("logged", json!({"message": "hi", "ctx": {"meta": 1}})).await,
        "Invalid arguments for tool logged: `ctx`: this parameter is supplied by the server, not the client: leave it out"
    );
    assert_eq!(
        error("logged", json!({"message": "hi", "ctx": "x"})).await,
        "Invalid arguments for tool logged: `ctx`: this parameter is supplied by the server, not the client: leave it out"
    );
    // `null` is no value at all, as if the key were absent.
    assert_eq!(ok("logged", json!({"message": "hi", "ctx": null})).await, "hi");
    assert_eq!(ok("logged", json!({"message": "hi"})).await, "hi");
}

#[tokio::test]
async fn a_panicking_tool_is_an_error_result_and_the_toolbox_lives_on() {
    let toolbox = toolbox();
    for name in ["boom", "boom_async"] {
        let failed = toolbox.tools().call(name, json!({"fail": true})).await.unwrap();
        assert!(failed.is_error());
        let message = if name == "boom" { "boom" } else { "async boom: 2" };
        assert_eq!(failed.value(), format!("The tool failed unexpectedly (it panicked: {message})"));
        let fine = toolbox.tools().call(name, json!({"fail": false})).await.unwrap();
        assert_eq!((fine.value(), fine.is_error()), ("fine", false));
    }
    assert_eq!(toolbox.tools().call("add", json!({"a": 1, "b": 2})).await.unwrap().value(), "3");
}

#[test]
fn a_panicking_tool_without_a_runtime() {
    // Outside tokio, a sync tool runs in place, when the call is first polled:
    // the panic is still caught.
    let toolbox = toolbox();
    let mut call = std::pin::pin!(toolbox.tools().call("boom", json!({"fail": true})));
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    let std::task::Poll::Ready(result) = call.as_mut().poll(&mut context) else {
        panic!("a sync tool outside a runtime is ready at once");
    };
    let result = result.unwrap();
    assert!(result.is_error());
    assert_eq!(result.value(), "The tool failed unexpectedly (it panicked: boom)");
}
