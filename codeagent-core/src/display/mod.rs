//! The optional HTML presentation channel, `extra.display`, and its renderer.
//!
//! Hosts that render results themselves should read the artifact; the display
//! is an adapter for hosts that want a ready-made, escaped HTML card. Every
//! string is escaped unless it is an explicit [`Html::trusted`] value set in
//! this process; Markdown is rendered with raw HTML escaped; a malformed display
//! falls back to the artifact's card, and that to the portable value.

#[cfg(feature = "card")]
mod card;
mod html;
#[cfg(feature = "card")]
mod markdown;
mod options;

#[cfg(feature = "card")]
pub use card::render;
pub use html::Html;
#[cfg(feature = "card")]
pub use markdown::markdown_to_html;
pub use options::Display;
