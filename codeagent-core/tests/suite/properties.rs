//! Property tests of the trust boundary: arbitrary JSON, and near-valid
//! artifacts (a valid artifact with fields replaced by arbitrary JSON or
//! removed), in the three wire shapes (result, event, MCP `CallToolResult`).
//!
//! - nothing panics: `ToolResult::adapt`, `ToolResultEvent::adapt`, the
//!   `Channels` accessors on `Value`, `Display::from_value`, `display::render`;
//! - adaptation keeps a string `value` exactly;
//! - the adapted result always has a valid artifact (`Versions::Any`), and a v1
//!   one unless the input's artifact was a valid future version;
//! - adapting twice equals adapting once;
//! - the accessors on a result's JSON agree with the result;
//! - a rendered card never contains a `<script` tag, only known tags, and no
//!   link or image URL with a scheme outside http, https, mailto (and
//!   `data:image/...` for embedded images).

use codeagent_core::artifact::{ArtifactRef, Versions};
use codeagent_core::display::{Display, Html, markdown_to_html, render};
use codeagent_core::mcp::ARTIFACT_META_KEY;
use codeagent_core::{Channels, Code, Diff, IntoToolResult, Table, Text, ToolError, ToolResult, ToolResultEvent};
use codeagent_test_support::html::assert_safe_html;
use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::{Map, Value, json};

// ---------------------------------------------------------------------------
// strategies
// ---------------------------------------------------------------------------

const INTERESTING_STRINGS: &[&str] = &[
    "",
    "codeagent.tool-artifact",
    "text",
    "table",
    "image",
    "code",
    "diff",
    "error",
    "success",
    "chart",
    "1",
    "2",
    "<script>alert(1)</script>",
    "<SCRIPT src=//x>",
    "<img src=x onerror=alert(1)>",
    "javascript:alert(1)",
    "[x](javascript:alert(1))",
    "<javascript:alert(1)>",
    "```",
    "\"><script>",
    "' onmouseover='x",
    "&lt;script&gt;",
    "&#60;script&#62;",
    "image/svg+xml",
    "image/png",
    "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+",
    "a|b\nc",
    "é🎉",
];

const INTERESTING_KEYS: &[&str] = &[
    "value",
    "is_error",
    "isError",
    "error",
    "extra",
    "codeagent",
    "artifact",
    "rejected",
    "display",
    "toolcard",
    "right_output",
    "schema",
    "version",
    "kind",
    "status",
    "icon",
    "title",
    "payload",
    "html",
    "markdown",
    "text",
    "open",
    "id",
    "name",
    "request",
    "_meta",
    ARTIFACT_META_KEY,
    "df",
    "columns",
    "rows",
    "images",
    "mime",
    "b64",
    "message",
    "detail",
    "old",
    "new",
    "lang",
    "filename",
    "output",
];

fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(INTERESTING_STRINGS).prop_map(str::to_owned),
        2 => ".{0,12}",
        1 => proptest::collection::vec(proptest::sample::select(INTERESTING_STRINGS), 0..4).prop_map(|parts| parts.concat()),
    ]
}

fn arb_key() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(INTERESTING_KEYS).prop_map(str::to_owned),
        1 => "[a-z_]{0,6}",
    ]
}

fn arb_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        proptest::sample::select(vec![0i64, 1, 2, 3, -1, i64::MIN, i64::MAX]).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        proptest::sample::select(vec![0.0, 1.0, 2.0, 1.5, -1.0, 1e300, 9007199254740993.0, f64::MAX, 0.1])
            .prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
    ]
}

fn arb_leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        arb_number(),
        arb_string().prop_map(Value::String),
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    arb_leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            proptest::collection::vec((arb_key(), inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// Valid v1 artifacts of every kind, with strings that must be escaped.
fn valid_artifacts() -> Vec<Value> {
    let v1 = |kind: &str, payload: Value| {
        json!({"schema": "codeagent.tool-artifact", "version": 1, "kind": kind, "status": "success",
               "icon": "i<b>", "title": "<script>t</script>", "payload": payload})
    };
    vec![
        v1("text", json!({"text": "<script>alert(1)</script> [x](javascript:y)"})),
        v1("table", json!({"df": {"columns": [{"name": "<th>", "type": "string"}], "rows": [["<td>"], [1], [null]]}})),
        v1(
            "image",
            json!({"images": [{"mime": "image/png", "b64": "iVBORw0KGgo="}, {"mime": "image/svg+xml", "b64": "PHN2Zz4="}], "output": "<o>"}),
        ),
        v1("code", json!({"text": "</code><script>", "lang": "\"><x", "filename": "<f>", "output": "<o>"})),
        v1("diff", json!({"old": "<a>\n", "new": "<b>\n", "path": "<p>"})),
        v1("error", json!({"message": "<m>", "detail": {"d": "<d>"}})),
        json!({"schema": "codeagent.tool-artifact", "version": 2, "kind": "chart", "status": "success", "icon": null, "title": null, "payload": {}}),
    ]
}

const ARTIFACT_FIELDS: [&str; 7] = ["schema", "version", "kind", "status", "icon", "title", "payload"];

#[derive(Clone, Debug)]
enum Mutation {
    Keep,
    Remove,
    Replace(Value),
}

fn arb_mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => Just(Mutation::Keep),
        1 => Just(Mutation::Remove),
        2 => arb_json().prop_map(Mutation::Replace),
        1 => arb_number().prop_map(Mutation::Replace),
    ]
}

/// A valid artifact with each outer field kept, removed or replaced, and
/// sometimes one payload field replaced too.
fn near_valid_artifact() -> impl Strategy<Value = Value> {
    (
        proptest::sample::select(valid_artifacts()),
        proptest::collection::vec(arb_mutation(), 7),
        proptest::option::of((arb_key(), arb_json())),
    )
        .prop_map(|(mut artifact, mutations, payload_field)| {
            let object = artifact.as_object_mut().unwrap();
            for (field, mutation) in ARTIFACT_FIELDS.iter().zip(mutations) {
                match mutation {
                    Mutation::Keep => {}
                    Mutation::Remove => {
                        object.remove(*field);
                    }
                    Mutation::Replace(value) => {
                        object.insert((*field).to_owned(), value);
                    }
                }
            }
            if let (Some((key, value)), Some(Value::Object(payload))) = (payload_field, object.get_mut("payload")) {
                payload.insert(key, value);
            }
            artifact
        })
}

fn arb_artifact() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => near_valid_artifact(),
        1 => proptest::sample::select(valid_artifacts()),
        1 => arb_json(),
    ]
}

/// Display options: valid, legacy cards, or anything.
fn arb_display() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        (arb_string(), arb_string(), arb_string())
            .prop_map(|(title, html, markdown)| json!({"title": title, "html": html, "markdown": markdown})),
        (arb_string(), arb_json()).prop_map(|(text, other)| json!({"text": text, "custom": other})),
        arb_json().prop_map(|card| json!({"toolcard": card})),
        arb_json().prop_map(|card| json!({"right_output": card})),
        near_valid_artifact().prop_map(|card| json!({"toolcard": card, "open": true})),
        arb_json(),
    ]
}

fn arb_value_field() -> impl Strategy<Value = Value> {
    prop_oneof![3 => arb_string().prop_map(Value::String), 1 => arb_json()]
}

fn arb_flag() -> impl Strategy<Value = Value> {
    prop_oneof![3 => any::<bool>().prop_map(Value::Bool), 1 => arb_json()]
}

/// Inserts `value` under `key` unless the strategy chose to leave it out.
fn put(object: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    if let Some(value) = value {
        object.insert(key.to_owned(), value);
    }
}

fn result_shape() -> impl Strategy<Value = Value> {
    (
        proptest::option::weighted(0.9, arb_value_field()),
        proptest::option::of(arb_flag()),
        proptest::option::weighted(0.2, arb_json()),
        proptest::option::weighted(0.9, arb_artifact()),
        proptest::option::weighted(0.5, arb_display()),
        proptest::option::weighted(0.3, (arb_key(), arb_json())),
        proptest::option::weighted(0.1, arb_json()),
    )
        .prop_map(|(value, is_error, error, artifact, display, other, weird_extra)| {
            let mut codeagent = Map::new();
            put(&mut codeagent, "artifact", artifact);
            let mut extra = Map::new();
            extra.insert("codeagent".into(), Value::Object(codeagent));
            put(&mut extra, "display", display);
            let mut object = Map::new();
            put(&mut object, "value", value);
            put(&mut object, "is_error", is_error);
            put(&mut object, "error", error);
            object.insert("extra".into(), weird_extra.unwrap_or(Value::Object(extra)));
            if let Some((key, value)) = other {
                object.insert(key, value);
            }
            Value::Object(object)
        })
}

fn event_shape() -> impl Strategy<Value = Value> {
    (
        prop_oneof![arb_string().prop_map(Value::String), arb_json()],
        arb_json(),
        arb_display(),
        arb_value_field(),
        arb_flag(),
        arb_artifact(),
    )
        .prop_map(|(id, name, display, value, is_error, artifact)| {
            json!({"id": id, "name": name, "display": display, "value": value, "is_error": is_error, "artifact": artifact})
        })
}

fn mcp_shape() -> impl Strategy<Value = Value> {
    (arb_string(), arb_flag(), arb_artifact(), arb_json()).prop_map(|(text, is_error, artifact, structured)| {
        json!({"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": is_error,
               "_meta": {ARTIFACT_META_KEY: artifact}})
    })
}

/// Any input at the trust boundary.
fn arb_input() -> impl Strategy<Value = Value> {
    prop_oneof![3 => result_shape(), 2 => event_shape(), 1 => mcp_shape(), 2 => arb_json()]
}

fn config() -> Config {
    Config { cases: 512, failure_persistence: None, ..Config::default() }
}

// ---------------------------------------------------------------------------
// checks of rendered HTML
// ---------------------------------------------------------------------------

#[test]
fn the_html_checker_catches_what_it_should() {
    let unsafe_inputs = [
        "<script>x</script>",
        "<p><iframe src=x></iframe></p>",
        "<img src=\"x\" onerror=\"alert(1)\">",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<a href=\"java&#115;cript:alert(1)\">x</a>",
        "<a href=\" \tjava\nscript:alert(1)\">x</a>",
        "<img src=\"data:image/svg+xml;base64,PHN2Zz4=\">",
    ];
    for html in unsafe_inputs {
        assert!(std::panic::catch_unwind(|| assert_safe_html(html)).is_err(), "not caught: {html}");
    }
    assert_safe_html(
        "<p title=\"a onclick=b\"><a href=\"https://x\">&lt;script&gt;</a><img src=\"data:image/png;base64,AA==\" alt=\"x\"></p>",
    );
    assert_safe_html("<a href=\"#\">x</a><a href=\"relative/path:x\">y</a>");
}

/// The input's artifact, where the adapter for `shape` reads it.
/// The artifact adaptation reads: in a result-shaped input (one with `extra`)
/// at `extra.codeagent.artifact`, in an event-shaped one at `artifact`.
fn input_artifact(input: &Value) -> Option<&Value> {
    let pointer = if input.get("extra").is_some() { "/extra/codeagent/artifact" } else { "/artifact" };
    input.pointer(pointer).filter(|artifact| !artifact.is_null())
}

fn is_valid_future(artifact: Option<&Value>) -> bool {
    artifact.and_then(|artifact| ArtifactRef::parse(artifact, &Versions::Any)).is_some_and(|view| view.version() != 1)
}

fn owned(artifact: Option<ArtifactRef<'_>>) -> Option<Value> {
    artifact.map(|artifact| Value::Object(artifact.as_object().clone()))
}

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    /// Nothing at the trust boundary panics, whatever the JSON.
    #[test]
    fn nothing_panics(input in arb_input()) {
        let _ = input.value_text();
        let _ = input.raw_artifact();
        let _ = input.raw_display();
        let _ = input.reports_error();
        let _ = input.artifact();
        let _ = input.artifact_in(&Versions::Any);
        let _ = input.artifact_in(&Versions::from([1, 2]));
        let _ = Display::from_value(&input);
        if let Some(display) = input.raw_display() {
            let _ = Display::from_value(display);
        }
        let _ = render(&input);
        let result = ToolResult::adapt(&input);
        let _ = render(&result);
        let _ = result.display();
        let event = ToolResultEvent::adapt(&input);
        let _ = render(&event);
        let _ = serde_json::to_string(&result).unwrap();
        let _ = serde_json::to_string(&event).unwrap();
    }

    /// `Display::from_value` and the accessors never panic on any JSON at all.
    #[test]
    fn display_from_value_never_panics(input in arb_json()) {
        if let Some(display) = Display::from_value(&input) {
            // What it reads back is well formed.
            prop_assert!(Display::from_value(&display.to_value()).is_some());
            prop_assert!(display.trusted_html().is_none());
        }
    }

    /// A string `value` is kept byte for byte by both adapters.
    #[test]
    fn adapt_keeps_a_string_value(input in arb_input()) {
        if let Some(Value::String(value)) = input.get("value") {
            let result = ToolResult::adapt(&input);
            prop_assert_eq!(result.value(), value.as_str());
            prop_assert_eq!(&ToolResultEvent::adapt(&input).value, value);
        }
    }

    /// The adapted result has a valid artifact, and a v1 one unless the input
    /// carried a valid future version (which then travels unchanged).
    #[test]
    fn adapted_result_has_a_valid_artifact(input in arb_input()) {
        let result = ToolResult::adapt(&input);
        prop_assert!(result.artifact_in(&Versions::Any).is_some(), "no valid artifact");
        let original = input_artifact(&input);
        if is_valid_future(original) {
            prop_assert!(result.artifact().is_none());
            prop_assert_eq!(result.extra()["codeagent"].get("artifact"), original, "a future version travels unchanged");
        } else {
            prop_assert!(result.artifact().is_some(), "no v1 artifact");
        }
    }

    /// The same for streaming events.
    #[test]
    fn adapted_event_has_a_valid_artifact(input in arb_input()) {
        let event = ToolResultEvent::adapt(&input);
        prop_assert!(event.artifact_in(&Versions::Any).is_some(), "no valid artifact");
        let original = input_artifact(&input);
        if is_valid_future(original) {
            prop_assert!(event.artifact().is_none());
            prop_assert_eq!(event.artifact.as_ref(), original);
        } else {
            prop_assert!(event.artifact().is_some(), "no v1 artifact");
        }
    }

    /// Near-valid artifacts specifically, in a result: either the artifact is
    /// still valid (and kept, status aside), or it is replaced and the original
    /// is kept under `extra.codeagent.rejected`.
    #[test]
    fn near_valid_artifacts_are_kept_or_rejected(artifact in near_valid_artifact(), value in arb_string(), is_error in any::<bool>()) {
        let input = json!({"value": value, "is_error": is_error, "extra": {"codeagent": {"artifact": artifact}}});
        let result = ToolResult::adapt(&input);
        let wire = serde_json::to_value(&result).unwrap();
        prop_assert_eq!(result.value(), value.as_str());
        prop_assert!(result.artifact_in(&Versions::Any).is_some());
        let valid = ArtifactRef::parse(&artifact, &Versions::Any).is_some();
        let rejected = wire.pointer("/extra/codeagent/rejected/artifact");
        if valid {
            prop_assert!(rejected.is_none());
            let kept = result.artifact_in(&Versions::Any).unwrap();
            let original = ArtifactRef::parse(&artifact, &Versions::Any).unwrap();
            prop_assert_eq!(kept.kind_name(), original.kind_name());
            prop_assert_eq!(kept.payload(), original.payload());
            prop_assert_eq!(kept.version(), original.version());
            if original.version() == 1 && (is_error || original.kind_name() == "error") {
                let status = kept.status();
                prop_assert_eq!(status.as_str(), "error");
            }
        } else if rejected.is_none() {
            // Not valid and not rejected: only an unversioned legacy artifact may be upgraded.
            prop_assert!(artifact.get("version").is_none(), "a versioned malformed artifact was neither kept nor rejected");
            prop_assert_eq!(result.artifact().unwrap().version(), 1);
        } else {
            prop_assert_eq!(rejected, Some(&artifact));
            prop_assert_eq!(result.artifact().unwrap().version(), 1, "malformed is never a future version");
        }
    }

    /// Adapting the output of adaptation changes nothing.
    #[test]
    fn adapt_is_idempotent(input in arb_input()) {
        let once = ToolResult::adapt(&input);
        let once_wire = serde_json::to_value(&once).unwrap();
        let twice = ToolResult::adapt(&once_wire);
        prop_assert_eq!(serde_json::to_value(&twice).unwrap(), once_wire);
        prop_assert_eq!(twice, once);
    }

    /// The same for streaming events.
    #[test]
    fn event_adapt_is_idempotent(input in arb_input()) {
        let once = ToolResultEvent::adapt(&input);
        let twice = ToolResultEvent::adapt(&serde_json::to_value(&once).unwrap());
        prop_assert_eq!(twice, once);
    }

    /// Reading an adapted result through the `Value` accessors of its JSON
    /// gives the same channels as the result itself.
    #[test]
    fn accessors_on_the_json_of_a_result_agree_with_it(input in arb_input()) {
        let result = ToolResult::adapt(&input);
        let wire = serde_json::to_value(&result).unwrap();
        prop_assert_eq!(wire.value_text(), Some(result.value()));
        prop_assert_eq!(wire.reports_error(), result.is_error());
        prop_assert_eq!(owned(wire.artifact_in(&Versions::Any)), owned(result.artifact_in(&Versions::Any)));
        prop_assert_eq!(owned(wire.artifact()), owned(result.artifact()));
        prop_assert_eq!(wire.raw_display(), Channels::raw_display(&result));
        let event = result.clone().into_event("c", "n");
        let event_wire = serde_json::to_value(&event).unwrap();
        prop_assert_eq!(owned(event_wire.artifact_in(&Versions::Any)), owned(result.artifact_in(&Versions::Any)));
        prop_assert_eq!(event_wire.value_text(), Some(result.value()));
    }

    /// No input renders a script tag, an unknown tag or an unsafe URL, whether
    /// rendered raw, adapted, or as an event.
    #[test]
    fn render_is_safe_for_any_input(input in arb_input()) {
        assert_safe_html(render(&input).as_str());
        assert_safe_html(render(&ToolResult::adapt(&input)).as_str());
        assert_safe_html(render(&ToolResultEvent::adapt(&input)).as_str());
    }

    /// Typed outputs with arbitrary strings everywhere render safely.
    #[test]
    fn render_of_typed_outputs_is_safe(
        a in arb_string(), b in arb_string(), c in arb_string(), d in arb_string(), title in arb_string(), icon in arb_string(),
    ) {
        let results = vec![
            Text::new(a.clone()).with_title(title.clone()).with_icon(icon.clone()).into_tool_result(),
            Code::new(a.clone()).with_lang(b.clone()).with_filename(c.clone()).with_output(d.clone()).with_title(title.clone()).into_tool_result(),
            Diff::new(a.clone(), b.clone()).with_path(c.clone()).with_icon(icon.clone()).into_tool_result(),
            ToolError::new(a.clone()).with_detail(b.clone()).with_title(title.clone()).into_tool_result(),
            Table::new().with_column(a.clone(), [b.clone(), c.clone()]).unwrap().with_title(title.clone()).into_tool_result(),
            ToolResult::new(a.clone()),
            ToolResult::new(a.clone()).with_display(Display::new().with_title(title.clone()).with_markdown(b.clone())),
            ToolResult::new(a.clone()).with_display(Display::new().with_icon(icon.clone()).with_text(b.clone())),
        ];
        for result in results {
            assert_safe_html(render(&result).as_str());
            assert_safe_html(render(&result.clone().into_event("c", "n")).as_str());
            assert_safe_html(render(&serde_json::to_value(&result).unwrap()).as_str());
        }
        // html from JSON is untrusted wherever it appears.
        let from_json = json!({"value": a, "extra": {"display": {"html": b, "title": title}}});
        assert_safe_html(render(&from_json).as_str());
        assert_safe_html(render(&ToolResult::adapt(&from_json)).as_str());
        let display = Display::from_value(&json!({"html": c})).unwrap();
        assert_safe_html(render(&ToolResult::new(d).with_display(display)).as_str());
    }

    /// Markdown from fragments chosen to break out: no raw HTML, no unsafe URL.
    #[test]
    fn markdown_is_safe(parts in proptest::collection::vec(proptest::sample::select(vec![
        "[", "](", ")", "![", "<", ">", "javascript:", "JaVaScRiPt:", "java\tscript:", "vbscript:", "data:text/html,",
        "&#58;", "&colon;", "&#x6A;", "\u{1}", " ", "\n", "\n\n", "`", "```", "alert(1)", "<script>", "</script>",
        "<img src=x onerror=alert(1)>", "\"", "'", "*", "|", "-", "http://a.b/", "mailto:x@y", "x", "[r]: ", "<div>",
        "<!--", "-->", "<a href=\"javascript:x\">", "    ", "> ",
    ]), 0..24)) {
        let markdown = parts.concat();
        assert_safe_html(markdown_to_html(&markdown).as_str());
        assert_safe_html(render(&Text::new(markdown.clone()).into_tool_result()).as_str());
        assert_safe_html(render(&ToolResult::new("v").with_display(Display::new().with_markdown(markdown))).as_str());
    }

    /// `Html::escape` leaves no character that could open markup.
    #[test]
    fn escape_removes_markup_characters(text in ".*") {
        let html = Html::escape(&text);
        prop_assert!(!html.as_str().contains(['<', '>', '"', '\'']));
    }
}
