//! What `#[resource]` and `#[prompt]` expand into alike: a unit struct
//! named like the function, implementing the item's trait.

use proc_macro2::TokenStream;
use quote::quote;
use syn::FnArg;

/// What `#[resource]` and `#[prompt]` expand into alike: the unit struct
/// named like the function, then, in a `const _` block, the type checks, the
/// function itself (parameter attributes other than `cfg` removed), the spec
/// built once, the trait implementation and the `Deref` to the function.
pub(crate) struct Expansion<'a> {
    /// The function as written.
    pub(crate) item: &'a syn::ItemFn,
    /// The runtime's private module.
    pub(crate) p: &'a TokenStream,
    /// The `const` checks of the parameter types.
    pub(crate) checks: Vec<TokenStream>,
    /// The name of the return type's check, and the check.
    pub(crate) output: syn::Ident,
    /// The return type's check.
    pub(crate) output_check: TokenStream,
    /// The function returning the spec, its type, and what builds it.
    pub(crate) spec_fn: syn::Ident,
    /// The spec's type.
    pub(crate) spec_type: TokenStream,
    /// What builds the spec.
    pub(crate) spec_init: TokenStream,
    /// `impl Trait for Name { .. }`.
    pub(crate) implementation: TokenStream,
    /// The `Deref` to the function.
    pub(crate) deref: TokenStream,
}

/// The tokens of an [`Expansion`].
pub(crate) fn unit_struct(expansion: Expansion<'_>) -> TokenStream {
    let Expansion { item, p, checks, output, output_check, spec_fn, spec_type, spec_init, implementation, deref } =
        expansion;
    let vis = &item.vis;
    let name = &item.sig.ident;
    let cfgs: Vec<_> = item.attrs.iter().filter(|attr| attr.path().is_ident("cfg")).collect();
    let docs: Vec<_> = item.attrs.iter().filter(|attr| attr.path().is_ident("doc")).collect();
    let others: Vec<_> =
        item.attrs.iter().filter(|attr| !attr.path().is_ident("cfg") && !attr.path().is_ident("doc")).collect();
    let mut sig = item.sig.clone();
    for input in &mut sig.inputs {
        if let FnArg::Typed(typed) = input {
            typed.attrs.retain(|attr| attr.path().is_ident("cfg"));
        }
    }
    let block = &item.block;
    quote! {
        #(#cfgs)*
        #(#docs)*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name;

        #(#cfgs)*
        const _: () = {
            #(#checks)*
            #[allow(non_upper_case_globals)]
            const #output: bool = #output_check;

            #(#others)*
            #[allow(clippy::needless_pass_by_value)]
            #sig #block

            fn #spec_fn() -> &'static #spec_type {
                static SPEC: #p::OnceLock<#spec_type> = #p::OnceLock::new();
                #p::spec_once(&SPEC, || { #spec_init })
            }

            #[automatically_derived]
            #implementation

            #deref
        };
    }
}
