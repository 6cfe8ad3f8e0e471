//! What a macro defines, and the words its messages use for it: the shared
//! rules (`validate::signature`) write each message once and take these
//! words from here.

/// The kind of function a macro turns into an MCP item.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A free function with `#[tool]`.
    Tool,
    /// A `#[tool]` method in a `#[toolbox]` impl block.
    ToolMethod,
    /// A free function with `#[resource]`.
    Resource,
    /// A free function with `#[prompt]`.
    Prompt,
}

impl Kind {
    /// What the item is called in messages: `tool`, `resource`, `prompt`.
    pub(crate) fn noun(self) -> &'static str {
        match self {
            Kind::Tool | Kind::ToolMethod => "tool",
            Kind::Resource => "resource",
            Kind::Prompt => "prompt",
        }
    }

    /// What a parameter's name is for, after "a parameter needs a name: ".
    pub(crate) fn name_role(self) -> &'static str {
        match self {
            Kind::Tool | Kind::ToolMethod => "it becomes the argument's name in the input schema",
            Kind::Resource => "a template variable is passed to the parameter of the same name",
            Kind::Prompt => "it becomes the prompt argument's name",
        }
    }

    /// Concrete return types to suggest in place of `impl Trait`.
    pub(crate) fn return_example(self) -> &'static str {
        match self {
            Kind::Tool | Kind::ToolMethod => "`Text` or `Result<Table, ToolError>`",
            Kind::Resource => "`String` or `Result<String, E>`",
            Kind::Prompt => "`String` or `Vec<PromptMessage>`",
        }
    }

    /// The attributes a parameter may carry (besides what the compiler
    /// reads), and how messages list them.
    pub(crate) fn param_attrs(self) -> (&'static [&'static str], &'static str) {
        match self {
            Kind::Tool | Kind::ToolMethod => {
                (&["doc", "serde", "schemars"], "doc comments, #[serde(...)] and #[schemars(...)] attributes")
            }
            Kind::Resource => (&["doc", "cfg"], "doc comments"),
            Kind::Prompt => (&["doc", "cfg", "complete"], "doc comments and #[complete(...)]"),
        }
    }

    /// What to do instead of taking `self` in a free function.
    pub(crate) fn receiver_hint(self) -> &'static str {
        match self {
            Kind::Tool | Kind::ToolMethod => {
                "for a method, put #[codeagent::toolbox] on the impl block and mark the method #[tool]"
            }
            Kind::Resource | Kind::Prompt => "take `&Context` for the request",
        }
    }
}
