//! `#[toolbox]` on an impl block: its `#[tool]` methods become tools sharing `&self`.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;

use crate::ast::ToolFn;
use crate::attr::{Errors, ToolAttrs, parse_toolbox_attrs};
use crate::expand::{Checks, Failure, Invoke, Runtime, args_struct, call_body, spec_fn_tokens};
use crate::names::unraw;
use crate::valid::{Site, check};

/// Whether `attr` is `#[tool]` or `#[...::tool]`.
fn is_tool_attr(attr: &syn::Attribute) -> bool {
    attr.path().segments.last().is_some_and(|segment| segment.ident == "tool")
}

/// The impl block without `#[tool]` markers and forwarded parameter attributes.
///
/// A tool method takes its arguments by value and has one parameter per
/// argument, as the macro requires, so the two clippy lints that would
/// suggest otherwise are allowed on it.
pub(crate) fn strip_tool_attrs(mut item: syn::ItemImpl) -> syn::ItemImpl {
    for impl_item in &mut item.items {
        if let syn::ImplItem::Fn(method) = impl_item {
            if method.attrs.iter().any(is_tool_attr) {
                method.attrs.push(syn::parse_quote!(
                    #[allow(clippy::needless_pass_by_value, clippy::too_many_arguments)]
                ));
            }
            method.attrs.retain(|attr| !is_tool_attr(attr));
            for input in &mut method.sig.inputs {
                if let syn::FnArg::Typed(typed) = input {
                    typed.attrs.retain(|attr| attr.path().is_ident("cfg"));
                }
            }
        }
    }
    item
}

/// Expands `#[toolbox]`.
pub(crate) fn expand(args: TokenStream, item: &syn::ItemImpl) -> Result<TokenStream, Failure> {
    let mut errors = Errors::default();
    let krate = parse_toolbox_attrs(args, &mut errors);
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
    let mut tools = Vec::new();
    for impl_item in &item.items {
        let syn::ImplItem::Fn(method) = impl_item else { continue };
        let markers: Vec<_> = method.attrs.iter().filter(|attr| is_tool_attr(attr)).collect();
        let Some(marker) = markers.first() else { continue };
        let args = match &marker.meta {
            syn::Meta::Path(_) => TokenStream::new(),
            syn::Meta::List(list) => list.tokens.clone(),
            syn::Meta::NameValue(pair) => {
                errors.at(pair.span(), "write `#[tool]` or `#[tool(key = value, ...)]`");
                continue;
            }
        };
        let attrs = ToolAttrs::parse(args, &mut errors);
        if let Some(krate) = &attrs.krate {
            errors.at(krate.span(), "set `crate` on #[toolbox(...)] for the whole impl block");
        }
        let tool = ToolFn::from_sig(&method.sig, &method.block, &method.attrs, attrs, &mut errors);
        check(&tool, Site::Method, &mut errors);
        tools.push(tool);
    }
    let mut names: HashMap<String, ()> = HashMap::new();
    for tool in &tools {
        let (name, span) = tool.name();
        if names.insert(name.clone(), ()).is_some() {
            errors.at(span, format!("two tools in this toolbox are named `{name}`; tool names must be unique"));
        }
    }
    if tools.is_empty() {
        errors.at(item.self_ty.span(), "this #[toolbox] impl block has no method marked #[tool]");
    }
    if let Err(error) = errors.finish() {
        return Err(Failure { error, krate });
    }

    let runtime = Runtime::new(krate.as_ref());
    let p = &runtime.private;
    let self_ty = &item.self_ty;
    let mut pieces = Vec::new();
    let mut constructors = Vec::new();
    for tool in &tools {
        let method = &tool.sig.ident;
        let unrawed = unraw(method);
        let args = format_ident!("__CodeagentArgs_{}", unrawed);
        let spec_fn = format_ident!("__codeagent_spec_{}", unrawed);
        let holder = format_ident!("__CodeagentTool_{}", unrawed);
        let checks = Checks::new(tool, &unrawed);
        let check_items = checks.items(tool, p);
        let args_struct = args_struct(tool, &args, &checks, &runtime);
        let spec = spec_fn_tokens(tool, &spec_fn, &args, &checks, &runtime);
        let invoke = Invoke::Direct(quote!(this.#method));
        let receiver = Some(quote!(#p::Arc::clone(&self.0)));
        let body = call_body(tool, &invoke, &args, &spec_fn, &checks, &runtime, receiver);
        pieces.push(quote! {
            #check_items
            #args_struct
            #spec

            #[allow(non_camel_case_types)]
            struct #holder(#p::Arc<#self_ty>);

            #[automatically_derived]
            impl #p::Tool for #holder {
                fn spec(&self) -> &#p::ToolSpec {
                    #spec_fn()
                }

                fn call(&self, mut call: #p::ToolCall) -> #p::ToolFuture {
                    #body
                }
            }
        });
        constructors.push(quote!(#p::Arc::new(#holder(#p::Arc::clone(&self))) as #p::Arc<dyn #p::Tool>));
    }
    let item = strip_tool_attrs(item.clone());
    Ok(quote! {
        #item

        const _: () = {
            #(#pieces)*

            #[automatically_derived]
            impl #p::ToolSet for #self_ty {
                fn tools(self: #p::Arc<Self>) -> #p::Vec<#p::Arc<dyn #p::Tool>> {
                    #p::vec![#(#constructors),*]
                }
            }
        };
    })
}
