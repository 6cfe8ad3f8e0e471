use serde_json::Value;

use super::{Display, Html, markdown_to_html};
use crate::access::Channels;
use crate::artifact::{ArtifactRef, Versions};

/// Most table rows a card shows.
const CARD_ROWS: usize = 1000;

/// Image types a card embeds; others (SVG among them, which can carry script)
/// are named but not shown.
const EMBEDDABLE: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Renders a result (or a streaming event) as an HTML card.
///
/// The presentation is chosen in order: a valid display with a body; else the
/// v1 artifact's card, titled by the display or the artifact; else the escaped
/// portable value. Everything except trusted HTML set in this process is
/// escaped.
///
/// ```
/// use codeagent_core::display::render;
/// use codeagent_core::{IntoToolResult, Text};
///
/// let card = render(&Text::new("<b>hi</b>").with_title("Greeting").into_tool_result());
/// assert!(card.as_str().contains("&lt;b&gt;hi&lt;/b&gt;"));
/// assert!(card.as_str().contains("Greeting"));
/// ```
pub fn render(result: &impl Channels) -> Html {
    let mut display = result.raw_display().and_then(Display::from_value);
    if let Some(display) = &mut display
        && result.display_is_trusted()
    {
        *display = trust(display.clone());
    }
    let artifact = result.artifact_in(&Versions::V1);
    let title = display.as_ref().and_then(Display::title).or_else(|| artifact.and_then(|artifact| artifact.title()));
    let icon = display.as_ref().and_then(Display::icon).or_else(|| artifact.and_then(|artifact| artifact.icon()));
    let kind = artifact.map_or("text", |artifact| artifact.kind_name());
    let is_error = result.reports_error() || artifact.is_some_and(|artifact| artifact.is_error());

    let body = display
        .as_ref()
        .and_then(display_body)
        .or_else(|| artifact.and_then(|artifact| artifact_body(&artifact)))
        .unwrap_or_else(|| preformatted(result.value_text().unwrap_or_default()));

    let mut card = Html::default();
    card.push_markup("<div class=\"codeagent-card\" data-kind=\"");
    card.push_text(kind);
    card.push_markup(if is_error { "\" data-status=\"error\">" } else { "\" data-status=\"success\">" });
    if title.is_some() || icon.is_some() {
        card.push_markup("<div class=\"codeagent-card-header\">");
        if let Some(icon) = icon {
            card.push_markup("<span class=\"codeagent-icon\" data-icon=\"");
            card.push_text(icon);
            card.push_markup("\"></span>");
        }
        if let Some(title) = title {
            card.push_markup("<span class=\"codeagent-title\">");
            card.push_text(title);
            card.push_markup("</span>");
        }
        card.push_markup("</div>");
    }
    card.push_markup("<div class=\"codeagent-card-body\">");
    card.push_html(&body);
    card.push_markup("</div></div>");
    card
}

fn trust(display: Display) -> Display {
    match display.untrusted_html() {
        Some(html) => {
            let html = Html::trusted(html);
            display.with_html(html)
        }
        None => display,
    }
}

fn display_body(display: &Display) -> Option<Html> {
    if let Some(html) = display.trusted_html() {
        return Some(html);
    }
    if let Some(html) = display.untrusted_html() {
        return Some(preformatted(html));
    }
    if let Some(markdown) = display.markdown() {
        return Some(markdown_to_html(markdown));
    }
    display.text().map(preformatted)
}

fn artifact_body(artifact: &ArtifactRef<'_>) -> Option<Html> {
    let payload = artifact.payload();
    let text = |key: &str| payload.get(key).and_then(Value::as_str);
    let mut html = Html::default();
    match artifact.kind_name() {
        "text" => html = markdown_to_html(text("text")?),
        "table" => push_table(&mut html, payload.get("df")?)?,
        "image" => {
            for image in payload.get("images")?.as_array()? {
                push_image(&mut html, image);
            }
            push_output(&mut html, text("output"));
        }
        "code" => {
            if text("filename").is_some() || text("lang").is_some() {
                html.push_markup("<div class=\"codeagent-code-head\">");
                if let Some(filename) = text("filename") {
                    html.push_markup("<div class=\"codeagent-filename\">");
                    html.push_text(filename);
                    html.push_markup("</div>");
                }
                if let Some(lang) = text("lang") {
                    html.push_markup("<span class=\"codeagent-lang\">");
                    html.push_text(lang);
                    html.push_markup("</span>");
                }
                html.push_markup("</div>");
            }
            html.push_markup("<pre><code");
            if let Some(lang) = text("lang") {
                html.push_markup(" class=\"language-");
                html.push_text(lang);
                html.push_markup("\"");
            }
            html.push_markup(">");
            html.push_text(text("text")?);
            html.push_markup("</code></pre>");
            push_output(&mut html, text("output"));
        }
        "diff" => {
            if let Some(path) = text("path") {
                html.push_markup("<div class=\"codeagent-filename\">");
                html.push_text(path);
                html.push_markup("</div>");
            }
            push_diff(&mut html, text("old")?, text("new")?);
        }
        "error" => {
            html.push_markup("<p class=\"codeagent-error\">");
            html.push_text(text("message")?);
            html.push_markup("</p>");
            match payload.get("detail") {
                None | Some(Value::Null) => {}
                Some(Value::String(detail)) => html.push_html(&preformatted(detail)),
                Some(detail) => html.push_html(&preformatted(&detail.to_string())),
            }
        }
        _ => return None,
    }
    Some(html)
}

fn preformatted(text: &str) -> Html {
    let mut html = Html::trusted("<pre>");
    html.push_text(text);
    html.push_markup("</pre>");
    html
}

fn push_output(html: &mut Html, output: Option<&str>) {
    if let Some(output) = output.filter(|output| !output.is_empty()) {
        html.push_markup("<pre class=\"codeagent-output\">");
        html.push_text(output);
        html.push_markup("</pre>");
    }
}

fn push_table(html: &mut Html, df: &Value) -> Option<()> {
    let columns = df.get("columns")?.as_array()?;
    let rows = df.get("rows")?.as_array()?;
    html.push_markup("<table><thead><tr>");
    for column in columns {
        html.push_markup("<th>");
        html.push_text(column.get("name").and_then(Value::as_str).unwrap_or_default());
        html.push_markup("</th>");
    }
    html.push_markup("</tr></thead><tbody>");
    for row in rows.iter().take(CARD_ROWS) {
        html.push_markup("<tr>");
        for cell in row.as_array().map(Vec::as_slice).unwrap_or_default() {
            html.push_markup("<td>");
            match cell {
                Value::Null => {}
                Value::String(text) => html.push_text(text),
                other => html.push_text(&other.to_string()),
            }
            html.push_markup("</td>");
        }
        html.push_markup("</tr>");
    }
    html.push_markup("</tbody></table>");
    if rows.len() > CARD_ROWS {
        html.push_markup("<p class=\"codeagent-note\">");
        html.push_text(&format!("Showing {CARD_ROWS} of {} rows.", rows.len()));
        html.push_markup("</p>");
    }
    Some(())
}

fn push_image(html: &mut Html, image: &Value) {
    let mime = image.get("mime").and_then(Value::as_str).unwrap_or_default();
    let b64 = image.get("b64").and_then(Value::as_str).unwrap_or_default();
    let base64_alphabet = b64.bytes().all(|byte| byte.is_ascii_alphanumeric() || matches!(byte, b'+' | b'/' | b'='));
    if EMBEDDABLE.contains(&mime) && !b64.is_empty() && base64_alphabet {
        html.push_markup("<img src=\"data:");
        html.push_text(mime);
        html.push_markup(";base64,");
        html.push_text(b64);
        html.push_markup("\" alt=\"");
        html.push_text(mime);
        html.push_markup("\">");
    } else {
        html.push_markup("<p class=\"codeagent-note\">");
        html.push_text(&format!("[image of type {mime} not shown]"));
        html.push_markup("</p>");
    }
}

fn push_diff(html: &mut Html, old: &str, new: &str) {
    html.push_markup("<pre class=\"codeagent-diff\">");
    // Every line, so the context is as long as both texts; equal texts have no hunk.
    let context = old.lines().count() + new.lines().count();
    let patch = diffy::DiffOptions::new().set_context_len(context).create_patch(old, new);
    let lines: Vec<diffy::Line<'_, str>> = if old == new {
        old.split_inclusive('\n').map(diffy::Line::Context).collect()
    } else {
        patch.hunks().iter().flat_map(|hunk| hunk.lines().iter().copied()).collect()
    };
    for line in lines {
        let (class, sign, text) = match line {
            diffy::Line::Delete(text) => ("del", "-", text),
            diffy::Line::Insert(text) => ("ins", "+", text),
            diffy::Line::Context(text) => ("eq", " ", text),
        };
        html.push_markup("<span class=\"");
        html.push_text(class);
        html.push_markup("\">");
        html.push_text(sign);
        html.push_text(text);
        if !text.ends_with('\n') {
            html.push_text("\n");
        }
        html.push_markup("</span>");
    }
    html.push_markup("</pre>");
}
