//! Tool definitions for LLM APIs: a [`Toolbox`]'s tools in the wire format of
//! OpenAI (Chat Completions and Responses), Anthropic Messages and Gemini,
//! optionally in each provider's strict form.
//!
//! ```
//! use codeagent_core::provider::{self, Provider, Strictness};
//! use codeagent_core::mcp::ToolDefinition;
//! use serde_json::json;
//!
//! let add = ToolDefinition::new("math.add", json!({"type": "object",
//!     "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}))
//!     .with_description("Add two integers.");
//! let offered = provider::tools_for(&[add], Provider::OpenAiChat, Strictness::Strict).unwrap();
//! assert_eq!(offered.tools[0]["function"]["name"], "math_add");
//! assert_eq!(offered.tools[0]["function"]["parameters"]["additionalProperties"], false);
//! // The model calls `math_add`; the toolbox knows it as `math.add`.
//! assert_eq!(offered.names.tool("math_add"), Some("math.add"));
//! ```

mod anthropic;
mod gemini;
mod names;
mod openai;
mod strict;

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::mcp::ToolDefinition;
use crate::schema_ref::inline_refs;
use crate::toolbox::Toolbox;

pub use names::ToolNames;

/// An LLM API whose tool definitions [`tools`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions: `[{"type": "function", "function": {...}}]`.
    OpenAiChat,
    /// OpenAI Responses: flat function tools, `[{"type": "function", "name", ...}]`.
    OpenAiResponses,
    /// Anthropic Messages: `[{"name", "description", "input_schema"}]`.
    Anthropic,
    /// Gemini: one tool, `{"functionDeclarations": [...]}`, with `parametersJsonSchema`.
    Gemini,
}

impl Provider {
    /// Every provider, in the order of [`Provider::name`]'s documentation.
    pub const ALL: [Provider; 4] =
        [Provider::OpenAiChat, Provider::OpenAiResponses, Provider::Anthropic, Provider::Gemini];

    /// The name [`FromStr`] reads: `openai`, `openai-responses`, `anthropic` or `gemini`.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`Provider`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format `{0}`: expected openai, openai-responses, anthropic or gemini")]
pub struct UnknownProvider(pub String);

impl FromStr for Provider {
    type Err = UnknownProvider;

    /// ```
    /// use codeagent_core::provider::Provider;
    /// assert_eq!("openai-responses".parse(), Ok(Provider::OpenAiResponses));
    /// assert!("mistral".parse::<Provider>().is_err());
    /// ```
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Provider::ALL.into_iter().find(|provider| provider.name() == name).ok_or_else(|| UnknownProvider(name.into()))
    }
}

/// Whether to ask the provider to hold the model's arguments to the schema.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Strictness {
    /// The schema as the tool publishes it (references inlined, as
    /// [`client_compatible`](crate::schema::client_compatible) does); never
    /// fails but for a name clash or a broken `$ref` (one naming nothing, a
    /// cycle of references, a chain of more than 32), which a toolbox refuses
    /// anyway.
    #[default]
    Lenient,
    /// The provider's strict form (`"strict": true`, the schema rewritten into
    /// the subset the provider enforces); a tool that has none is refused with
    /// a [`NotStrict`].
    Strict,
}

/// A tool that cannot be offered as asked: it has no strict form for the
/// provider, or its provider name clashes with another tool's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("tool `{tool}`: {reason}")]
pub struct NotStrict {
    /// The tool's name in the toolbox.
    pub tool: String,
    /// Why, for a person.
    pub reason: String,
}

impl NotStrict {
    fn new(tool: &str, reason: impl Into<String>) -> Self {
        NotStrict { tool: tool.to_owned(), reason: reason.into() }
    }
}

/// Tool definitions in a provider's wire format, with the names the provider
/// sees.
#[derive(Clone, Debug, PartialEq)]
pub struct ProviderTools {
    /// What goes in the request's `tools`: an array of tools, except for
    /// [`Provider::Gemini`], where it is the one `{"functionDeclarations": [...]}` tool.
    pub tools: Value,
    /// The provider's names of the tools, and back.
    pub names: ToolNames,
}

/// The toolbox's tools (as [`Tools::definitions`](crate::tools::Tools::definitions) publishes them) for `provider`.
///
/// ```
/// use codeagent_core::provider::{self, Provider, Strictness};
/// use codeagent_core::toolbox::Toolbox;
///
/// let offered = provider::tools(&Toolbox::new(), Provider::Gemini, Strictness::Lenient).unwrap();
/// assert_eq!(offered.tools, serde_json::json!({"functionDeclarations": []}));
/// ```
pub fn tools(toolbox: &Toolbox, provider: Provider, strictness: Strictness) -> Result<ProviderTools, Vec<NotStrict>> {
    tools_for(&toolbox.tools().definitions(), provider, strictness)
}

/// `definitions` for `provider`; every tool that cannot be offered as asked
/// is reported, none is left out silently.
pub fn tools_for(
    definitions: &[ToolDefinition],
    provider: Provider,
    strictness: Strictness,
) -> Result<ProviderTools, Vec<NotStrict>> {
    let (names, mut refused) = ToolNames::for_provider(definitions, provider);
    let mut tools = Vec::with_capacity(definitions.len());
    for definition in definitions {
        let Some(name) = names.provider_name(&definition.name) else { continue };
        let schema = match parameters(definition, provider, strictness) {
            Ok(schema) => schema,
            Err(reason) => {
                refused.push(NotStrict::new(&definition.name, reason));
                continue;
            }
        };
        let description = definition.description.as_deref().or(definition.title.as_deref()).unwrap_or_default();
        let strict = strictness == Strictness::Strict;
        tools.push(match provider {
            Provider::OpenAiChat => openai::chat_tool(name, description, schema, strict),
            Provider::OpenAiResponses => openai::responses_tool(name, description, schema, strict),
            Provider::Anthropic => anthropic::tool(name, description, schema, strict),
            Provider::Gemini => gemini::declaration(name, description, schema),
        });
    }
    if !refused.is_empty() {
        return Err(refused);
    }
    let tools = match provider {
        Provider::Gemini => gemini::tool(tools),
        _ => Value::Array(tools),
    };
    Ok(ProviderTools { tools, names })
}

/// The input schema as `provider` takes it.
fn parameters(definition: &ToolDefinition, provider: Provider, strictness: Strictness) -> Result<Value, String> {
    // The client-compatible form, by the one reference walk; a broken `$ref`
    // is refused, whether strict or not (the provider would refuse the request).
    let mut schema = inline_refs(&definition.input_schema).map_err(|error| format!("its schema's {error}"))?;
    if let Some(root) = schema.as_object_mut() {
        remove_key(root, "$schema");
    }
    match (provider, strictness) {
        (Provider::Gemini, Strictness::Strict) => Err(gemini::NO_STRICT.into()),
        (Provider::Gemini, Strictness::Lenient) => Ok(gemini::parameters(schema)),
        (Provider::OpenAiChat | Provider::OpenAiResponses, Strictness::Strict) => {
            strict::convert(&schema, &strict::OPENAI)
        }
        (Provider::Anthropic, Strictness::Strict) => strict::convert(&schema, &strict::ANTHROPIC),
        (_, Strictness::Lenient) => Ok(schema),
    }
}

/// Removes `key`, keeping the order of the other keys.
fn remove_key(map: &mut Map<String, Value>, key: &str) -> Option<Value> {
    #[cfg(feature = "preserve_order")]
    return map.shift_remove(key);
    #[cfg(not(feature = "preserve_order"))]
    return map.remove(key);
}
