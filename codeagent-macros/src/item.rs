//! What `#[resource]` and `#[prompt]` share: the function's signature
//! checks and its parameters, keeping the original tokens for spans.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Pat, Type};

use crate::attr::{Errors, ItemAttrs};
use crate::names::unraw;

/// One parameter of a resource or prompt function.
pub(crate) struct ItemParam<'a> {
    /// The binding, as written (possibly raw).
    pub(crate) ident: syn::Ident,
    /// The unrawed name: a template variable's or a prompt argument's.
    pub(crate) name: String,
    pub(crate) ty: &'a Type,
    pub(crate) attrs: &'a [Attribute],
}

/// The parameters of `sig`, for a `kind` ("resource", "prompt"); a receiver
/// or a pattern that is not a plain name goes to `errors`.
pub(crate) fn params<'a>(sig: &'a syn::Signature, kind: &str, errors: &mut Errors) -> Vec<ItemParam<'a>> {
    let mut params = Vec::new();
    for input in &sig.inputs {
        let typed = match input {
            FnArg::Receiver(receiver) => {
                errors.at(
                    receiver.span(),
                    format!(
                        "`self` is not supported: #[{kind}] goes on a free function; take `&Context` for the request"
                    ),
                );
                continue;
            }
            FnArg::Typed(typed) => typed,
        };
        if let Type::ImplTrait(impl_trait) = &*typed.ty {
            errors.at(
                impl_trait.span(),
                format!("`impl Trait` parameters are not supported in a {kind}: use a concrete type"),
            );
            continue;
        }
        match &*typed.pat {
            Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => params.push(ItemParam {
                ident: pat.ident.clone(),
                name: unraw(&pat.ident),
                ty: &typed.ty,
                attrs: &typed.attrs,
            }),
            Pat::Wild(wild) => errors.at(wild.span(), format!("a {kind} parameter needs a name: {}", what_names(kind))),
            other => errors.at(
                other.span(),
                format!(
                    "destructuring is not supported in {kind} parameters: bind a name ({}) and destructure in the body",
                    what_names(kind)
                ),
            ),
        }
    }
    params
}

fn what_names(kind: &str) -> &'static str {
    if kind == "resource" {
        "a template variable is passed to the parameter of the same name"
    } else {
        "it becomes the argument's name"
    }
}

/// The rules of the signature itself, as `#[tool]` has them.
pub(crate) fn check_sig(sig: &syn::Signature, kind: &str, errors: &mut Errors) {
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.at(
            sig.generics.span(),
            format!("generic {kind}s are not supported: the function is called with concrete types; use them"),
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.at(variadic.span(), format!("variadic parameters are not supported in a {kind}"));
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.at(unsafety.span(), format!("a {kind} cannot be an `unsafe fn`: clients call it with arbitrary input"));
    }
    if let Some(abi) = &sig.abi {
        errors.at(abi.span(), format!("a {kind} cannot have an `extern` ABI: it is called from Rust"));
    }
    if let syn::ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(impl_trait) = &**ty
    {
        errors.at(
            impl_trait.span(),
            format!("return a concrete type from a {kind} such as `String` or `Result<String, E>`"),
        );
    }
}

/// The name: the `name` key, else the function's unrawed name.
pub(crate) fn name(sig: &syn::Signature, attrs: &ItemAttrs) -> (String, Span) {
    match &attrs.name {
        Some(name) => (name.value.clone(), name.span),
        None => (unraw(&sig.ident), sig.ident.span()),
    }
}

/// What `#[resource]` and `#[prompt]` expand into alike: the unit struct
/// named like the function, then, in a `const _` block, the type checks, the
/// function itself (parameter attributes other than `cfg` removed), the spec
/// built once, the trait implementation and the `Deref` to the function.
pub(crate) struct Expansion<'a> {
    pub(crate) item: &'a syn::ItemFn,
    /// The runtime's private module.
    pub(crate) p: &'a TokenStream,
    pub(crate) checks: Vec<TokenStream>,
    /// The name of the return type's check, and the check.
    pub(crate) output: syn::Ident,
    pub(crate) output_check: TokenStream,
    /// The function returning the spec, its type, and what builds it.
    pub(crate) spec_fn: syn::Ident,
    pub(crate) spec_type: TokenStream,
    pub(crate) spec_init: TokenStream,
    /// `impl Trait for Name { .. }`.
    pub(crate) implementation: TokenStream,
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
                SPEC.get_or_init(|| { #spec_init })
            }

            #[automatically_derived]
            #implementation

            #deref
        };
    }
}
