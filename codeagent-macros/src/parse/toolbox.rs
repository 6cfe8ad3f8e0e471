//! `#[toolbox]`'s definition: the impl block, its `crate` argument and its
//! methods marked `#[tool]`.

use proc_macro2::TokenStream;
use syn::spanned::Spanned;

use super::signature::FnDef;
use super::tool::ToolFn;
use super::tool_args::ToolAttrs;
use super::toolbox_args::parse_toolbox_args;
use crate::errors::Errors;

/// `#[toolbox]` on an impl block.
pub(crate) struct Toolbox<'a> {
    /// The impl block as written.
    pub(crate) item: &'a syn::ItemImpl,
    /// `crate = "..."`: the path of the `codeagent` crate.
    pub(crate) krate: Option<syn::Path>,
    /// The methods marked `#[tool]`, in order.
    pub(crate) tools: Vec<ToolFn<'a>>,
}

/// Whether `attr` is `#[tool]` or `#[...::tool]`.
pub(crate) fn is_tool_attr(attr: &syn::Attribute) -> bool {
    attr.path().segments.last().is_some_and(|segment| segment.ident == "tool")
}

/// Parses `#[toolbox(args)]` on `item`, and each method's `#[tool(...)]`.
pub(crate) fn parse_toolbox<'a>(args: TokenStream, item: &'a syn::ItemImpl, errors: &mut Errors) -> Toolbox<'a> {
    let krate = parse_toolbox_args(args, errors);
    let mut tools = Vec::new();
    for impl_item in &item.items {
        let syn::ImplItem::Fn(method) = impl_item else { continue };
        let Some(marker) = method.attrs.iter().find(|attr| is_tool_attr(attr)) else { continue };
        let args = match &marker.meta {
            syn::Meta::Path(_) => TokenStream::new(),
            syn::Meta::List(list) => list.tokens.clone(),
            syn::Meta::NameValue(pair) => {
                errors.at(pair.span(), "write `#[tool]` or `#[tool(key = value, ...)]`");
                continue;
            }
        };
        let attrs = ToolAttrs::parse(args, errors);
        tools.push(ToolFn::new(FnDef::new(&method.sig, &method.attrs, &method.block), attrs));
    }
    Toolbox { item, krate, tools }
}
