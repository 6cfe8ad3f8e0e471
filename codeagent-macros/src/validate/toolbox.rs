//! The rules of a toolbox: an inherent, non-generic impl block with at least
//! one `#[tool]` method, each a valid tool method, `crate` set on the block
//! only, and tool names unique in the block.

use syn::spanned::Spanned;

use super::tool::check_tool;
use crate::errors::Errors;
use crate::kind::Kind;
use crate::parse::toolbox::Toolbox;

/// Checks `toolbox`.
pub(crate) fn check_toolbox(toolbox: &Toolbox<'_>, errors: &mut Errors) {
    let item = toolbox.item;
    if !item.generics.params.is_empty() || item.generics.where_clause.is_some() {
        errors.at(
            item.generics.span(),
            "a toolbox impl block cannot be generic: tool schemas must be known when the program is built",
        );
    }
    if let Some((trait_path, _)) = &item.trait_ {
        errors.at(
            trait_path.span(),
            "#[toolbox] goes on an inherent impl block (`impl MyServer { ... }`), not a trait impl",
        );
    }
    for tool in &toolbox.tools {
        if let Some(krate) = &tool.attrs.krate {
            errors.at(krate.span(), "set `crate` on #[toolbox(...)] for the whole impl block");
        }
        check_tool(tool, Kind::ToolMethod, errors);
    }
    let mut names: Vec<String> = Vec::new();
    for tool in &toolbox.tools {
        let (name, span) = tool.name();
        if names.contains(&name) {
            errors.at(span, format!("two tools in this toolbox are named `{name}`; tool names must be unique"));
        }
        names.push(name);
    }
    if toolbox.tools.is_empty() {
        errors.at(item.self_ty.span(), "this #[toolbox] impl block has no method marked #[tool]");
    }
}
