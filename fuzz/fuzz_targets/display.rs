//! Any JSON as a result, an event or presentation options, and any text as
//! Markdown, through the display renderer (`display::render`,
//! `markdown_to_html`, `Display::from_value`, `Html::escape`): nothing
//! panics, and no card holds a `<script`, an unknown tag, an event handler or
//! a link or image with an unsafe scheme, whatever the input.
//!
//! The first byte picks how the rest is read: as JSON (a result, an event,
//! an MCP result, display options), or as Markdown and text.
#![no_main]

use codeagent::display::{Display, Html, markdown_to_html, render};
use codeagent::{Code, Diff, IntoToolResult, Text, ToolError, ToolResult, ToolResultEvent};
use codeagent_test_support::html::assert_safe_html;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fn check_json(raw: &Value) {
    assert_safe_html(render(raw).as_str());
    let result = ToolResult::adapt(raw);
    assert_safe_html(render(&result).as_str());
    assert_safe_html(render(&ToolResultEvent::adapt(raw)).as_str());
    assert_safe_html(render(&ToolResult::from_mcp(raw)).as_str());
    if let Some(display) = Display::from_value(raw) {
        assert!(Display::from_value(&display.to_value()).is_some(), "options read back are not options: {raw}");
        assert!(display.trusted_html().is_none(), "html from JSON came out trusted: {raw}");
        assert_safe_html(render(&ToolResult::new("v").with_display(display)).as_str());
    }
    let wrapped = json!({"value": "v", "extra": {"display": raw}});
    assert_safe_html(render(&wrapped).as_str());
    assert_safe_html(render(&ToolResult::adapt(&wrapped)).as_str());
}

fn check_text(text: &str) {
    let escaped = Html::escape(text);
    assert!(!escaped.as_str().contains(['<', '>', '"', '\'']), "escaping left markup: {escaped}");
    assert_safe_html(markdown_to_html(text).as_str());
    let (first, second) = text.split_at(text.char_indices().nth(text.chars().count() / 2).map_or(0, |(at, _)| at));
    let results = [
        Text::new(text).with_title(first).into_tool_result(),
        Code::new(first).with_lang(second).with_filename(second).with_output(text).into_tool_result(),
        Diff::new(first, second).with_path(text).into_tool_result(),
        ToolError::new(first).with_detail(second).into_tool_result(),
        ToolResult::new(first).with_display(Display::new().with_title(second).with_markdown(text)),
        ToolResult::new(first).with_display(Display::new().with_icon(second).with_text(text)),
    ];
    for result in results {
        assert_safe_html(render(&result).as_str());
        assert_safe_html(render(&result.clone().into_event("c", "n")).as_str());
        let wire = serde_json::to_value(&result).unwrap_or_else(|error| panic!("{error}"));
        assert_safe_html(render(&wire).as_str());
    }
    check_json(&json!({"value": first, "extra": {"display": {"html": text, "markdown": second, "title": first}}}));
}

fuzz_target!(|input: &[u8]| {
    let Some((&pick, rest)) = input.split_first() else { return };
    if pick % 2 == 0 {
        if let Ok(raw) = serde_json::from_slice::<Value>(rest) {
            check_json(&raw);
        }
    } else if let Ok(text) = std::str::from_utf8(rest) {
        check_text(text);
    }
});
