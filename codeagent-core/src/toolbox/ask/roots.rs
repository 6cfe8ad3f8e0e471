//! The client's roots: the directories or files it lets the server work on.

use serde::{Deserialize, Serialize};

/// One root the client offers (`roots/list`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Root {
    /// The root's URI (`file://...`).
    pub uri: String,
    /// A name for people, when the client gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}
