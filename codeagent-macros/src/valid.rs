//! Rules that span more than one part of a tool definition.

use std::collections::HashMap;

use syn::spanned::Spanned;

use crate::ast::ToolFn;
use crate::attr::Errors;
use crate::names::tool_name_problem;

/// Where a tool function was written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site {
    /// A free function with `#[tool]`.
    Free,
    /// A method in a `#[toolbox]` impl block.
    Method,
}

/// Checks `tool`, recording every problem in `errors`.
pub(crate) fn check(tool: &ToolFn<'_>, site: Site, errors: &mut Errors) {
    if let Some(inline) = &tool.attrs.inline
        && inline.value
        && tool.sig.asyncness.is_some()
    {
        errors.at(
            inline.span,
            "`inline` is for sync tools: an async tool already runs on the async workers; remove `inline`",
        );
    }
    let (name, span) = tool.name();
    if let Some(problem) = tool_name_problem(&name) {
        errors.at(span, problem);
    }
    let sig = tool.sig;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.at(
            sig.generics.span(),
            "generic tools are not supported: a tool's input schema must be known when the program is built; \
             use concrete types",
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.at(variadic.span(), "variadic parameters are not supported in tools");
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.at(unsafety.span(), "a tool cannot be an `unsafe fn`: clients call it with arbitrary arguments");
    }
    if let Some(abi) = &sig.abi {
        errors.at(abi.span(), "a tool cannot have an `extern` ABI: it is called from Rust");
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output
        && let syn::Type::ImplTrait(impl_trait) = &**ty
    {
        errors.at(
            impl_trait.span(),
            "return a concrete type such as `Text` or `Result<Table, ToolError>`: `impl Trait` hides the tool's output schema",
        );
    }
    match (site, tool.receiver) {
        (Site::Free, Some(receiver)) => errors.at(
            receiver.span(),
            "`self` outside a toolbox impl: put #[codeagent::toolbox] on the impl block and mark the method #[tool]",
        ),
        (Site::Method, None) => errors.at(
            sig.ident.span(),
            "a tool method takes `&self`; for a tool without state, use a free function with #[codeagent::tool]",
        ),
        (Site::Method, Some(receiver))
            if !matches!(receiver.kind, syn::ReceiverKind::Reference(_, _, None)) || receiver.mutability.is_some() =>
        {
            errors.at(
                receiver.span(),
                "tool methods take `&self`: calls may run at the same time, so keep changing state behind a Mutex or an atomic",
            );
        }
        _ => {}
    }
    let mut seen: HashMap<&str, ()> = HashMap::new();
    for param in &tool.params {
        if seen.insert(&param.wire_name, ()).is_some() {
            errors.at(
                param.wire_span,
                format!(
                    "the argument name `{}` is used twice (after renaming); argument names must be unique",
                    param.wire_name
                ),
            );
        }
    }
}
