//! The tokens of `#[toolbox]`: the impl block as written (without the
//! macro's markers) and, in a `const _` block, one `Tool` per `#[tool]`
//! method, holding an `Arc` of the receiver, and the `ToolSet` impl.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::args_struct::args_struct;
use super::call::{Invoke, call_body};
use super::checks::Checks;
use super::runtime::Runtime;
use super::tool_spec::spec_fn_tokens;
use crate::names::unraw;
use crate::parse::toolbox::{Toolbox, is_tool_attr};

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

/// The tokens of `toolbox`.
pub(crate) fn expand_toolbox(toolbox: &Toolbox<'_>) -> TokenStream {
    let Toolbox { item, krate, tools } = toolbox;
    let runtime = Runtime::new(krate.as_ref());
    let p = &runtime.private;
    let self_ty = &item.self_ty;
    let mut pieces = Vec::new();
    let mut constructors = Vec::new();
    for tool in tools {
        let method = &tool.sig().ident;
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

                fn call(&self, call: #p::ToolCall) -> #p::ToolFuture {
                    #body
                }
            }
        });
        constructors.push(quote!(#p::Arc::new(#holder(#p::Arc::clone(&self))) as #p::Arc<dyn #p::Tool>));
    }
    let item = strip_tool_attrs((*item).clone());
    quote! {
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
    }
}
