//! The rules of a tool, free or a toolbox method: the signature rules, then
//! what only tools have (the name MCP accepts, a description unless
//! `undocumented`, `inline`, unique argument names after serde's renames).

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
    check_signature(&tool.fun, kind, errors);
    unique_arguments(tool.fun.params.iter().filter(|param| param.is_plain()).map(|param| param.wire_name()), errors);
}
