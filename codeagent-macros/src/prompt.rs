//! `#[prompt]` on a free function: its parameters are the prompt's
//! arguments (decided by type: `String` required, `Option<String>`
//! optional, `&Context` injected) and a unit struct implements `Prompt`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use crate::attr::{Errors, ItemAttrs, PROMPT_KEYS};
use crate::docs::doc_text;
use crate::expand::{Failure, Runtime, deref_impl, respanned, return_span, return_type};
use crate::item::{self, Expansion, ItemParam, check_sig, params, unit_struct};
use crate::names::unraw;

/// Expands `#[prompt]`.
pub(crate) fn expand(args: TokenStream, item: &syn::ItemFn) -> Result<TokenStream, Failure> {
    let mut errors = Errors::default();
    let attrs = ItemAttrs::parse(args, "prompt", &PROMPT_KEYS, &mut errors);
    let params = params(&item.sig, "prompt", &mut errors);
    check_sig(&item.sig, "prompt", &mut errors);
    let mut completers = Vec::new();
    for param in &params {
        let mut completer = None;
        for attr in param.attrs {
            let path = attr.path();
            if path.is_ident("complete") {
                if completer.is_some() {
                    errors.at(attr.meta.span(), "`#[complete(...)]` is given twice on this parameter");
                    continue;
                }
                match attr.parse_args::<syn::Path>() {
                    Ok(function) => completer = Some(function),
                    Err(_) => errors.at(
                        attr.meta.span(),
                        "write `#[complete(path::to::function)]`, naming a \
                         `fn(&str, &BTreeMap<String, String>) -> Vec<String>`",
                    ),
                }
            } else if !path.is_ident("doc") && !path.is_ident("cfg") {
                errors.at(attr.meta.span(), "only doc comments and #[complete(...)] can go on a prompt parameter");
            }
        }
        completers.push(completer);
    }
    let mut seen: Vec<&str> = Vec::new();
    for param in &params {
        if seen.contains(&param.name.as_str()) {
            errors.at(param.ident.span(), format!("the argument name `{}` is used twice", param.name));
        }
        seen.push(&param.name);
    }
    if let Err(error) = errors.finish() {
        return Err(Failure { error, krate: attrs.krate });
    }
    Ok(tokens(item, &attrs, &params, &completers))
}

fn tokens(
    item: &syn::ItemFn,
    attrs: &ItemAttrs,
    params: &[ItemParam<'_>],
    completers: &[Option<syn::Path>],
) -> TokenStream {
    let runtime = Runtime::new(attrs.krate.as_ref());
    let p = &runtime.private;
    let name = &item.sig.ident;
    let unrawed = unraw(name);
    let spec_fn = format_ident!("__codeagent_prompt_spec_{}", unrawed);
    let boxed = format_ident!("__codeagent_boxed_{}", unrawed);
    let output = format_ident!("__codeagent_messages_{}", unrawed);

    let (prompt_name, _) = item::name(&item.sig, attrs);
    let description = attrs.description.clone().unwrap_or_else(|| doc_text(&item.attrs));
    let title = attrs.title.as_ref().map(|title| quote!(.with_title(#title)));
    let icons = attrs.icons.iter().map(|src| quote!(.with_icon(#p::Icon::new(#src))));

    let mut checks = Vec::new();
    let mut arguments = Vec::new();
    let mut bindings = Vec::new();
    let mut resolved = Vec::new();
    for (index, (param, completer)) in params.iter().zip(completers).enumerate() {
        let binding = format_ident!("__codeagent_arg_{}", index);
        let check = format_ident!("__codeagent_prompt_param_{}_{}", unrawed, index);
        let ty = param.ty;
        let argument = &param.name;
        let span = ty.span();
        let here = respanned(p, span);
        checks.push(quote! {
            #[allow(non_upper_case_globals)]
            const #check: bool = #here::prompt_param::<#ty>();
        });
        let checked = quote!(#p::check::Checked<#ty, { #check }>);
        let argument_description = doc_text(param.attrs);
        let completer = match completer {
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
            let #binding = <#checked as #p::CheckedPromptParam<'_>>::resolve(get, #argument);
        });
        bindings.push(binding);
    }
    let ret = return_type(&item.sig);
    let span = return_span(&item.sig);
    let here = respanned(p, span);
    let output_check = quote_spanned!(span=> #here::messages::<#ret>());
    let value =
        if item.sig.asyncness.is_some() { quote!(#boxed(#(#bindings),*).await) } else { quote!(#name(#(#bindings),*)) };
    let types: Vec<&syn::Type> = params.iter().map(|param| param.ty).collect();
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
                #(#icons)*;
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
