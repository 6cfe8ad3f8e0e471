//! Tool definitions for LLM APIs (`codeagent::provider`): their shapes,
//! the strict forms and the tools refused from them, strict-form arguments
//! (`null` for an absent optional) decoding through `toolbox.tools().call`, and —
//! ignored by default — every definition validated against the providers' own
//! SDK request types by `tests/providers/check_definitions.py`.

#[path = "../providers/checker.rs"]
mod checker;

use std::collections::HashMap;

use codeagent::prelude::*;
use codeagent::provider::{self, NotStrict, Provider, Strictness};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

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

/// A sales region.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Region {
    North,
    South,
}

/// Sales, optionally for one region.
#[tool]
fn sales(
    /// Only this region; all when absent.
    region: Option<Region>,
) -> String {
    format!("{region:?}")
}

/// Count to `steps`.
#[tool]
fn count(
    /// How many steps (1 to 100).
    #[schemars(range(min = 1, max = 100))]
    steps: u32,
) -> u32 {
    steps
}

/// Wait.
#[tool]
fn wait(
    /// Seconds (at most 600).
    #[schemars(range(min = 0.0, max = 600.0))]
    seconds: f64,
) -> f64 {
    seconds
}

/// A point.
#[derive(Debug, Deserialize, JsonSchema)]
struct Point {
    /// Across.
    x: f64,
    /// Up.
    y: f64,
    /// A label.
    label: Option<String>,
}

/// Paging.
#[derive(Debug, Deserialize, JsonSchema)]
struct Paging {
    /// Page size.
    #[serde(default = "ten")]
    size: u32,
    /// Page number.
    #[serde(default)]
    page: u32,
}

fn ten() -> u32 {
    10
}

/// Search with nested, optional and defaulted arguments.
#[tool(name = "search.points")]
fn search(
    /// Where to search from.
    origin: Point,
    /// Tags to match.
    tags: Vec<String>,
    /// Paging, when not the default.
    paging: Option<Paging>,
    /// Several points.
    #[serde(default)]
    extra: Vec<Point>,
    /// How many results.
    #[serde(default = "ten")]
    limit: u32,
) -> String {
    let paging = paging.map(|paging| (paging.size, paging.page));
    let labels: Vec<Option<String>> = extra.into_iter().map(|point| point.label).collect();
    format!("{} {:?} {} {paging:?} {labels:?} {limit}", origin.x + origin.y, origin.label, tags.len())
}

/// Scores by name: a map, which has no strict form.
#[tool]
fn scores(
    /// Score per name.
    by_name: HashMap<String, f64>,
) -> usize {
    by_name.len()
}

/// Anything at all: no strict form either.
#[tool]
fn anything(
    /// Any JSON value.
    value: Value,
) -> String {
    value.to_string()
}

fn strictable() -> Toolbox {
    Toolbox::new().tool(add).tool(sales).tool(count).tool(wait).tool(search)
}

fn everything() -> Toolbox {
    strictable().tool(scores).tool(anything)
}

fn text(result: &codeagent::ToolResult) -> String {
    serde_json::to_value(result.clone().into_event("test", "tool")).unwrap().to_string()
}

#[test]
fn each_provider_gets_its_own_shape() {
    let toolbox = everything();
    let chat = provider::tools(&toolbox, Provider::OpenAiChat, Strictness::Lenient).unwrap();
    let first = &chat.tools[0];
    assert_eq!(first["type"], "function");
    assert_eq!(first["function"]["name"], "add");
    assert_eq!(first["function"]["description"], "Add two integers.");
    assert_eq!(first["function"]["strict"], false);
    assert_eq!(first["function"]["parameters"]["required"], json!(["a", "b"]));

    let responses = provider::tools(&toolbox, Provider::OpenAiResponses, Strictness::Lenient).unwrap();
    let keys: Vec<&String> = responses.tools[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["type", "name", "description", "parameters", "strict"]);

    let anthropic = provider::tools(&toolbox, Provider::Anthropic, Strictness::Lenient).unwrap();
    let keys: Vec<&String> = anthropic.tools[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["name", "description", "input_schema"]);

    let gemini = provider::tools(&toolbox, Provider::Gemini, Strictness::Lenient).unwrap();
    let declarations = gemini.tools["functionDeclarations"].as_array().unwrap();
    assert_eq!(declarations.len(), toolbox.tools().len());
    assert_eq!(declarations[4]["name"], "search.points", "Gemini takes dots");
    let schema = declarations[4]["parametersJsonSchema"].to_string();
    assert!(!schema.contains("$schema") && !schema.contains("$ref") && !schema.contains("$defs"), "{schema}");
}

#[test]
fn names_are_mapped_for_each_provider_and_back() {
    for provider in [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic] {
        let offered = provider::tools(&strictable(), provider, Strictness::Lenient).unwrap();
        assert_eq!(offered.names.provider_name("search.points"), Some("search_points"));
        assert_eq!(offered.names.tool("search_points"), Some("search.points"));
        assert!(offered.tools.to_string().contains("\"search_points\""));
    }
    let gemini = provider::tools(&strictable(), Provider::Gemini, Strictness::Lenient).unwrap();
    assert_eq!(gemini.names.tool("search.points"), Some("search.points"));
}

/// Mul, named to clash with `search.points` once mapped.
#[tool(name = "search_points")]
fn clash() -> i64 {
    0
}

#[test]
fn a_name_clash_is_reported_even_when_lenient() {
    let toolbox = strictable().tool(clash);
    let refused = provider::tools(&toolbox, Provider::OpenAiChat, Strictness::Lenient).unwrap_err();
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].tool, "search_points");
    assert!(refused[0].reason.contains("also the name of tool `search.points`"), "{}", refused[0].reason);
    assert!(provider::tools(&toolbox, Provider::Gemini, Strictness::Lenient).is_ok());
}

#[test]
fn strict_openai_requires_everything_and_drops_what_it_does_not_take() {
    let offered = provider::tools(&strictable(), Provider::OpenAiChat, Strictness::Strict).unwrap();
    let counted = &offered.tools[2]["function"];
    assert_eq!(counted["strict"], true);
    let steps = &counted["parameters"]["properties"]["steps"];
    assert_eq!(steps["minimum"], 1);
    assert_eq!(steps["maximum"], 100);
    assert!(steps.get("format").is_none(), "uint32 is no OpenAI format: {steps}");
    let searched = &offered.tools[4]["function"]["parameters"];
    assert_eq!(searched["required"], json!(["origin", "tags", "paging", "extra", "limit"]));
    assert_eq!(searched["properties"]["limit"]["type"], json!(["integer", "null"]));
    assert!(searched["properties"]["limit"].get("default").is_none());
    assert_eq!(searched["properties"]["origin"]["additionalProperties"], false);
    assert_eq!(searched["properties"]["origin"]["required"], json!(["x", "y", "label"]));
}

#[test]
fn strict_anthropic_keeps_optional_properties_optional() {
    let offered = provider::tools(&strictable(), Provider::Anthropic, Strictness::Strict).unwrap();
    let searched = &offered.tools[4];
    assert_eq!(searched["strict"], true);
    assert_eq!(searched["input_schema"]["required"], json!(["origin", "tags"]));
    assert_eq!(searched["input_schema"]["additionalProperties"], false);
    let steps = &offered.tools[2]["input_schema"]["properties"]["steps"];
    assert!(steps.get("minimum").is_none() && steps.get("format").is_none(), "{steps}");
}

#[test]
fn tools_without_a_strict_form_are_each_reported_by_name() {
    for provider in [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic] {
        let refused = provider::tools(&everything(), provider, Strictness::Strict).unwrap_err();
        let tools: Vec<&str> = refused.iter().map(|refusal| refusal.tool.as_str()).collect();
        assert_eq!(tools, ["scores", "anything"], "{provider}: {refused:?}");
        assert!(refused[0].reason.contains("arbitrary keys"), "{}", refused[0]);
        assert!(refused[1].reason.contains("any value"), "{}", refused[1]);
        assert!(provider::tools(&everything(), provider, Strictness::Lenient).is_ok());
    }
    let refused = provider::tools(&strictable(), Provider::Gemini, Strictness::Strict).unwrap_err();
    assert_eq!(refused.len(), strictable().tools().len());
    assert!(refused.iter().all(|NotStrict { reason, .. }| reason.contains("no strict mode")));
}

#[tokio::test]
async fn strict_form_nulls_decode_as_absent() {
    let toolbox = strictable();
    let arguments = json!({"origin": {"x": 1.0, "y": 2.0, "label": null}, "tags": [], "paging": null,
        "extra": null, "limit": null});
    let result = toolbox.tools().call("search.points", arguments).await.unwrap();
    assert!(!result.is_error(), "{}", text(&result));
    assert!(text(&result).contains("3 None 0 None [] 10"), "{}", text(&result));

    let nested = json!({"origin": {"x": 1.0, "y": 2.0, "label": "o"}, "tags": ["a"],
        "paging": {"size": null, "page": null}, "extra": [{"x": 0.0, "y": 0.0, "label": null}], "limit": 3});
    let result = toolbox.tools().call("search.points", nested).await.unwrap();
    assert!(text(&result).contains(r#"3 Some(\"o\") 1 Some((10, 0)) [None] 3"#), "{}", text(&result));

    let result = toolbox.tools().call("sales", json!({"region": null})).await.unwrap();
    assert!(text(&result).contains("None"), "{}", text(&result));
}

#[tokio::test]
async fn a_null_for_a_required_argument_still_fails_as_before() {
    let toolbox = strictable();
    let result = toolbox.tools().call("add", json!({"a": null, "b": 1})).await.unwrap();
    assert!(result.is_error());
    assert!(text(&result).contains("`a`: invalid type: null, expected i64"), "{}", text(&result));
    let result =
        toolbox.tools().call("search.points", json!({"origin": {"x": null, "y": 1.0}, "tags": []})).await.unwrap();
    assert!(text(&result).contains("`origin.x`: invalid type: null"), "{}", text(&result));
}

#[test]
#[ignore = "needs the interop Python environment: bash tests/interop/install.sh, then cargo test -- --include-ignored"]
fn definitions_validate_against_the_provider_sdks() {
    let mut documents = Vec::new();
    for provider in Provider::ALL {
        for (strictness, toolbox, suffix) in
            [(Strictness::Lenient, everything(), "lenient"), (Strictness::Strict, strictable(), "strict")]
        {
            if provider == Provider::Gemini && strictness == Strictness::Strict {
                continue;
            }
            let offered = provider::tools(&toolbox, provider, strictness).unwrap();
            documents.push((format!("{provider}.{suffix}.json"), offered.tools));
        }
    }
    let stdout = checker::check("check_definitions.py", &documents);
    assert!(stdout.contains("7 files checked"), "{stdout}");
}
