//! Stage four, fallback: what is emitted when a definition has errors. The
//! errors, and the item as written plus stand-ins for what the expansion
//! would have added, so the errors reported are the real ones and not a
//! cascade (a missing unit struct, `Tool` not implemented, a function that
//! is no longer callable).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::expand::deref::deref_impl;
use crate::expand::runtime::Runtime;
use crate::expand::toolbox::strip_tool_attrs;

/// `#[tool]` on a free function (or a method, when `self` was the error).
pub(crate) fn tool(item: syn::ItemFn, krate: Option<&syn::Path>, error: syn::Error) -> TokenStream {
    free_fn_with(item, krate, error, |p, name| {
        quote! {
            impl #p::Tool for #name {
                fn spec(&self) -> &#p::ToolSpec {
                    ::core::unreachable!()
                }

                fn call(&self, _: #p::ToolCall) -> #p::ToolFuture {
                    ::core::unreachable!()
                }
            }
        }
    })
}

/// `#[resource]` on a free function: a stand-in `Resource` impl.
pub(crate) fn resource(item: syn::ItemFn, krate: Option<&syn::Path>, error: syn::Error) -> TokenStream {
    free_fn_with(item, krate, error, |p, name| {
        quote! {
            impl #p::Resource for #name {
                fn spec(&self) -> &#p::ResourceSpec {
                    ::core::unreachable!()
                }

                fn read(&self, _: #p::ResourceRead) -> #p::ResourceFuture {
                    ::core::unreachable!()
                }
            }
        }
    })
}

/// `#[prompt]` on a free function: a stand-in `Prompt` impl.
pub(crate) fn prompt(item: syn::ItemFn, krate: Option<&syn::Path>, error: syn::Error) -> TokenStream {
    free_fn_with(item, krate, error, |p, name| {
        quote! {
            impl #p::Prompt for #name {
                fn spec(&self) -> &#p::PromptSpec {
                    ::core::unreachable!()
                }

                fn get(&self, _: #p::PromptGet) -> #p::PromptFuture {
                    ::core::unreachable!()
                }
            }
        }
    })
}

/// The item as written, its unit struct, `stand_in` (the trait impl, given
/// the runtime path and the struct's name) and the callable `Deref`.
fn free_fn_with(
    mut item: syn::ItemFn,
    krate: Option<&syn::Path>,
    error: syn::Error,
    stand_in: impl FnOnce(&TokenStream, &syn::Ident) -> TokenStream,
) -> TokenStream {
    strip_sig(&mut item.sig);
    let errors = error.to_compile_error();
    if item.sig.receiver().is_some() {
        return quote!(#item #errors);
    }
    let p = Runtime::new(krate).private;
    let vis = &item.vis;
    let name = &item.sig.ident;
    let cfgs: Vec<_> = item.attrs.iter().filter(|attr| attr.path().is_ident("cfg")).collect();
    let stand_in = stand_in(&p, name);
    let deref = callable(&item.sig).map(|types| {
        let boxed = format_ident!("__codeagent_boxed_{}", crate::names::unraw(name));
        deref_impl(&item.sig, &types, name, name, &boxed, &p)
    });
    quote! {
        #(#cfgs)*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name;

        #(#cfgs)*
        const _: () = {
            #item

            #stand_in

            #deref
        };

        #errors
    }
}

/// `#[toolbox]` on an impl block: the block without the macro's markers and,
/// when the block could be a toolbox at all, a stand-in `ToolSet` impl.
pub(crate) fn toolbox(item: syn::ItemImpl, krate: Option<&syn::Path>, error: syn::Error) -> TokenStream {
    let mut item = strip_tool_attrs(item);
    for impl_item in &mut item.items {
        if let syn::ImplItem::Fn(method) = impl_item {
            strip_sig(&mut method.sig);
        }
    }
    let errors = error.to_compile_error();
    if !item.generics.params.is_empty() || item.generics.where_clause.is_some() || item.trait_.is_some() {
        return quote!(#item #errors);
    }
    let p = Runtime::new(krate).private;
    let self_ty = &item.self_ty;
    quote! {
        #item

        impl #p::ToolSet for #self_ty {
            fn tools(self: #p::Arc<Self>) -> #p::Vec<#p::Arc<dyn #p::Tool>> {
                ::core::unreachable!()
            }
        }

        #errors
    }
}

/// Removes what only the macro understands from a signature, and what the
/// compiler would report a second time: parameter attributes other than
/// `#[cfg]`, and a variadic.
fn strip_sig(sig: &mut syn::Signature) {
    for input in &mut sig.inputs {
        if let syn::FnArg::Typed(typed) = input {
            typed.attrs.retain(|attr| attr.path().is_ident("cfg"));
        }
    }
    sig.variadic = None;
}

/// The parameter types, when the function can be named by a function
/// pointer (safe, Rust ABI, not generic, no `impl Trait`).
fn callable(sig: &syn::Signature) -> Option<Vec<&syn::Type>> {
    if matches!(sig.safety, syn::Safety::Unsafe(_))
        || sig.abi.is_some()
        || !sig.generics.params.is_empty()
        || sig.variadic.is_some()
    {
        return None;
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output
        && matches!(**ty, syn::Type::ImplTrait(_))
    {
        return None;
    }
    sig.inputs
        .iter()
        .map(|input| match input {
            syn::FnArg::Typed(typed) if !matches!(*typed.ty, syn::Type::ImplTrait(_)) => Some(&*typed.ty),
            _ => None,
        })
        .collect()
}
