use std::fmt;

use serde::{Serialize, Serializer};

/// A fragment of HTML that is safe to insert into a page.
///
/// An `Html` comes either from [`Html::escape`], which escapes every character
/// that HTML treats specially, or from [`Html::trusted`], the one explicit way
/// across the trusted-HTML boundary. There is deliberately no `Deserialize`:
/// HTML read from JSON is untrusted text and is escaped when rendered.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Html(String);

impl Html {
    /// Escapes `text` so that it renders as the same characters.
    ///
    /// ```
    /// use codeagent_core::display::Html;
    /// assert_eq!(Html::escape("<b>&\"'</b>").as_str(), "&lt;b&gt;&amp;&quot;&#39;&lt;/b&gt;");
    /// ```
    pub fn escape(text: &str) -> Html {
        let mut html = Html(String::with_capacity(text.len()));
        html.push_text(text);
        html
    }

    /// Marks `html` as trusted: it is inserted as is. Use only for markup your
    /// own code produced, never for text that came from a model, a user or a wire.
    pub fn trusted(html: impl Into<String>) -> Html {
        Html(html.into())
    }

    /// The markup.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The markup, owned.
    pub fn into_string(self) -> String {
        self.0
    }

    /// Appends escaped text.
    pub fn push_text(&mut self, text: &str) {
        for ch in text.chars() {
            match ch {
                '&' => self.0.push_str("&amp;"),
                '<' => self.0.push_str("&lt;"),
                '>' => self.0.push_str("&gt;"),
                '"' => self.0.push_str("&quot;"),
                '\'' => self.0.push_str("&#39;"),
                other => self.0.push(other),
            }
        }
    }

    /// Appends safe markup.
    pub fn push_html(&mut self, html: &Html) {
        self.0.push_str(&html.0);
    }

    /// Appends a literal piece of markup written in this crate.
    #[cfg(feature = "card")]
    pub(crate) fn push_markup(&mut self, markup: &'static str) {
        self.0.push_str(markup);
    }
}

impl fmt::Display for Html {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for Html {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}
