//! The rules of a tool, free or a toolbox method: the signature rules, then
//! what only tools have (the name MCP accepts, a description of the tool and
//! of each argument unless `undocumented`, `inline`, unique argument names
//! after serde's renames).

use super::signature::{check_signature, unique_arguments};
use super::tool_name::tool_name_problem;
use crate::errors::Errors;
use crate::kind::Kind;
use crate::parse::tool::ToolFn;

/// Checks `tool`, a function of `kind` (a tool or a tool method).
pub(crate) fn check_tool(tool: &ToolFn<'_>, kind: Kind, errors: &mut Errors) {
    if let Some(inline) = &tool.attrs.inline
        && inline.value
        && tool.sig().asyncness.is_some()
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
    if tool.description().trim().is_empty() && !tool.attrs.undocumented {
        errors.at(
            tool.sig().ident.span(),
            format!(
                "the tool `{name}` has no description, and its description is all a model sees of it: write a doc \
                 comment (`/// What it does, and when to use it.`), or `#[tool(description = \"...\")]`; \
                 `#[tool(undocumented)]` opts out"
            ),
        );
    }
    if !tool.attrs.undocumented {
        undescribed_arguments(tool, &name, errors);
    }
    check_signature(&tool.fun, kind, errors);
    unique_arguments(tool.fun.params.iter().filter(|param| param.is_plain()).map(|param| param.wire_name()), errors);
}

/// The arguments without a description: one error for them all, on the first.
fn undescribed_arguments(tool: &ToolFn<'_>, name: &str, errors: &mut Errors) {
    let undescribed: Vec<_> =
        tool.fun.params.iter().filter(|param| param.is_plain() && param.lacks_description()).collect();
    let Some(first) = undescribed.first() else {
        return;
    };
    let names: Vec<String> = undescribed.iter().map(|param| format!("`{}`", param.name())).collect();
    let message = match names.as_slice() {
        [one] => format!(
            "the argument {one} of the tool `{name}` has no description, and a model sees only its name and type: \
             write a doc comment above it (`/// What to pass, in what form.`); `#[tool(undocumented)]` opts out"
        ),
        [init @ .., last] => format!(
            "the arguments {} and {last} of the tool `{name}` have no description, and a model sees only their \
             names and types: write a doc comment above each (`/// What to pass, in what form.`); \
             `#[tool(undocumented)]` opts out",
            init.join(", ")
        ),
        [] => return,
    };
    errors.at(first.ident().span(), message);
}
