use serde_json::{Map, Value};

use super::Html;

/// Presentation options for a result: a title, an icon, and optionally the
/// body as trusted HTML, Markdown or plain text.
///
/// Without a body, the card is rendered from the artifact.
///
/// ```
/// use codeagent_core::display::Display;
///
/// let display = Display::new().with_title("Sales").with_markdown("**12** regions");
/// assert_eq!(display.to_value()["markdown"], "**12** regions");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Display {
    title: Option<String>,
    icon: Option<String>,
    html: Option<String>,
    trusted: bool,
    markdown: Option<String>,
    text: Option<String>,
    open: Option<bool>,
    rest: Map<String, Value>,
}

const STRING_KEYS: [&str; 5] = ["title", "icon", "html", "markdown", "text"];
const BOOL_KEYS: [&str; 1] = ["open"];

impl Display {
    /// Empty options: the card shows the artifact.
    pub fn new() -> Self {
        Display::default()
    }

    /// Sets the card's title.
    #[must_use]
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// Sets the card's icon name.
    #[must_use]
    pub fn with_icon(mut self, icon: impl Into<String>) -> Self {
        self.icon = Some(icon.into());
        self
    }

    /// Sets the body to trusted HTML, inserted as is.
    #[must_use]
    pub fn with_html(mut self, html: Html) -> Self {
        self.html = Some(html.into_string());
        self.trusted = true;
        self
    }

    /// Sets the body to Markdown, rendered with raw HTML escaped.
    #[must_use]
    pub fn with_markdown(mut self, markdown: impl Into<String>) -> Self {
        self.markdown = Some(markdown.into());
        self
    }

    /// Sets the body to plain text, escaped.
    #[must_use]
    pub fn with_text(mut self, text: impl Into<String>) -> Self {
        self.text = Some(text.into());
        self
    }

    /// Whether the card starts expanded.
    #[must_use]
    pub fn with_open(mut self, open: bool) -> Self {
        self.open = Some(open);
        self
    }

    /// The title.
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The icon name.
    pub fn icon(&self) -> Option<&str> {
        self.icon.as_deref()
    }

    /// The HTML body, when it was set in this process as trusted HTML.
    pub fn trusted_html(&self) -> Option<Html> {
        self.html.as_ref().filter(|_| self.trusted).map(|html| Html::trusted(html.clone()))
    }

    /// Whether an `html` body is present (trusted or not).
    #[cfg(feature = "card")]
    pub(crate) fn untrusted_html(&self) -> Option<&str> {
        self.html.as_deref().filter(|_| !self.trusted)
    }

    /// The Markdown body.
    pub fn markdown(&self) -> Option<&str> {
        self.markdown.as_deref()
    }

    /// The plain-text body.
    pub fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Whether the card starts expanded.
    pub fn open(&self) -> Option<bool> {
        self.open
    }

    pub(crate) fn is_trusted(&self) -> bool {
        self.trusted
    }

    /// Options read from JSON. Any `html` it holds is untrusted and will be
    /// escaped. `None` when `value` is not an object or a known key has the
    /// wrong type.
    pub fn from_value(value: &Value) -> Option<Display> {
        let object = value.as_object()?;
        let string = |key: &str| match object.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(Value::String(text)) => Some(Some(text.clone())),
            Some(_) => None,
        };
        let open = match object.get("open") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(open)) => Some(*open),
            Some(_) => return None,
        };
        Some(Display {
            title: string("title")?,
            icon: string("icon")?,
            html: string("html")?,
            trusted: false,
            markdown: string("markdown")?,
            text: string("text")?,
            open,
            rest: object
                .iter()
                .filter(|(key, _)| !STRING_KEYS.contains(&key.as_str()) && !BOOL_KEYS.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), value.clone()))
                .collect(),
        })
    }

    /// The options as JSON; unset options are left out.
    pub fn to_value(&self) -> Value {
        let mut object = Map::new();
        let strings = [&self.title, &self.icon, &self.html, &self.markdown, &self.text];
        for (key, value) in STRING_KEYS.iter().zip(strings) {
            if let Some(value) = value {
                object.insert((*key).into(), Value::from(value.as_str()));
            }
        }
        if let Some(open) = self.open {
            object.insert("open".into(), Value::Bool(open));
        }
        object.extend(self.rest.iter().map(|(key, value)| (key.clone(), value.clone())));
        Value::Object(object)
    }
}
