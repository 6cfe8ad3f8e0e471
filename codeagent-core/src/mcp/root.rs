//! A root: a directory or file a client lets the server work on
//! (`roots/list`). One type for both ends: what a client's handlers offer
//! and what a tool asking for the roots gets.

use serde::{Deserialize, Serialize};

/// One root the client offers (`roots/list`).
///
/// ```
/// use codeagent_core::mcp::Root;
///
/// let root = Root::new("file:///tmp/project").with_name("project");
/// assert_eq!(serde_json::to_value(&root)?, serde_json::json!({"uri": "file:///tmp/project", "name": "project"}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    /// The root's URI (`file://...`).
    pub uri: String,
    /// A name for people, when the client gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Root {
    /// The root at `uri`.
    pub fn new(uri: impl Into<String>) -> Root {
        Root { uri: uri.into(), name: None }
    }

    /// Names the root.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Root {
        self.name = Some(name.into());
        self
    }
}
