//! Every constraint an input schema advertises is enforced when the tool is
//! called, naming the field; a schema stating one that cannot be enforced
//! makes the toolbox refuse the tool when it is built.

use std::collections::{BTreeSet, HashSet};

use codeagent::prelude::*;
use codeagent::tools::{AddToolError, Tool, ToolCall, ToolFuture, ToolSpec};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// A numeric code.
#[tool]
fn code(
    /// A code of digits only.
    #[schemars(regex(pattern = r"^[0-9]+$"))]
    code: String,
) -> String {
    code
}

/// A set of numbers.
#[tool]
fn numbers(
    /// The numbers, each once.
    numbers: HashSet<u32>,
) -> usize {
    numbers.len()
}

/// A sorted set of words.
#[tool]
fn words(
    /// The words, each once.
    words: BTreeSet<String>,
) -> usize {
    words.len()
}

/// A byte and a single-precision ratio.
#[tool]
fn narrow(
    /// A byte, 0 to 255.
    byte: u8,
    /// A ratio, if any.
    ratio: Option<f32>,
) -> String {
    format!("{byte} {ratio:?}")
}

/// A fixed version and a mode from a list, stated in the schema only.
#[tool]
fn fixed(
    /// The version: "v1".
    #[schemars(extend("const" = "v1"))]
    version: String,
    /// The mode: "fast" or "safe".
    #[schemars(extend("enum" = ["fast", "safe"]))]
    mode: Option<String>,
) -> String {
    format!("{version} {mode:?}")
}

/// A shape, tagged by `kind` (`oneOf` in the schema).
#[derive(Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Shape {
    /// A circle.
    Circle {
        /// Its radius.
        #[schemars(range(min = 0))]
        radius: f64,
    },
    /// A square.
    Square {
        /// Its side.
        #[schemars(range(min = 0))]
        side: f64,
    },
}

/// A limit, by count or by name (untagged: `anyOf` in the schema).
#[derive(Deserialize, JsonSchema)]
#[serde(untagged)]
enum Limit {
    /// At most this many.
    Count {
        /// How many.
        #[schemars(range(min = 1))]
        count: u32,
    },
    /// Up to the one named.
    Name {
        /// The name.
        #[schemars(length(min = 2))]
        name: String,
    },
}

/// Draws a shape up to a limit.
#[tool]
fn draw(
    /// The shape to draw.
    shape: Shape,
    /// The largest area to draw, if any.
    limit: Option<Limit>,
) -> String {
    let area = match shape {
        Shape::Circle { radius } => 3.0 * radius * radius,
        Shape::Square { side } => side * side,
    };
    let limit = match limit {
        None => "none".to_owned(),
        Some(Limit::Count { count }) => count.to_string(),
        Some(Limit::Name { name }) => name,
    };
    format!("{area} {limit}")
}

/// Both or neither of `from` and `to`, stated with `dependentRequired`.
#[derive(Deserialize, JsonSchema)]
#[schemars(extend("dependentRequired" = {"from": ["to"]}))]
struct Span {
    from: Option<u32>,
    to: Option<u32>,
}

/// A span.
#[tool]
fn span(
    /// The span, from one point to another.
    span: Span,
) -> String {
    format!("{:?} {:?}", span.from, span.to)
}

/// An address: `format: "email"`, which nothing here enforces.
#[tool]
fn mail(
    /// The address to write to.
    #[schemars(email)]
    to: String,
) -> String {
    to
}

/// Arguments whose schema uses a keyword argument checking does not know.
#[derive(JsonSchema)]
#[allow(dead_code)]
#[schemars(extend("unevaluatedProperties" = {"type": "string"}))]
struct Loose {
    name: String,
}

/// Arguments whose pattern the regex engine cannot compile (look-ahead).
#[derive(JsonSchema)]
#[allow(dead_code)]
struct Lookahead {
    #[schemars(regex(pattern = r"^(?=a)\w+$"))]
    name: String,
}

/// A meeting: a time and a date-time, formats argument checking enforces.
#[tool]
fn meet(
    /// When the meeting starts, as an RFC 3339 date-time.
    #[schemars(extend("format" = "date-time"))]
    at: String,
    /// The time of day it repeats at, if it does.
    #[schemars(extend("format" = "time"))]
    daily: Option<String>,
) -> String {
    format!("{at} {daily:?}")
}

/// A hand-made tool over any argument type.
struct Manual(ToolSpec);

impl Tool for Manual {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    fn call(&self, _call: ToolCall) -> ToolFuture {
        Box::pin(async { "called".into_tool_result() })
    }
}

fn toolbox() -> Toolbox {
    Toolbox::new().tool(code).tool(numbers).tool(words).tool(narrow).tool(fixed).tool(draw).tool(span).tool(meet)
}

async fn error(name: &str, arguments: Value) -> String {
    let result = toolbox().tools().call(name, arguments).await.expect("the call starts");
    assert!(result.is_error(), "{name} should fail, gave {}", result.value());
    result.value().to_owned()
}

async fn ok(name: &str, arguments: Value) -> String {
    let result = toolbox().tools().call(name, arguments).await.expect("the call starts");
    assert!(!result.is_error(), "{name} should succeed, gave {}", result.value());
    result.value().to_owned()
}

#[tokio::test]
async fn a_pattern_is_enforced() {
    let schema = toolbox().tools().definition("code").unwrap().input_schema;
    assert_eq!(schema["properties"]["code"]["pattern"], "^[0-9]+$");
    assert_eq!(ok("code", json!({"code": "0042"})).await, "0042");
    assert_eq!(
        error("code", json!({"code": "abc"})).await,
        "Invalid arguments for tool code: `code`: \"abc\" does not match the pattern ^[0-9]+$"
    );
}

#[tokio::test]
async fn unique_items_are_enforced_though_serde_would_dedupe() {
    let schema = toolbox().tools().definition("numbers").unwrap().input_schema;
    assert_eq!(schema["properties"]["numbers"]["uniqueItems"], true);
    assert_eq!(ok("numbers", json!({"numbers": [1, 2]})).await, "2");
    assert_eq!(
        error("numbers", json!({"numbers": [1, 2, 1]})).await,
        "Invalid arguments for tool numbers: `numbers`: has duplicate items (1 appears more than once)"
    );
    assert_eq!(
        error("words", json!({"words": ["a", "b", "a"]})).await,
        "Invalid arguments for tool words: `words`: has duplicate items (\"a\" appears more than once)"
    );
}

#[tokio::test]
async fn number_formats_are_enforced() {
    assert_eq!(ok("narrow", json!({"byte": 255, "ratio": 0.5})).await, "255 Some(0.5)");
    // serde refuses first, with its own message.
    assert_eq!(
        error("narrow", json!({"byte": 300})).await,
        "Invalid arguments for tool narrow: `byte`: invalid value: integer `300`, expected u8"
    );
    // serde would turn this into infinity; `format: float` refuses it.
    assert_eq!(
        error("narrow", json!({"byte": 1, "ratio": 1e300})).await,
        "Invalid arguments for tool narrow: `ratio`: 1e+300 is out of the range of float"
    );
}

/// Found by the `arguments` fuzz target: a time offset of six bytes with a
/// non-ASCII character in it (`+0é00`) was sliced inside the character, and
/// the check panicked instead of refusing the value.
#[tokio::test]
async fn a_time_offset_with_a_non_ascii_character_is_refused() {
    assert_eq!(ok("meet", json!({"at": "2024-01-01T10:00:00+02:00"})).await, "2024-01-01T10:00:00+02:00 None");
    assert_eq!(
        error("meet", json!({"at": "2024-01-01T10:00:00+0é00"})).await,
        "Invalid arguments for tool meet: `at`: \"2024-01-01T10:00:00+0é00\" is not a valid date-time"
    );
    assert_eq!(
        error("meet", json!({"at": "2024-01-01T10:00:00Z", "daily": "10:00:00+02é0"})).await,
        "Invalid arguments for tool meet: `daily`: \"10:00:00+02é0\" is not a valid time"
    );
}

#[tokio::test]
async fn const_and_enum_are_enforced() {
    assert_eq!(ok("fixed", json!({"version": "v1", "mode": "safe"})).await, "v1 Some(\"safe\")");
    assert_eq!(
        error("fixed", json!({"version": "v2"})).await,
        "Invalid arguments for tool fixed: `version`: \"v2\" is not the allowed value \"v1\""
    );
    assert_eq!(
        error("fixed", json!({"version": "v1", "mode": "slow"})).await,
        "Invalid arguments for tool fixed: `mode`: \"slow\" is not one of \"fast\", \"safe\""
    );
}

#[tokio::test]
async fn a_tagged_enum_checks_the_variant_its_tag_names() {
    let schema = toolbox().tools().definition("draw").unwrap().input_schema;
    assert!(schema["$defs"]["Shape"]["oneOf"].is_array(), "{schema}");
    assert!(schema["$defs"]["Limit"]["anyOf"].is_array(), "{schema}");
    assert_eq!(ok("draw", json!({"shape": {"kind": "square", "side": 2}})).await, "4 none");
    assert_eq!(
        error("draw", json!({"shape": {"kind": "square", "side": -1}})).await,
        "Invalid arguments for tool draw: `shape.side`: -1 is less than the minimum 0"
    );
    assert_eq!(
        error("draw", json!({"shape": {"kind": "circle", "radius": -2}})).await,
        "Invalid arguments for tool draw: `shape.radius`: -2 is less than the minimum 0"
    );
    // An unknown tag is serde's to report.
    assert_eq!(
        error("draw", json!({"shape": {"kind": "star"}})).await,
        "Invalid arguments for tool draw: `shape.kind`: unknown variant `star`, expected `circle` or `square`"
    );
}

#[tokio::test]
async fn an_untagged_enum_checks_the_variant_the_value_fits() {
    let square = json!({"kind": "square", "side": 1});
    assert_eq!(ok("draw", json!({"shape": square, "limit": {"count": 3}})).await, "1 3");
    assert_eq!(ok("draw", json!({"shape": square, "limit": {"name": "ab"}})).await, "1 ab");
    assert_eq!(
        error("draw", json!({"shape": square, "limit": {"count": 0}})).await,
        "Invalid arguments for tool draw: `limit.count`: 0 is less than the minimum 1"
    );
    assert_eq!(
        error("draw", json!({"shape": square, "limit": {"name": "a"}})).await,
        "Invalid arguments for tool draw: `limit.name`: has 1 characters, fewer than the minimum 2"
    );
}

#[tokio::test]
async fn dependent_required_is_enforced() {
    assert_eq!(ok("span", json!({"span": {"from": 1, "to": 2}})).await, "Some(1) Some(2)");
    assert_eq!(ok("span", json!({"span": {"to": 2}})).await, "None Some(2)");
    assert_eq!(
        error("span", json!({"span": {"from": 1}})).await,
        "Invalid arguments for tool span: `span`: missing field `to`, required when `from` is given"
    );
}

#[test]
fn an_unenforceable_format_is_refused_when_the_toolbox_is_built() {
    let error = Toolbox::new().tools().try_add(mail).unwrap_err();
    let AddToolError::Unenforceable(refusal) = &error else {
        panic!("expected a schema refusal, got {error:?}");
    };
    assert_eq!(refusal.tool(), "mail");
    assert_eq!(
        error.to_string(),
        "the tool `mail` cannot be added: its input schema's `format` at #/properties/to \
         is \"email\", a format argument checking does not enforce"
    );
}

#[test]
#[should_panic(expected = "the tool `mail` cannot be added")]
fn tool_panics_on_an_unenforceable_schema() {
    let _ = Toolbox::new().tool(mail);
}

#[test]
fn a_hand_made_tool_with_an_unknown_keyword_is_refused() {
    let toolbox = Toolbox::new();
    let spec = ToolSpec::new::<Loose>("loose");
    assert!(spec.schema_problem().is_some());
    let error = toolbox.tools().try_add(Manual(spec)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the tool `loose` cannot be added: its input schema's `unevaluatedProperties` at # \
         is a keyword argument checking does not enforce: remove it, or check the value in the tool"
    );
    assert!(toolbox.tools().is_empty());
}

#[test]
fn a_hand_made_tool_whose_pattern_does_not_compile_is_refused() {
    let error = Toolbox::new().tools().try_add(Manual(ToolSpec::new::<Lookahead>("lookahead"))).unwrap_err();
    let message = error.to_string();
    assert!(
        message.starts_with(
            "the tool `lookahead` cannot be added: its input schema's `pattern` at #/properties/name \
             is \"^(?=a)\\\\w+$\", which argument checking cannot compile: "
        ),
        "{message}"
    );
}

#[test]
fn a_duplicate_name_is_still_its_own_error() {
    let toolbox = Toolbox::new().tool(code);
    let error = toolbox.tools().try_add(code).unwrap_err();
    assert!(matches!(error, AddToolError::Duplicate(_)));
    assert_eq!(error.to_string(), "the toolbox already has a tool named `code`; tool names must be unique");
}

#[tokio::test]
async fn a_hand_made_tool_with_a_plain_schema_is_added_and_called() {
    /// Plain arguments.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Plain {
        name: String,
    }
    let toolbox = Toolbox::new();
    let spec = ToolSpec::new::<Plain>("plain");
    assert_eq!(spec.schema_problem(), None);
    toolbox.tools().try_add(Manual(spec)).unwrap();
    assert_eq!(toolbox.tools().call("plain", json!({"name": "x"})).await.unwrap().value(), "called");
}

/// Arguments whose schema is written by hand: every way a local `$ref` can
/// name its target (a `$defs` pointer, a `definitions` pointer, an `$anchor`).
#[derive(Debug, Deserialize)]
struct Referring {
    #[allow(dead_code)]
    by_pointer: Option<String>,
    #[allow(dead_code)]
    by_old_pointer: Option<String>,
    #[allow(dead_code)]
    by_anchor: Option<String>,
}

impl JsonSchema for Referring {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Referring".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "properties": {
                "by_pointer": {"$ref": "#/$defs/Short"},
                "by_old_pointer": {"$ref": "#/definitions/Digits"},
                "by_anchor": {"$ref": "#upper"}
            },
            "$defs": {"Short": {"type": "string", "maxLength": 3}, "Upper": {"$anchor": "upper", "type": "string", "pattern": "^[A-Z]+$"}},
            "definitions": {"Digits": {"type": "string", "pattern": "^[0-9]+$"}},
            "additionalProperties": false
        })
    }
}

/// A hand-written tool decoding [`Referring`], as `#[tool]` would.
struct Decoding(ToolSpec);

impl Tool for Decoding {
    fn spec(&self) -> &ToolSpec {
        &self.0
    }

    fn call(&self, mut call: ToolCall) -> ToolFuture {
        let decoded = codeagent::tools::decode_arguments::<Referring>(&self.0, &mut call);
        Box::pin(async move { decoded.map(|_| "decoded").into_tool_result() })
    }
}

#[tokio::test]
async fn references_resolve_alike_in_checking_and_in_the_client_compatible_form() {
    let spec = ToolSpec::new::<Referring>("referring");
    let toolbox = Toolbox::new().tool(Decoding(spec.clone()));
    // The checker follows each kind of reference to its target's constraint.
    for (arguments, problem) in [
        (json!({"by_pointer": "four"}), "`by_pointer`"),
        (json!({"by_old_pointer": "x1"}), "`by_old_pointer`"),
        (json!({"by_anchor": "lower"}), "`by_anchor`"),
    ] {
        let result = toolbox.tools().call("referring", arguments.clone()).await.unwrap();
        assert!(result.is_error() && result.value().contains(problem), "{arguments}: {}", result.value());
    }
    let fine = toolbox
        .tools()
        .call("referring", json!({"by_pointer": "abc", "by_old_pointer": "12", "by_anchor": "UP"}))
        .await;
    assert!(!fine.unwrap().is_error());
    // The client-compatible form inlines the same targets and keeps no definitions.
    let inlined = codeagent::schema::client_compatible(&spec.definition().input_schema);
    assert_eq!(inlined["properties"]["by_pointer"], json!({"type": "string", "maxLength": 3}));
    assert_eq!(inlined["properties"]["by_old_pointer"], json!({"type": "string", "pattern": "^[0-9]+$"}));
    assert_eq!(inlined["properties"]["by_anchor"]["pattern"], "^[A-Z]+$");
    assert!(inlined.get("$defs").is_none() && inlined.get("definitions").is_none(), "{inlined}");
    // The 2026-07-28 listing states the schema as written.
    let listed = toolbox.tools().list(None).unwrap().to_wire(ProtocolVersion::V2026_07_28);
    assert_eq!(listed["tools"][0]["inputSchema"]["properties"]["by_anchor"], json!({"$ref": "#upper"}));
    assert_eq!(listed["tools"][0]["inputSchema"]["$defs"]["Upper"]["$anchor"], "upper");
}

/// The same schemas, read by every part of codeagent that follows `$ref`s:
/// argument checking, decoding, the client-compatible form, the OpenAI and
/// Anthropic strict forms, the Gemini form and the elicitation form check.
/// Each reference that names a schema reaches the same target in all of them
/// (they all see what the same schema written without references gives), and
/// each broken one (a cycle, a too long chain, a dangling pointer) is refused
/// by all of them with the same reason.
mod one_reference_walk {
    use codeagent::ask::form_schema;
    use codeagent::prelude::*;
    use codeagent::provider::{self, Provider, Strictness};
    use codeagent::schema::client_compatible;
    use codeagent::tools::{Tool, ToolCall, ToolFuture, ToolSpec, decode_arguments};
    use schemars::JsonSchema;
    use serde_json::{Map, Value, json};

    /// The target every good reference names: an optional count of at least 5.
    fn target() -> Value {
        json!({"type": ["integer", "null"], "minimum": 5})
    }

    fn anchored() -> Value {
        json!({"$anchor": "count", "type": ["integer", "null"], "minimum": 5})
    }

    fn object(x: Value, extra: Value) -> Value {
        let mut schema = json!({"type": "object", "properties": {"x": x}});
        schema.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        schema
    }

    /// The schemas, by index: 0 says it without references, 1..=4 by each
    /// kind of reference, 5..=7 are broken.
    fn schema(index: usize) -> Value {
        match index {
            0 => object(target(), json!({})),
            1 => object(json!({"$ref": "#/$defs/Count"}), json!({"$defs": {"Count": target()}})),
            2 => object(json!({"$ref": "#/definitions/Count"}), json!({"definitions": {"Count": target()}})),
            3 => object(json!({"$ref": "#count"}), json!({"$defs": {"Count": anchored()}})),
            // Nested: a `$defs` pointer to a `definitions` pointer to an anchor.
            4 => object(
                json!({"$ref": "#/$defs/Outer"}),
                json!({"$defs": {"Outer": {"$ref": "#/definitions/Mid"}, "Count": anchored()},
                    "definitions": {"Mid": {"$ref": "#count"}}}),
            ),
            5 => object(
                json!({"$ref": "#/$defs/A"}),
                json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}),
            ),
            6 => {
                let mut chain = Map::new();
                for n in 0..40 {
                    chain.insert(format!("D{n}"), json!({"$ref": format!("#/$defs/D{}", n + 1)}));
                }
                chain.insert("D40".into(), target());
                object(json!({"$ref": "#/$defs/D0"}), json!({"$defs": chain}))
            }
            7 => object(json!({"$ref": "#/$defs/Missing"}), json!({"$defs": {"Count": target()}})),
            _ => unreachable!(),
        }
    }

    /// Why each broken schema is refused, the same words from every walk.
    const REFUSALS: [(usize, &str); 3] = [
        (5, "is \"#/$defs/A\", which leads back to itself through references alone"),
        (6, "is \"#/$defs/D0\", which starts a chain of more than 32 references"),
        (7, "is \"#/$defs/Missing\", which does not name a definition of this schema"),
    ];

    /// Arguments whose schema is [`schema`]`(N)`.
    struct Raw<const N: usize>;

    impl<const N: usize> JsonSchema for Raw<N> {
        fn schema_name() -> std::borrow::Cow<'static, str> {
            format!("Raw{N}").into()
        }

        fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
            schemars::Schema::try_from(schema(N)).unwrap()
        }
    }

    /// A tool listed with `listed` that decodes its arguments (as JSON) by
    /// `decoding`'s schema, as `#[tool]` would.
    struct Decoding {
        listed: ToolSpec,
        decoding: ToolSpec,
    }

    impl Tool for Decoding {
        fn spec(&self) -> &ToolSpec {
            &self.listed
        }

        fn call(&self, mut call: ToolCall) -> ToolFuture {
            let decoded = decode_arguments::<Value>(&self.decoding, &mut call);
            Box::pin(async move { decoded.map(|arguments| arguments.to_string()).into_tool_result() })
        }
    }

    fn spec<const N: usize>() -> ToolSpec {
        ToolSpec::new::<Raw<N>>("walk")
    }

    /// Every walk's view of one schema, to compare with another's.
    #[derive(Debug, PartialEq)]
    struct Seen {
        calls: Vec<(bool, String)>,
        client_compatible: Value,
        providers: Vec<Value>,
        form: Value,
    }

    const PROVIDERS: [(Provider, Strictness); 4] = [
        (Provider::OpenAiChat, Strictness::Strict),
        (Provider::Anthropic, Strictness::Strict),
        (Provider::Gemini, Strictness::Lenient),
        (Provider::OpenAiChat, Strictness::Lenient),
    ];

    async fn seen<const N: usize>() -> Seen {
        let spec = spec::<N>();
        assert_eq!(spec.schema_problem(), None, "schema {N}");
        let toolbox = Toolbox::new().tool(Decoding { listed: spec.clone(), decoding: spec.clone() });
        let mut calls = Vec::new();
        // 3 breaks the target's minimum, 7 keeps it, and a `null` stays a
        // `null` (the target admits it) rather than being dropped as absent.
        for arguments in [json!({"x": 3}), json!({"x": 7}), json!({"x": null}), json!({"x": "seven"})] {
            let result = toolbox.tools().call("walk", arguments).await.unwrap();
            calls.push((result.is_error(), result.value().to_owned()));
        }
        let definition = spec.definition().clone();
        let providers = PROVIDERS
            .iter()
            .map(|(provider, strictness)| {
                provider::tools_for(std::slice::from_ref(&definition), *provider, *strictness).unwrap().tools
            })
            .collect();
        Seen {
            calls,
            client_compatible: client_compatible(&definition.input_schema),
            providers,
            form: form_schema::<Raw<N>>().unwrap(),
        }
    }

    async fn refused<const N: usize>() {
        let reason = REFUSALS.iter().find(|(index, _)| *index == N).unwrap().1;
        let spec = spec::<N>();
        // Argument checking: the toolbox will not take the tool.
        let added = Toolbox::new().tools().try_add(Decoding { listed: spec.clone(), decoding: spec.clone() });
        let message = added.unwrap_err().to_string();
        assert!(message.contains(&format!("`$ref` at #/properties/x {reason}")), "checking {N}: {message}");
        // Decoding by that schema refuses the arguments, for the same reason.
        let toolbox = Toolbox::new().tool(Decoding { listed: ToolSpec::new::<Raw<0>>("walk"), decoding: spec.clone() });
        let result = toolbox.tools().call("walk", json!({"x": 7})).await.unwrap();
        assert!(result.is_error() && result.value().contains(reason), "decoding {N}: {}", result.value());
        // The client-compatible form inlines nothing of it.
        let schema = &spec.definition().input_schema;
        let mut unchanged = schema.clone();
        unchanged.as_object_mut().unwrap().remove("$schema");
        assert_eq!(client_compatible(schema), unchanged, "client_compatible {N}");
        // Every provider form refuses the tool.
        for (provider, strictness) in PROVIDERS {
            let refused =
                provider::tools_for(std::slice::from_ref(spec.definition()), provider, strictness).unwrap_err();
            assert!(refused[0].reason.contains(reason), "{provider} {strictness:?} {N}: {}", refused[0].reason);
        }
        // The elicitation form check refuses it.
        let form = form_schema::<Raw<N>>().unwrap_err();
        assert!(form.reason.contains(reason), "form {N}: {form}");
    }

    #[tokio::test]
    async fn every_walk_reaches_the_same_target() {
        let plain = seen::<0>().await;
        assert!(plain.calls[0].0, "{:?}", plain.calls);
        assert_eq!(plain.calls[1], (false, json!({"x": 7}).to_string()));
        assert_eq!(plain.calls[2], (false, json!({"x": null}).to_string()));
        assert_eq!(plain.client_compatible["properties"]["x"], target());
        assert_eq!(plain.form["properties"]["x"], json!({"type": "integer", "minimum": 5}));
        assert_eq!(seen::<1>().await, plain, "$defs");
        assert_eq!(seen::<2>().await, plain, "definitions");
        assert_eq!(seen::<3>().await, plain, "$anchor");
        assert_eq!(seen::<4>().await, plain, "nested");
    }

    #[tokio::test]
    async fn every_walk_refuses_the_same_broken_references() {
        refused::<5>().await;
        refused::<6>().await;
        refused::<7>().await;
    }
}
