//! The `#[tool]`, `#[toolbox]`, `#[resource]` and `#[prompt]` attribute macros of codeagent.
//!
//! Use them through the `codeagent` crate. Every macro runs the same
//! `pipeline`, one module per stage:
//!
//! 1. `parse` reads the attribute's arguments and the item into a typed
//!    definition that keeps the original tokens for spans;
//! 2. `validate` checks every rule (the signature rules all four share are
//!    written once, in `validate::signature`), collecting the errors;
//! 3. `expand` writes the tokens of a valid definition;
//! 4. `fallback` emits the errors, each once, with the item as written
//!    and stand-ins for what the expansion adds, so the user sees the real
//!    problems rather than a cascade.
//!
//! Type errors (a parameter that is not an argument, a return type that
//! does not lower) are left to the compiler, through checks the expansion
//! spans on the offending type. Each macro below is a thin entry: its four
//! stages, named.

/// The error collector.
mod errors;
/// Stage three.
mod expand;
/// Stage four.
mod fallback;
/// The kinds of item and their words.
mod kind;
/// Raw identifiers, did-you-mean.
mod names;
/// Stage one.
mod parse;
/// The stages, chained.
mod pipeline;
/// Stage two.
mod validate;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as Tokens;

use crate::errors::Errors;
use crate::kind::Kind;
use crate::parse::prompt::PromptFn;
use crate::parse::resource::ResourceFn;
use crate::parse::tool::FreeTool;
use crate::parse::toolbox::Toolbox;
use crate::pipeline::{Macro, run};

/// Turns a function into a tool: a unit struct of the function's name that
/// implements `Tool` and still calls like the function. Its doc comment is the
/// description; its parameters are the arguments, except `&Context`,
/// `Context` and `State<T>`, which are injected by type, and each argument's
/// doc comment is its description. Both are required: a tool or an argument
/// without a description does not compile, unless the tool says
/// `undocumented` (injected parameters and `#[serde(flatten)]` ones need none).
///
/// ```ignore
/// /// Add two integers.
/// #[tool(read_only)]
/// fn add(
///     /// The first addend.
///     a: i64,
///     /// The second addend.
///     b: i64,
/// ) -> i64 {
///     a + b
/// }
/// ```
///
/// Keys (each explained, once, in the guide's chapter
/// [The macros](../codeagent/guide/macros/index.html#tool), `codeagent::guide::macros`):
/// `name`, `title`, `description`, `undocumented`, `read_only`, `destructive`,
/// `idempotent`, `open_world`, `icons`, `meta`, `allow_unknown_arguments`,
/// `inline`, `ui`, `requires`, `result_budget`, `scopes`, `task`, `crate`.
/// On a parameter: doc comments, `#[serde(...)]`, `#[schemars(...)]`.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    run::<ToolMacro>(args.into(), input.into()).into()
}

/// Turns the `#[tool]` methods of an impl block into tools that share `&self`
/// (`Toolbox::tool_set(value)` adds them all). The methods take the keys of
/// `#[tool]` except `crate`.
///
/// Keys ([The macros](../codeagent/guide/macros/index.html#toolbox), `codeagent::guide::macros`): `crate`.
#[proc_macro_attribute]
pub fn toolbox(args: TokenStream, input: TokenStream) -> TokenStream {
    run::<ToolboxMacro>(args.into(), input.into()).into()
}

/// Turns a function into a resource read by URI (fixed, or an RFC 6570
/// template whose variables are parameters): a unit struct of the function's
/// name. A parameter named like a template variable is parsed from it with
/// `FromStr`; `&Context`, `Context`, `State<T>` and `ResourceRead` are injected.
///
/// Keys ([The macros](../codeagent/guide/macros/index.html#resource), `codeagent::guide::macros`): `uri`
/// (required), `name`, `title`, `description`, `mime_type`, `size`, `icons`,
/// `scopes`, `crate`.
#[proc_macro_attribute]
pub fn resource(args: TokenStream, input: TokenStream) -> TokenStream {
    run::<ResourceMacro>(args.into(), input.into()).into()
}

/// Turns a function into a prompt whose arguments are its `String` (required)
/// and `Option<String>` (optional) parameters: a unit struct of the function's
/// name. `&Context`, `Context` and `State<T>` are injected; `#[complete(path)]`
/// on an argument completes it.
///
/// Keys ([The macros](../codeagent/guide/macros/index.html#prompt), `codeagent::guide::macros`): `name`,
/// `title`, `description`, `icons`, `scopes`, `crate`.
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    run::<PromptMacro>(args.into(), input.into()).into()
}

/// `#[tool]` on a free function.
struct ToolMacro;

impl Macro for ToolMacro {
    type Item = syn::ItemFn;
    type Definition<'a> = FreeTool<'a>;
    const MISPLACED: &'static str =
        "#[tool] goes on a function; for methods, put #[codeagent::toolbox] on the impl block";

    fn parse<'a>(args: Tokens, item: &'a syn::ItemFn, errors: &mut Errors) -> FreeTool<'a> {
        parse::tool::parse_free_tool(args, item, errors)
    }

    fn validate(free: &FreeTool<'_>, errors: &mut Errors) {
        validate::tool::check_tool(&free.tool, Kind::Tool, errors);
    }

    fn expand(free: &FreeTool<'_>) -> Tokens {
        expand::tool::expand_free_tool(free)
    }

    fn krate(free: &FreeTool<'_>) -> Option<syn::Path> {
        free.tool.attrs.krate.clone()
    }

    fn fallback(item: syn::ItemFn, krate: Option<&syn::Path>, error: syn::Error) -> Tokens {
        fallback::tool(item, krate, error)
    }
}

/// `#[toolbox]` on an impl block.
struct ToolboxMacro;

impl Macro for ToolboxMacro {
    type Item = syn::ItemImpl;
    type Definition<'a> = Toolbox<'a>;
    const MISPLACED: &'static str = "#[toolbox] goes on an impl block whose methods are marked #[tool]";

    fn parse<'a>(args: Tokens, item: &'a syn::ItemImpl, errors: &mut Errors) -> Toolbox<'a> {
        parse::toolbox::parse_toolbox(args, item, errors)
    }

    fn validate(toolbox: &Toolbox<'_>, errors: &mut Errors) {
        validate::toolbox::check_toolbox(toolbox, errors);
    }

    fn expand(toolbox: &Toolbox<'_>) -> Tokens {
        expand::toolbox::expand_toolbox(toolbox)
    }

    fn krate(toolbox: &Toolbox<'_>) -> Option<syn::Path> {
        toolbox.krate.clone()
    }

    fn fallback(item: syn::ItemImpl, krate: Option<&syn::Path>, error: syn::Error) -> Tokens {
        fallback::toolbox(item, krate, error)
    }
}

/// `#[resource]` on a free function.
struct ResourceMacro;

impl Macro for ResourceMacro {
    type Item = syn::ItemFn;
    type Definition<'a> = ResourceFn<'a>;
    const MISPLACED: &'static str = "#[resource] goes on a free function";

    fn parse<'a>(args: Tokens, item: &'a syn::ItemFn, errors: &mut Errors) -> ResourceFn<'a> {
        parse::resource::parse_resource(args, item, errors)
    }

    fn validate(resource: &ResourceFn<'_>, errors: &mut Errors) {
        validate::resource::check_resource(resource, errors);
    }

    fn expand(resource: &ResourceFn<'_>) -> Tokens {
        expand::resource::expand_resource(resource)
    }

    fn krate(resource: &ResourceFn<'_>) -> Option<syn::Path> {
        resource.attrs.krate.clone()
    }

    fn fallback(item: syn::ItemFn, krate: Option<&syn::Path>, error: syn::Error) -> Tokens {
        fallback::resource(item, krate, error)
    }
}

/// `#[prompt]` on a free function.
struct PromptMacro;

impl Macro for PromptMacro {
    type Item = syn::ItemFn;
    type Definition<'a> = PromptFn<'a>;
    const MISPLACED: &'static str = "#[prompt] goes on a free function";

    fn parse<'a>(args: Tokens, item: &'a syn::ItemFn, errors: &mut Errors) -> PromptFn<'a> {
        parse::prompt::parse_prompt(args, item, errors)
    }

    fn validate(prompt: &PromptFn<'_>, errors: &mut Errors) {
        validate::prompt::check_prompt(prompt, errors);
    }

    fn expand(prompt: &PromptFn<'_>) -> Tokens {
        expand::prompt::expand_prompt(prompt)
    }

    fn krate(prompt: &PromptFn<'_>) -> Option<syn::Path> {
        prompt.attrs.krate.clone()
    }

    fn fallback(item: syn::ItemFn, krate: Option<&syn::Path>, error: syn::Error) -> Tokens {
        fallback::prompt(item, krate, error)
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::item_args::{PROMPT_KEYS, RESOURCE_KEYS};
    use crate::parse::tool_args::TOOL_KEYS;

    /// Every key each macro accepts is in its rustdoc above and in the
    /// guide's chapter, so neither list falls behind the parser.
    #[test]
    fn every_key_is_documented() {
        let rustdoc = include_str!("lib.rs");
        let guide = include_str!("../../docs/guide/macros.md");
        for (section, keys) in
            [("tool", &TOOL_KEYS[..]), ("resource", &RESOURCE_KEYS[..]), ("prompt", &PROMPT_KEYS[..])]
        {
            let (_, after) = guide.split_once(&format!("## `#[{section}]`")).unwrap();
            let chapter = after.split("\n## ").next().unwrap();
            for key in keys {
                let quoted = format!("`{key}");
                assert!(chapter.contains(&quoted), "the guide's #[{section}] table lacks `{key}`");
                assert!(rustdoc.contains(&format!("`{key}`")), "the rustdoc of #[{section}] lacks `{key}`");
            }
        }
    }
}
