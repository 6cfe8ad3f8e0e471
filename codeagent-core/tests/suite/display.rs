//! The HTML card (design §5, seed 000 "Trust boundary and failure behavior"):
//! everything that is not explicit trusted HTML set in this process is
//! escaped; Markdown is rendered with raw HTML escaped and unsafe links
//! neutralised; a malformed display falls back to the artifact's card, and
//! that to the escaped value; SVG images are never embedded.

use codeagent_core::display::{Display, Html, markdown_to_html, render};
use codeagent_core::{Code, Diff, Image, IntoToolResult, Table, Text, ToolError, ToolResult};
use serde_json::{Value, json};

use crate::{PNG_1X1, PNG_1X1_B64};

const XSS: &str = "<script>alert('x')</script>";
const XSS_ESCAPED: &str = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;";

fn card(result: &impl codeagent_core::Channels) -> String {
    render(result).into_string()
}

fn assert_no_markup_from_input(html: &str) {
    let lower = html.to_ascii_lowercase();
    assert!(!lower.contains("<script"), "{html}");
    assert!(!lower.contains("<img src=x"), "{html}");
    assert!(!lower.contains("<svg"), "{html}");
    assert!(!lower.contains("href=\"javascript:") && !lower.contains("src=\"javascript:"), "{html}");
    assert!(!lower.contains("<iframe"), "{html}");
}

// ---------------------------------------------------------------------------
// exact cards of each kind
// ---------------------------------------------------------------------------

#[test]
fn text_card_exact() {
    assert_eq!(
        card(&Text::new("hi **there**").with_title("T").with_icon("wave").into_tool_result()),
        "<div class=\"codeagent-card\" data-kind=\"text\" data-status=\"success\">\
         <div class=\"codeagent-card-header\"><span class=\"codeagent-icon\" data-icon=\"wave\"></span>\
         <span class=\"codeagent-title\">T</span></div>\
         <div class=\"codeagent-card-body\"><p>hi <strong>there</strong></p>\n</div></div>"
    );
}

#[test]
fn table_card_exact_and_escaped() {
    let table = Table::new()
        .with_column("<b>region</b>", ["<td onclick=\"x()\">north</td>", "south & co"])
        .unwrap()
        .with_column("total", [Some(10), None])
        .unwrap();
    assert_eq!(
        card(&table.into_tool_result()),
        "<div class=\"codeagent-card\" data-kind=\"table\" data-status=\"success\">\
         <div class=\"codeagent-card-body\"><table><thead><tr><th>&lt;b&gt;region&lt;/b&gt;</th><th>total</th></tr></thead>\
         <tbody><tr><td>&lt;td onclick=&quot;x()&quot;&gt;north&lt;/td&gt;</td><td>10</td></tr>\
         <tr><td>south &amp; co</td><td></td></tr></tbody></table></div></div>"
    );
}

#[test]
fn table_card_is_bounded() {
    let table = Table::new().with_column("n", 0..1001).unwrap();
    let html = card(&table.into_tool_result());
    assert_eq!(html.matches("<tr>").count(), 1 + 1000);
    assert!(html.contains("<p class=\"codeagent-note\">Showing 1000 of 1001 rows.</p>"));
}

#[test]
fn code_card_exact_and_escaped() {
    let code = Code::new("if a < b && c > d { \"</code><script>\" }")
        .with_lang("rust\" onmouseover=\"x")
        .with_filename("<main>.rs")
        .with_output("<ok>");
    assert_eq!(
        card(&code.into_tool_result()),
        "<div class=\"codeagent-card\" data-kind=\"code\" data-status=\"success\"><div class=\"codeagent-card-body\">\
         <div class=\"codeagent-code-head\"><div class=\"codeagent-filename\">&lt;main&gt;.rs</div>\
         <span class=\"codeagent-lang\">rust&quot; onmouseover=&quot;x</span></div>\
         <pre><code class=\"language-rust&quot; onmouseover=&quot;x\">if a &lt; b &amp;&amp; c &gt; d { &quot;&lt;/code&gt;&lt;script&gt;&quot; }</code></pre>\
         <pre class=\"codeagent-output\">&lt;ok&gt;</pre></div></div>"
    );
}

#[test]
fn diff_card_exact_and_escaped() {
    let diff = Diff::new("keep\n<old>\n", "keep\n<script>new()</script>\n");
    assert_eq!(
        card(&diff.into_tool_result()),
        "<div class=\"codeagent-card\" data-kind=\"diff\" data-status=\"success\"><div class=\"codeagent-card-body\">\
         <pre class=\"codeagent-diff\"><span class=\"eq\"> keep\n</span><span class=\"del\">-&lt;old&gt;\n</span>\
         <span class=\"ins\">+&lt;script&gt;new()&lt;/script&gt;\n</span></pre></div></div>"
    );
}

/// The payload carries the file's path and the portable value names it
/// (`--- a/path`), but the card drops it: a reader of the card cannot tell
/// which file changed. The code card shows its file name; the diff card
/// should too (escaped).
#[test]
fn diff_card_names_the_file() {
    let html = card(&Diff::new("a\n", "b\n").with_path("src/<lib>.rs").into_tool_result());
    assert!(!html.contains("<lib>"), "{html}");
    assert!(html.contains("src/&lt;lib&gt;.rs"), "the path is shown, escaped: {html}");
}

#[test]
fn error_card_exact_and_escaped() {
    let error = ToolError::new(XSS).with_detail("at <line 3>").with_title("<Failed>");
    assert_eq!(
        card(&error.into_tool_result()),
        format!(
            "<div class=\"codeagent-card\" data-kind=\"error\" data-status=\"error\">\
             <div class=\"codeagent-card-header\"><span class=\"codeagent-title\">&lt;Failed&gt;</span></div>\
             <div class=\"codeagent-card-body\"><p class=\"codeagent-error\">{XSS_ESCAPED}</p>\
             <pre>at &lt;line 3&gt;</pre></div></div>"
        )
    );
}

#[test]
fn error_detail_that_is_not_a_string_is_escaped_json() {
    let raw = json!({"value": "v", "is_error": true, "extra": {"codeagent": {"artifact": {
        "schema": "codeagent.tool-artifact", "version": 1, "kind": "error", "status": "error", "icon": null, "title": null,
        "payload": {"message": "m", "detail": {"html": "<b>x</b>"}}}}}});
    let html = card(&raw);
    assert!(html.contains("<pre>{&quot;html&quot;:&quot;&lt;b&gt;x&lt;/b&gt;&quot;}</pre>"), "{html}");
}

#[test]
fn image_card_exact() {
    let image = Image::from_bytes(PNG_1X1, "image/png").unwrap().with_output("<one> pixel").with_title("Pixel");
    assert_eq!(
        card(&image.into_tool_result()),
        format!(
            "<div class=\"codeagent-card\" data-kind=\"image\" data-status=\"success\">\
             <div class=\"codeagent-card-header\"><span class=\"codeagent-title\">Pixel</span></div>\
             <div class=\"codeagent-card-body\"><img src=\"data:image/png;base64,{PNG_1X1_B64}\" alt=\"image/png\">\
             <pre class=\"codeagent-output\">&lt;one&gt; pixel</pre></div></div>"
        )
    );
}

// ---------------------------------------------------------------------------
// escaping of every string
// ---------------------------------------------------------------------------

#[test]
fn titles_and_icons_are_escaped() {
    let html = card(&Text::new("body").with_title(XSS).with_icon("\" onmouseover=\"alert(1)").into_tool_result());
    assert!(html.contains(&format!("<span class=\"codeagent-title\">{XSS_ESCAPED}</span>")), "{html}");
    assert!(html.contains("data-icon=\"&quot; onmouseover=&quot;alert(1)\""), "{html}");
    assert_no_markup_from_input(&html);
}

#[test]
fn display_titles_from_json_are_escaped() {
    let raw = json!({"value": "v", "extra": {"display": {"title": XSS, "icon": "<i>"}}});
    for html in [card(&raw), card(&ToolResult::adapt(&raw))] {
        assert!(html.contains(XSS_ESCAPED), "{html}");
        assert!(html.contains("data-icon=\"&lt;i&gt;\""), "{html}");
        assert_no_markup_from_input(&html);
    }
}

#[test]
fn payload_text_is_markdown_with_raw_html_escaped() {
    let html = card(
        &Text::new(format!("**bold** {XSS}\n\n<img src=x onerror=alert(1)>\n\n[x](javascript:alert(1))"))
            .into_tool_result(),
    );
    assert!(html.contains("<strong>bold</strong>"), "{html}");
    assert!(html.contains("&lt;script&gt;"), "{html}");
    assert!(html.contains("&lt;img src=x onerror=alert(1)&gt;"), "{html}");
    assert!(html.contains("<a href=\"#\">x</a>"), "{html}");
    assert_no_markup_from_input(&html);
}

#[test]
fn portable_value_fallback_is_escaped() {
    let html = card(&ToolResult::new(format!("{XSS} & more")));
    assert_eq!(
        html,
        format!(
            "<div class=\"codeagent-card\" data-kind=\"text\" data-status=\"success\"><div class=\"codeagent-card-body\">\
             <pre>{XSS_ESCAPED} &amp; more</pre></div></div>"
        )
    );
}

#[test]
fn html_escape_exact() {
    assert_eq!(Html::escape("<a href=\"x\">'&'</a>").as_str(), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    assert_eq!(Html::escape("plain é 🎉").as_str(), "plain é 🎉");
}

// ---------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------

#[test]
fn markdown_raw_html_is_escaped() {
    assert_eq!(markdown_to_html("a <b>b</b>").as_str(), "<p>a &lt;b&gt;b&lt;/b&gt;</p>\n");
    let block = markdown_to_html("<div onclick=\"x\">\n<script>alert(1)</script>\n</div>");
    assert!(!block.as_str().contains("<div"), "{block}");
    assert!(block.as_str().contains("&lt;div onclick="), "{block}");
    assert!(block.as_str().contains("&lt;script&gt;"), "{block}");
    let comment = markdown_to_html("<!-- <script>x</script> -->");
    assert!(!comment.as_str().contains("<!--") && !comment.as_str().contains("<script"), "{comment}");
}

#[test]
fn markdown_unsafe_links_are_neutralised() {
    for markdown in [
        "[a](javascript:alert(1))",
        "[a](JavaScript:alert(1))",
        "[a](<javascript:alert(1)>)",
        "[a](&#106;avascript:alert(1))",
        "[a](javascript&colon;alert(1))",
        "[a](vbscript:msgbox(1))",
        "[a](data:text/html;base64,PHNjcmlwdD4=)",
        "<javascript:alert(1)>",
        "[a][r]\n\n[r]: javascript:alert(1)",
    ] {
        let html = markdown_to_html(markdown);
        assert!(html.as_str().contains("<a href=\"#\">"), "{markdown} -> {html}");
        let lower = html.as_str().to_ascii_lowercase();
        assert!(
            !lower.contains("=\"javascript") && !lower.contains("=\"vbscript") && !lower.contains("=\"data:"),
            "{markdown} -> {html}"
        );
    }
    for image in ["![alt text](javascript:alert(1))", "![alt text](https://tracker.example/pixel.png)"] {
        let html = markdown_to_html(image);
        assert_eq!(html.as_str(), "<p>alt text</p>\n", "an image is its alt text, never loaded: {image}");
    }
}

#[test]
fn markdown_safe_links_are_kept() {
    assert_eq!(
        markdown_to_html("[a](https://example.com/x?y=1)").as_str(),
        "<p><a href=\"https://example.com/x?y=1\">a</a></p>\n"
    );
    assert!(markdown_to_html("[m](mailto:a@b.c)").as_str().contains("href=\"mailto:a@b.c\""));
    assert!(markdown_to_html("[r](docs/page.html#top)").as_str().contains("href=\"docs/page.html#top\""));
    let titled = markdown_to_html("[t](https://x.y \"a\\\" onclick=\\\"b\")");
    assert!(titled.as_str().contains("title=\"a&quot; onclick=&quot;b\""), "{titled}");
}

#[test]
fn display_markdown_body_is_rendered_safely() {
    let result =
        ToolResult::new("v").with_display(Display::new().with_markdown(format!("# Head\n\n{XSS} [x](javascript:y)")));
    let html = card(&result);
    assert!(html.contains("<h1>Head</h1>"), "{html}");
    assert!(html.contains("&lt;script&gt;"), "{html}");
    assert_no_markup_from_input(&html);
}

#[test]
fn display_text_body_is_escaped() {
    let result = ToolResult::new("v").with_display(Display::new().with_text(XSS));
    let html = card(&result);
    assert!(html.contains(&format!("<pre>{XSS_ESCAPED}</pre>")), "{html}");
}

// ---------------------------------------------------------------------------
// the trusted-HTML boundary
// ---------------------------------------------------------------------------

#[test]
fn trusted_html_set_in_process_is_inserted_as_is() {
    let trusted = "<figure class=\"chart\"><svg width=\"10\"></svg></figure>";
    let result = Text::new("v")
        .into_tool_result()
        .with_display(Display::new().with_title("Chart").with_html(Html::trusted(trusted)));
    let html = card(&result);
    assert!(html.contains(&format!("<div class=\"codeagent-card-body\">{trusted}</div>")), "{html}");
    assert_eq!(result.display().unwrap().title(), Some("Chart"));
}

#[test]
fn html_read_from_json_is_escaped() {
    let raw = json!({"value": "v", "extra": {"display": {"html": "<b onclick=\"x\">bold</b>"}}});
    let escaped = "<pre>&lt;b onclick=&quot;x&quot;&gt;bold&lt;/b&gt;</pre>";
    // Raw JSON, adapted JSON, and a Display parsed from JSON and set in process.
    assert!(card(&raw).contains(escaped), "{}", card(&raw));
    let adapted = ToolResult::adapt(&raw);
    assert!(card(&adapted).contains(escaped), "{}", card(&adapted));
    let parsed = Display::from_value(&json!({"html": "<b onclick=\"x\">bold</b>"})).unwrap();
    assert!(parsed.trusted_html().is_none());
    let set = ToolResult::new("v").with_display(parsed);
    assert!(card(&set).contains(escaped), "{}", card(&set));
    // Deserialised with serde.
    let deserialised: ToolResult = serde_json::from_value(raw.clone()).unwrap();
    assert!(card(&deserialised).contains(escaped), "{}", card(&deserialised));
}

#[test]
fn trust_does_not_survive_serialisation() {
    let result = ToolResult::new("v").with_display(Display::new().with_html(Html::trusted("<b>ok</b>")));
    assert!(card(&result).contains("<b>ok</b>"));
    let wire = serde_json::to_value(&result).unwrap();
    assert!(card(&wire).contains("&lt;b&gt;ok&lt;/b&gt;"), "{}", card(&wire));
    let back: ToolResult = serde_json::from_value(wire.clone()).unwrap();
    assert!(card(&back).contains("&lt;b&gt;ok&lt;/b&gt;"), "{}", card(&back));
    assert!(card(&ToolResult::adapt(&wire)).contains("&lt;b&gt;ok&lt;/b&gt;"));
}

/// `with_display` records whether the display is trusted, but `with_extra`
/// (and `extra_mut`) can replace `extra.display` afterwards while the flag
/// stays set, so untrusted JSON is then rendered as trusted HTML.
#[test]
fn replacing_a_trusted_display_through_extra_drops_the_trust() {
    let result = ToolResult::new("v")
        .with_display(Display::new().with_html(Html::trusted("<b>ok</b>")))
        .with_extra("display", json!({"html": XSS}));
    let via_with_extra = card(&result);

    let mut result = ToolResult::new("v").with_display(Display::new().with_html(Html::trusted("<b>ok</b>")));
    result.extra_mut().insert("display".into(), json!({"html": XSS}));
    let via_extra_mut = card(&result);
    assert!(
        !via_with_extra.contains("<script") && !via_extra_mut.contains("<script"),
        "untrusted html rendered as trusted:\n with_extra: {via_with_extra}\n extra_mut:  {via_extra_mut}"
    );
}

#[test]
fn replacing_a_trusted_display_with_an_untrusted_one_drops_the_trust() {
    let result = ToolResult::new("v")
        .with_display(Display::new().with_html(Html::trusted("<b>ok</b>")))
        .with_display(Display::from_value(&json!({"html": XSS})).unwrap());
    assert!(card(&result).contains(XSS_ESCAPED));
}

// ---------------------------------------------------------------------------
// fallbacks
// ---------------------------------------------------------------------------

#[test]
fn malformed_display_falls_back_to_the_artifact_card() {
    for display in [
        json!({"title": 5, "html": "<b>x</b>"}),
        json!("<b>x</b>"),
        json!({"open": "yes", "markdown": "m"}),
        json!([1]),
    ] {
        let result = Text::new("artifact body")
            .with_title("Artifact title")
            .into_tool_result()
            .with_extra("display", display.clone());
        let html = card(&result);
        assert!(html.contains("<span class=\"codeagent-title\">Artifact title</span>"), "{display}: {html}");
        assert!(html.contains("<p>artifact body</p>"), "{display}: {html}");
        assert!(!html.contains("<b>x"), "{display}: {html}");
        // The same from raw JSON and after adaptation.
        let wire = serde_json::to_value(&result).unwrap();
        assert_eq!(card(&wire), html, "{display}");
        assert_eq!(card(&ToolResult::adapt(&wire)), html, "{display}");
    }
}

#[test]
fn without_an_artifact_a_malformed_display_falls_back_to_the_escaped_value() {
    let result = ToolResult::new("<i>value</i>").with_extra("display", json!({"title": ["x"], "html": XSS}));
    assert_eq!(
        card(&result),
        "<div class=\"codeagent-card\" data-kind=\"text\" data-status=\"success\"><div class=\"codeagent-card-body\">\
         <pre>&lt;i&gt;value&lt;/i&gt;</pre></div></div>"
    );
}

#[test]
fn an_unusable_artifact_falls_back_to_the_escaped_value() {
    let artifact = |version: Value, kind: &str, payload: Value| {
        json!({"schema": "codeagent.tool-artifact", "version": version, "kind": kind, "status": "success",
               "icon": null, "title": "Art", "payload": payload})
    };
    for artifact in [
        artifact(json!(2), "text", json!({"text": "future"})),
        artifact(json!("1"), "text", json!({"text": "malformed"})),
        artifact(json!(1), "hologram", json!({"frames": []})),
        artifact(json!(1), "text", json!({"not_text": 1})),
        artifact(json!(1), "table", json!({"df": "rows"})),
        artifact(json!(1), "code", json!({"lang": "r"})),
        artifact(json!(1), "diff", json!({"old": "a"})),
        artifact(json!(1), "error", json!({"detail": "d"})),
        artifact(json!(1), "image", json!({"images": "x"})),
    ] {
        let raw = json!({"value": format!("fallback {XSS}"), "extra": {"codeagent": {"artifact": artifact}}});
        let html = card(&raw);
        assert!(html.contains(&format!("<pre>fallback {XSS_ESCAPED}</pre>")), "{artifact}: {html}");
        assert_no_markup_from_input(&html);
    }
}

#[test]
fn display_title_overrides_and_error_status_shows() {
    let result = ToolError::new("boom")
        .with_title("Artifact")
        .into_tool_result()
        .with_display(Display::new().with_title("Display"));
    let html = card(&result);
    assert!(html.contains("data-kind=\"error\" data-status=\"error\""), "{html}");
    assert!(html.contains(">Display<") && !html.contains(">Artifact<"), "{html}");
    let flagged = Text::new("t").into_tool_result().with_error(true);
    assert!(card(&flagged).contains("data-status=\"error\""));
}

// ---------------------------------------------------------------------------
// images
// ---------------------------------------------------------------------------

fn image_artifact(images: Value) -> Value {
    json!({"value": "images", "extra": {"codeagent": {"artifact": {"schema": "codeagent.tool-artifact", "version": 1,
        "kind": "image", "status": "success", "icon": null, "title": null, "payload": {"images": images, "output": null}}}}})
}

#[test]
fn svg_images_are_not_embedded() {
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"></svg>";
    let result = Image::from_bytes(svg, "image/svg+xml").unwrap().into_tool_result();
    let html = card(&result);
    assert!(html.contains("<p class=\"codeagent-note\">[image of type image/svg+xml not shown]</p>"), "{html}");
    assert!(!html.contains("<img") && !html.contains("data:image/svg"), "{html}");

    for mime in
        ["image/svg+xml", "IMAGE/SVG+XML", "image/svg+xml; charset=utf-8", "text/html", "image/png\" onerror=\"x"]
    {
        let html = card(&image_artifact(json!([{"mime": mime, "b64": "PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"}])));
        assert!(!html.contains("<img"), "{mime}: {html}");
        assert!(!html.contains("onerror=\""), "{mime}: {html}");
    }
}

#[test]
fn image_data_that_is_not_base64_is_not_embedded() {
    let html = card(&image_artifact(
        json!([{"mime": "image/png", "b64": "AAAA\" onerror=\"alert(1)"}, {"mime": "image/png", "b64": ""}, {"mime": 5}]),
    ));
    assert!(!html.contains("<img"), "{html}");
    assert_eq!(html.matches("not shown").count(), 3, "{html}");
    assert!(!html.contains("onerror=\""), "{html}");
}

#[test]
fn a_trust_flag_in_json_is_ignored() {
    let raw = json!({"value": "v", "display_trusted": true, "trusted": true,
        "extra": {"display": {"html": XSS, "trusted": true, "display_trusted": true}}});
    let deserialised: ToolResult = serde_json::from_value(raw.clone()).unwrap();
    let event = json!({"id": "c", "name": "n", "display": {"html": XSS, "trusted": true}, "value": "v", "is_error": false,
        "artifact": null, "display_trusted": true});
    let event_card = card(&codeagent_core::ToolResultEvent::adapt(&event));
    for html in [card(&raw), card(&deserialised), card(&ToolResult::adapt(&raw)), card(&event), event_card] {
        assert!(html.contains(XSS_ESCAPED), "{html}");
        assert!(!html.contains("<script"), "{html}");
    }
    assert!(Display::from_value(&raw["extra"]["display"]).unwrap().trusted_html().is_none());
}
