use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

use super::Html;

/// Renders Markdown to HTML with every piece of raw HTML escaped, every link
/// whose URL is not `http`, `https`, `mailto` or relative replaced by `#`,
/// and every image shown as its alt text (an image would load from wherever
/// its URL says, a tracking pixel), so untrusted Markdown cannot inject
/// markup or scripts, nor make the page fetch anything.
///
/// ```
/// use codeagent_core::display::markdown_to_html;
///
/// let html = markdown_to_html("**bold** <script>x()</script> [a](javascript:x()) ![pixel](https://evil.example/p.png)");
/// assert!(html.as_str().contains("<strong>bold</strong>"));
/// assert!(html.as_str().contains("&lt;script&gt;"));
/// assert!(!html.as_str().contains("javascript:"));
/// assert!(html.as_str().contains("pixel") && !html.as_str().contains("<img"));
/// ```
pub fn markdown_to_html(markdown: &str) -> Html {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            Event::Start(Tag::Link { link_type, dest_url: safe_url(dest_url), title, id })
        }
        other => other,
    });
    // An image's alt text is the text events between its start and end: keep those alone.
    let events = events.filter(|event| !matches!(event, Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image)));
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    Html::trusted(html)
}

fn safe_url(url: CowStr<'_>) -> CowStr<'_> {
    let scheme_end = url.find([':', '/', '?', '#']);
    let scheme = match scheme_end {
        Some(end) if url[end..].starts_with(':') => url[..end].to_ascii_lowercase(),
        _ => return url,
    };
    if matches!(scheme.as_str(), "http" | "https" | "mailto") { url } else { CowStr::Borrowed("#") }
}
