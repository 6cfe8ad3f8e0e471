//! The tokens of `#[prompt]`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::deref::deref_impl;
use super::runtime::{Runtime, respanned, return_span, return_type};
use super::unit_struct::{Expansion, unit_struct};
use crate::names::unraw;
use crate::parse::doc_text;
use crate::parse::prompt::PromptFn;

/// The tokens of `prompt`: a unit struct implementing `Prompt`, whose
/// arguments are the parameters, decided by type.
pub(crate) fn expand_prompt(prompt: &PromptFn<'_>) -> TokenStream {
    let item = prompt.item;
    let attrs = &prompt.attrs;
    let params = &prompt.fun.params;
    let runtime = Runtime::new(attrs.krate.as_ref());
    let p = &runtime.private;
    let name = &item.sig.ident;
    let unrawed = unraw(name);
    let spec_fn = format_ident!("__codeagent_prompt_spec_{}", unrawed);
    let boxed = format_ident!("__codeagent_boxed_{}", unrawed);
    let output = format_ident!("__codeagent_messages_{}", unrawed);

    let (prompt_name, _) = prompt.fun.name(attrs.name.as_ref());
    let description = prompt.fun.description(attrs.description.as_ref());
    let title = attrs.title.as_ref().map(|title| quote!(.with_title(#title)));
    let icons = attrs.icons.iter().map(|src| quote!(.with_icon(#p::Icon::new(#src))));
    let scopes = attrs.scopes.iter().map(|scope| quote!(.with_scope(#scope)));

    let mut checks = Vec::new();
    let mut arguments = Vec::new();
    let mut bindings = Vec::new();
    let mut resolved = Vec::new();
    for (index, param) in params.iter().enumerate() {
        let binding = format_ident!("__codeagent_arg_{}", index);
        let check = format_ident!("__codeagent_prompt_param_{}_{}", unrawed, index);
        let ty = param.ty;
        let argument = &param.name();
        let span = ty.span();
        let here = respanned(p, span);
        checks.push(quote! {
            #[allow(non_upper_case_globals)]
            const #check: bool = #here::prompt_param::<#ty>();
        });
        let checked = quote!(#p::check::Checked<#ty, { #check }>);
        let argument_description = doc_text(param.attrs);
        let completer = match prompt.completer(index) {
            Some(function) => {
                let span = function.span();
                let here = respanned(p, span);
                quote_spanned!(span=> #here::Option::Some(#here::Completer::new(#function)))
            }
            None => quote!(#p::Option::None),
        };
        arguments.push(quote! {
            let spec = <#checked as #p::CheckedPromptParam<'_>>::add_to(spec, #argument, #argument_description, #completer);
        });
        resolved.push(quote! {
            let #binding = <#checked as #p::CheckedPromptParam<'_>>::resolve(get, #argument)?;
        });
        bindings.push(binding);
    }
    let ret = return_type(&item.sig);
    let span = return_span(&item.sig);
    let here = respanned(p, span);
    let output_check = quote_spanned!(span=> #here::messages::<#ret>());
    let value =
        if item.sig.asyncness.is_some() { quote!(#boxed(#(#bindings),*).await) } else { quote!(#name(#(#bindings),*)) };
    let types = prompt.fun.types();
    let deref = deref_impl(&item.sig, &types, name, name, &boxed, p);

    unit_struct(Expansion {
        item,
        p,
        checks,
        output: output.clone(),
        output_check,
        spec_fn: spec_fn.clone(),
        spec_type: quote!(#p::PromptSpec),
        spec_init: quote! {
            let spec = #p::PromptSpec::new(#prompt_name)
                .with_description(#description)
                #title
                #(#icons)* #(#scopes)*;
            #(#arguments)*
            spec
        },
        implementation: quote! {
            impl #p::Prompt for #name {
                fn spec(&self) -> &#p::PromptSpec {
                    #spec_fn()
                }

                fn get(&self, get: #p::PromptGet) -> #p::PromptFuture {
                    #p::Box::pin(async move {
                        let get = &get;
                        #(#resolved)*
                        let value = #value;
                        <#p::check::Checked<#ret, { #output }> as #p::CheckedMessages>::lower(value)
                    })
                }
            }
        },
        deref,
    })
}
