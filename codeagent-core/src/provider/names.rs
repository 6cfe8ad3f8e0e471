//! The names providers accept, and the way back to the toolbox's names.

use std::collections::BTreeMap;

use super::{NotStrict, Provider};
use crate::mcp::ToolDefinition;

/// The longest tool name any provider accepts.
const MAX_LEN: usize = 64;

/// The names a provider sees for the toolbox's tools, both ways.
///
/// OpenAI and Anthropic accept `^[a-zA-Z0-9_-]{1,64}$`; Gemini accepts up to
/// 64 of `[a-zA-Z0-9_.:-]`, starting with a letter or an underscore. Any other
/// character becomes `_` (so `math.add` is `math_add` for OpenAI and
/// Anthropic), and a Gemini name starting otherwise gets a leading `_`.
///
/// ```
/// use codeagent_core::mcp::ToolDefinition;
/// use codeagent_core::provider::{self, Provider, Strictness};
/// use serde_json::json;
///
/// let tool = ToolDefinition::new("files.read", json!({"type": "object", "properties": {}}));
/// let names = provider::tools_for(&[tool], Provider::Anthropic, Strictness::Lenient).unwrap().names;
/// assert_eq!(names.provider_name("files.read"), Some("files_read"));
/// assert_eq!(names.tool("files_read"), Some("files.read"));
/// assert_eq!(names.tool("files.read"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolNames {
    to_provider: BTreeMap<String, String>,
    to_tool: BTreeMap<String, String>,
}

impl ToolNames {
    /// The names for `provider`, and the tools whose name cannot be mapped
    /// (too long, or the same as another tool's once mapped).
    pub(super) fn for_provider(definitions: &[ToolDefinition], provider: Provider) -> (ToolNames, Vec<NotStrict>) {
        let mut names = ToolNames::default();
        let mut refused = Vec::new();
        for definition in definitions {
            let tool = definition.name.as_str();
            let mapped = provider_name(tool, provider);
            if mapped.chars().count() > MAX_LEN {
                refused.push(NotStrict::new(tool, format!("its name `{mapped}` is longer than {MAX_LEN} characters")));
            } else if let Some(other) = names.to_tool.get(&mapped) {
                refused.push(NotStrict::new(
                    tool,
                    format!("its {provider} name `{mapped}` is also the name of tool `{other}`"),
                ));
            } else {
                names.to_tool.insert(mapped.clone(), tool.to_owned());
                names.to_provider.insert(tool.to_owned(), mapped);
            }
        }
        (names, refused)
    }

    /// The tool the provider calls `name`.
    pub fn tool(&self, name: &str) -> Option<&str> {
        self.to_tool.get(name).map(String::as_str)
    }

    /// The provider's name for tool `tool`.
    pub fn provider_name(&self, tool: &str) -> Option<&str> {
        self.to_provider.get(tool).map(String::as_str)
    }

    /// Every `(provider name, tool name)` pair, ordered by provider name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.to_tool.iter().map(|(provider, tool)| (provider.as_str(), tool.as_str()))
    }
}

/// `tool`'s name as `provider` accepts it (before the length check).
fn provider_name(tool: &str, provider: Provider) -> String {
    let gemini = provider == Provider::Gemini;
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-' || (gemini && (c == '.' || c == ':'));
    let mut name: String = tool.chars().map(|c| if allowed(c) { c } else { '_' }).collect();
    if name.is_empty() || (gemini && !name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')) {
        name.insert(0, '_');
    }
    name
}

#[cfg(test)]
mod tests {
    use super::{Provider, provider_name};

    #[test]
    fn maps_names_into_each_providers_alphabet() {
        assert_eq!(provider_name("math.add", Provider::OpenAiChat), "math_add");
        assert_eq!(provider_name("math.add", Provider::Gemini), "math.add");
        assert_eq!(provider_name("a b/c", Provider::Anthropic), "a_b_c");
        assert_eq!(provider_name("3d", Provider::Gemini), "_3d");
        assert_eq!(provider_name("3d", Provider::OpenAiResponses), "3d");
        assert_eq!(provider_name("é", Provider::OpenAiChat), "_");
    }
}
