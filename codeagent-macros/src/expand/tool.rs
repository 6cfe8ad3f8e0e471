//! The tokens of `#[tool]` on a free function.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::args_struct::args_struct;
use super::call::{Invoke, call_body};
use super::checks::Checks;
use super::deref::deref_impl;
use super::home::homed;
use super::runtime::Runtime;
use super::tool_spec::spec_fn_tokens;
use crate::names::unraw;
use crate::parse::tool::FreeTool;

/// The tokens of `#[tool]` on a free function: the unit struct named like
/// the function, then, in a `const _` block, the function and, in a block of
/// their own, the struct's `Clone`, `Copy`, `Debug` and `Default`, the type
/// checks, the arguments struct, the spec, the `Tool` impl and the `Deref`.
pub(crate) fn expand_free_tool(free: &FreeTool<'_>) -> TokenStream {
    let FreeTool { item, tool } = free;
    let runtime = Runtime::new(tool.attrs.krate.as_ref());
    let p = &runtime.private;
    let vis = &item.vis;
    let name = &item.sig.ident;
    let unrawed = unraw(name);
    // The function keeps its name inside the block below, where it shadows the
    // unit struct's value: calls and a parameter named like the function resolve
    // to the function there, while `add` outside is the struct (and derefs to it).
    let implementation = name.clone();
    let spec_fn = format_ident!("__codeagent_spec_{}", unrawed);
    let args = format_ident!("__CodeagentArgs_{}", unrawed);
    let cfgs: Vec<_> = item.attrs.iter().filter(|attr| attr.path().is_ident("cfg")).collect();
    let docs: Vec<_> = item.attrs.iter().filter(|attr| attr.path().is_ident("doc")).collect();
    let others: Vec<_> =
        item.attrs.iter().filter(|attr| !attr.path().is_ident("cfg") && !attr.path().is_ident("doc")).collect();

    let mut sig = item.sig.clone();
    for input in &mut sig.inputs {
        if let syn::FnArg::Typed(typed) = input {
            typed.attrs.clear();
        }
    }
    let block = &item.block;
    let checks = Checks::new(tool, &unrawed);
    let check_items = checks.items(tool, p);
    let args_struct = args_struct(tool, &args, &checks, &runtime);
    let spec = spec_fn_tokens(tool, &spec_fn, &args, &checks, &runtime);
    let boxed = format_ident!("__codeagent_boxed_{}", unrawed);
    let invoke = if tool.sig().asyncness.is_some() {
        Invoke::Boxed(quote!(#boxed))
    } else {
        Invoke::Direct(quote!(#implementation))
    };
    let body = call_body(tool, &invoke, &args, &spec_fn, &checks, &runtime, None);
    let types = tool.fun.types();
    let deref = deref_impl(&item.sig, &types, name, &implementation, &boxed, p);

    // The generated items, at the function's name so that an edit moving the
    // attribute does not send them back through the type checker (see
    // `home`). The user's lints see them there as the user's code, so they
    // are written clean under clippy's default, pedantic and nursery groups
    // (`tests/library/lints.rs` denies them), and the block they are in allows
    // only what they cannot help: the types their checks spell out, and the
    // restriction group (opt-in rules for one's own code, some contradicting
    // others). The function itself is outside the block: its body keeps the
    // user's spans and the user's lints.
    let generated = homed(
        quote! {
            #[allow(clippy::type_complexity, clippy::restriction)]
            const _: () = {
                // What `#[derive(Clone, Copy, Debug, Default)]` would write,
                // written here so that it too is at the function's name.
                #[automatically_derived]
                impl ::core::clone::Clone for #name {
                    #[inline]
                    fn clone(&self) -> Self {
                        *self
                    }
                }

                #[automatically_derived]
                impl ::core::marker::Copy for #name {}

                #[automatically_derived]
                impl ::core::fmt::Debug for #name {
                    fn fmt(&self, formatter: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                        formatter.write_str(#unrawed)
                    }
                }

                #[automatically_derived]
                impl ::core::default::Default for #name {
                    #[inline]
                    fn default() -> Self {
                        Self
                    }
                }

                #check_items

                #args_struct

                #spec

                #[automatically_derived]
                impl #p::Tool for #name {
                    fn spec(&self) -> &#p::ToolSpec {
                        #spec_fn()
                    }

                    fn call(&self, call: #p::ToolCall) -> #p::ToolFuture {
                        #body
                    }
                }

                #deref
            };
        },
        name.span(),
    );

    quote! {
        #(#cfgs)*
        #(#docs)*
        #[allow(non_camel_case_types)]
        #vis struct #name;

        #(#cfgs)*
        const _: () = {
            #(#others)*
            #[allow(clippy::needless_pass_by_value, clippy::too_many_arguments)]
            #sig #block

            #generated
        };
    }
}
