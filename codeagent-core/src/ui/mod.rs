//! The browser side of rich results: one artifact renderer (HTML, CSS and
//! JavaScript shipped inside the crate, nothing loaded from anywhere else),
//! served as the MCP Apps view every rich tool points at, and as the built-in
//! host page of `--http ADDR --ui`.
//!
//! Both documents are single self-contained files: inline `<style>` and
//! `<script>` only, no external or relative reference, no `eval`, no network
//! access, so they work under the MCP Apps default Content Security Policy.

/// The `ui://` URI of the built-in MCP Apps view.
pub const APP_URI: &str = "ui://codeagent/artifact";

/// The MIME type of an MCP Apps HTML resource.
pub const APP_MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The MCP Apps extension's identifier in `capabilities.extensions`.
pub const APPS_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The MCP Apps view: renders the artifact of the tool result the host sends
/// it (`ui/notifications/tool-result`), or the result's text when the
/// artifact cannot be trusted.
///
/// ```
/// let document = codeagent_core::ui::app_document();
/// assert!(document.starts_with("<!DOCTYPE html>"));
/// ```
pub fn app_document() -> &'static str {
    APP_DOCUMENT
}

/// The built-in host page: an MCP client of the server that serves it, at
/// `/` next to `/mcp` when the server runs with `--http ADDR --ui`.
///
/// ```
/// let page = codeagent_core::ui::host_page();
/// assert!(page.starts_with("<!DOCTYPE html>"));
/// ```
#[cfg(feature = "http")]
pub fn host_page() -> &'static str {
    HOST_PAGE
}

/// The host page for an MCP endpoint at `endpoint` (a path on the page's own
/// origin): [`host_page`] itself for `/mcp`, else the page naming its
/// endpoint in `<html data-mcp-endpoint>`.
///
/// ```
/// let page = codeagent_core::ui::host_page_for("/api/\"mcp\"");
/// assert!(page.contains(r#"data-mcp-endpoint="/api/&quot;mcp&quot;""#));
/// ```
#[cfg(feature = "http")]
pub fn host_page_for(endpoint: &str) -> std::borrow::Cow<'static, str> {
    if endpoint == "/mcp" {
        return std::borrow::Cow::Borrowed(HOST_PAGE);
    }
    let mut escaped = String::with_capacity(endpoint.len());
    for ch in endpoint.chars() {
        match ch {
            '&' => escaped.push_str("&amp;"),
            '"' => escaped.push_str("&quot;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            other => escaped.push(other),
        }
    }
    let tag = format!("<html lang=\"en\" data-mcp-endpoint=\"{escaped}\">");
    std::borrow::Cow::Owned(HOST_PAGE.replacen("<html lang=\"en\">", &tag, 1))
}

const APP_DOCUMENT: &str = concat!(
    "<!DOCTYPE html>\n<html lang=\"en\" data-codeagent-version=\"",
    env!("CARGO_PKG_VERSION"),
    "\"><head><meta charset=\"utf-8\">",
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    "<title>codeagent result</title><style>\n",
    include_str!("assets/renderer.css"),
    "html, body { margin: 0; background: transparent; }\n",
    "</style></head><body><div id=\"codeagent-app\" data-result></div><script>\n",
    include_str!("assets/renderer.js"),
    "\n",
    include_str!("assets/app.js"),
    "</script></body></html>\n"
);

#[cfg(feature = "http")]
const HOST_PAGE: &str = concat!(
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    "<title>codeagent</title><style>\n",
    include_str!("assets/renderer.css"),
    "\n",
    include_str!("assets/host.css"),
    "</style></head><body>",
    "<header class=\"host-header\" id=\"host-server\"><h1>codeagent</h1></header>",
    "<p class=\"host-connection\" data-connection></p>",
    "<div class=\"host-banner\" data-banner role=\"alert\" hidden><pre class=\"host-banner-text\"></pre>",
    "<button type=\"button\" class=\"host-banner-close\" aria-label=\"Dismiss\">\u{d7}</button></div>",
    "<div class=\"host-layout\">",
    "<nav class=\"host-nav\" aria-label=\"Tools\"><h2>Tools</h2><ul class=\"host-tools\" data-tools></ul></nav>",
    "<main class=\"host-main\"><section class=\"host-panel\" id=\"host-panel\"></section>",
    "<section class=\"host-run\" aria-label=\"Result\">",
    "<div class=\"host-progress\" data-progress hidden><progress></progress> <span class=\"host-progress-text\"></span></div>",
    "<div class=\"host-task\" data-task hidden><span class=\"host-task-status\"></span> <span class=\"host-task-message\"></span></div>",
    "<ol class=\"host-log\" data-log aria-label=\"Log\"></ol>",
    "<div class=\"host-result\" data-result aria-live=\"polite\"></div>",
    "<details class=\"host-raw\" data-raw><summary>Raw MCP JSON</summary><div class=\"host-raw-messages\"></div></details>",
    "</section></main></div><script>\n",
    include_str!("assets/renderer.js"),
    "\n",
    include_str!("assets/host.js"),
    "</script></body></html>\n"
);

#[cfg(test)]
mod tests {
    use super::*;

    /// Each asset is inserted inside a `<style>` or `<script>` element: one
    /// that closed it early would turn the rest into markup.
    #[test]
    fn assets_cannot_close_their_element() {
        let assets = [
            include_str!("assets/renderer.css"),
            include_str!("assets/host.css"),
            include_str!("assets/renderer.js"),
            include_str!("assets/app.js"),
            include_str!("assets/host.js"),
        ];
        for asset in assets {
            let lower = asset.to_ascii_lowercase();
            assert!(!lower.contains("</script") && !lower.contains("</style") && !lower.contains("<!--"));
        }
    }

    /// The view speaks the MCP Apps protocol of 2026-01-26, names its version
    /// and renders into the `[data-result]` hook.
    #[test]
    fn view_declares_its_protocol_and_hooks() {
        let view = app_document();
        assert!(view.contains(&format!("data-codeagent-version=\"{}\"", env!("CARGO_PKG_VERSION"))));
        assert!(view.contains("var PROTOCOL_VERSION = \"2026-01-26\";"));
        assert!(view.contains("<div id=\"codeagent-app\" data-result>"));
        for method in [
            "ui/initialize",
            "ui/notifications/initialized",
            "ui/notifications/tool-result",
            "ui/notifications/size-changed",
            "ui/resource-teardown",
        ] {
            assert!(view.contains(&format!("\"{method}\"")), "the view does not handle `{method}`");
        }
    }

    /// The host page holds the documented automation hooks.
    #[cfg(feature = "http")]
    #[test]
    fn host_page_holds_the_hooks() {
        let page = host_page();
        for hook in [
            "data-tools",
            "data-result",
            "data-progress",
            "data-task",
            "data-log",
            "data-raw",
            "data-connection",
            "data-banner",
        ] {
            assert!(page.contains(&format!(" {hook}")), "the host page lacks `{hook}`");
        }
        for hook in ["\"data-tool\"", "\"data-tool-form\"", "\"data-kind\"", "\"data-status\""] {
            assert!(page.contains(hook), "the host page never sets {hook}");
        }
    }

    /// Nothing is loaded from anywhere: no URL, no `eval`; and the view asks
    /// nothing of the network at all.
    #[test]
    fn documents_reference_nothing_outside_themselves() {
        #[cfg(feature = "http")]
        let documents = [app_document(), host_page()];
        #[cfg(not(feature = "http"))]
        let documents = [app_document()];
        for document in documents {
            for forbidden in
                ["http://", "https://", "<link", "<iframe", "@import", "url(", "eval(", "new Function", "alert("]
            {
                assert!(!document.contains(forbidden), "the document contains `{forbidden}`");
            }
        }
        for forbidden in ["fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon"] {
            assert!(!app_document().contains(forbidden), "the view contains `{forbidden}`");
        }
    }
}
