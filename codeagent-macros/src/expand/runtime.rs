//! Paths into the runtime, and the spans the expansion gives them.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

/// Paths into the runtime, all through one hidden module.
pub(crate) struct Runtime {
    /// `::codeagent::__private`, or the `crate = "..."` override's.
    pub(crate) private: TokenStream,
    /// The path serde's derive is given, as a string.
    pub(crate) serde: String,
    /// The path schemars' derive is given, as a string.
    pub(crate) schemars: String,
}

impl Runtime {
    /// The paths for `krate`, the `crate = "..."` override, else `::codeagent`.
    pub(crate) fn new(krate: Option<&syn::Path>) -> Runtime {
        let krate = krate.map_or_else(|| quote!(::codeagent), |path| quote!(#path));
        let text = krate.to_string().replace(' ', "");
        Runtime {
            private: quote!(#krate::__private),
            serde: format!("{text}::__private::serde"),
            schemars: format!("{text}::__private::schemars"),
        }
    }
}

/// `tokens` with every token at `span`, so that an error about code built
/// from them points at the user's tokens that `span` belongs to.
pub(crate) fn respanned(tokens: &TokenStream, span: Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|mut tree| {
            if let proc_macro2::TokenTree::Group(group) = &tree {
                let mut inner = proc_macro2::Group::new(group.delimiter(), respanned(&group.stream(), span));
                inner.set_span(span);
                tree = proc_macro2::TokenTree::Group(inner);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}

/// Where the return type was written: the type, else the function's name.
pub(crate) fn return_span(sig: &syn::Signature) -> Span {
    match &sig.output {
        syn::ReturnType::Default => sig.ident.span(),
        syn::ReturnType::Type(_, ty) => ty.span(),
    }
}

/// The declared return type, `()` when there is none.
pub(crate) fn return_type(sig: &syn::Signature) -> TokenStream {
    match &sig.output {
        syn::ReturnType::Default => quote_spanned!(sig.ident.span()=> ()),
        syn::ReturnType::Type(_, ty) => quote!(#ty),
    }
}
