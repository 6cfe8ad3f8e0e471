//! The compile-time checks of a tool's parameter and return types.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::runtime::{respanned, return_span, return_type};
use crate::parse::tool::ToolFn;

/// The compile-time checks of a tool's parameter and return types.
///
/// Each type is checked once, by a `const` spanned on the type (see
/// `codeagent_core::toolbox::check`); everything else names the type through
/// `Checked<T, CONST>`, so a failed check adds no further errors.
pub(crate) struct Checks {
    /// Per parameter: the first and the complete check.
    params: Vec<(syn::Ident, syn::Ident)>,
    output: syn::Ident,
}

impl Checks {
    /// The names of `tool`'s checks (`unrawed` is its unrawed name).
    pub(crate) fn new(tool: &ToolFn<'_>, unrawed: &str) -> Checks {
        let params = (0..tool.fun.params.len())
            .map(|index| {
                (
                    format_ident!("__codeagent_decodable_{}_{}", unrawed, index),
                    format_ident!("__codeagent_param_{}_{}", unrawed, index),
                )
            })
            .collect();
        Checks { params, output: format_ident!("__codeagent_output_{}", unrawed) }
    }

    /// The `const` items that run the checks.
    pub(crate) fn items(&self, tool: &ToolFn<'_>, p: &TokenStream) -> TokenStream {
        let params = tool.fun.params.iter().zip(&self.params).map(|(param, (decodable, complete))| {
            // As written: lifetimes are inferred in a `const` initializer, and
            // the message shows the type as the user wrote it.
            let ty = param.ty;
            let span = ty.span();
            let p = &respanned(p, span);
            // A reference can only be injected (`&Context`): checking it as such
            // reports `&str` as a type error with a hint, not a lifetime error.
            let first = if matches!(param.ty, syn::Type::Reference(_)) {
                quote_spanned!(span=> #p::check::borrowed::<#ty>())
            } else {
                quote_spanned!(span=> #p::check::decodable::<#ty>())
            };
            let second = quote_spanned!(span=> #p::check::param::<#ty, #decodable>());
            quote! {
                #[allow(non_upper_case_globals)]
                const #decodable: bool = #first;
                #[allow(non_upper_case_globals)]
                const #complete: bool = #second;
            }
        });
        let ret = return_type(tool.sig());
        let output = &self.output;
        let span = return_span(tool.sig());
        let p = &respanned(p, span);
        let check = quote_spanned!(span=> #p::check::output::<#ret>());
        quote! {
            #(#params)*
            #[allow(non_upper_case_globals)]
            const #output: bool = #check;
        }
    }

    /// `ty`, the type of parameter `index`, as checked.
    pub(crate) fn param(&self, index: usize, ty: &TokenStream, p: &TokenStream) -> TokenStream {
        let complete = &self.params[index].1;
        quote!(#p::check::Checked<#ty, { #complete }>)
    }

    /// The return type, as checked.
    pub(crate) fn output(&self, tool: &ToolFn<'_>, p: &TokenStream) -> TokenStream {
        let ret = return_type(tool.sig());
        let output = &self.output;
        quote!(#p::check::Checked<#ret, { #output }>)
    }
}
