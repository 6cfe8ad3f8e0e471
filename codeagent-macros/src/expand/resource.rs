//! The tokens of `#[resource]`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::LitStr;
use syn::spanned::Spanned;

use super::deref::deref_impl;
use super::runtime::{Runtime, respanned, return_span, return_type};
use super::unit_struct::{Expansion, unit_struct};
use crate::names::unraw;
use crate::parse::resource::ResourceFn;

/// The tokens of `resource`: a unit struct implementing `Resource`, whose
/// template variables are parsed into the parameters of the same name and
/// whose other parameters are injected by type.
pub(crate) fn expand_resource(resource: &ResourceFn<'_>) -> TokenStream {
    let item = resource.item;
    let attrs = &resource.attrs;
    let params = &resource.fun.params;
    let variables = resource.variables();
    let uri = attrs.uri.as_ref().map(LitStr::value).unwrap_or_default();
    let runtime = Runtime::new(attrs.krate.as_ref());
    let p = &runtime.private;
    let name = &item.sig.ident;
    let unrawed = unraw(name);
    let spec_fn = format_ident!("__codeagent_resource_spec_{}", unrawed);
    let boxed = format_ident!("__codeagent_boxed_{}", unrawed);
    let output = format_ident!("__codeagent_contents_{}", unrawed);

    let (resource_name, _) = resource.fun.name(attrs.name.as_ref());
    let description = resource.fun.description(attrs.description.as_ref());
    let title = attrs.title.as_ref().map(|title| quote!(.with_title(#title)));
    let mime_type = attrs.mime_type.as_ref().map(|mime_type| quote!(.with_mime_type(#mime_type)));
    let size = attrs.size.as_ref().map(|size| {
        let size = size.value;
        quote!(.with_size(#size))
    });
    let icons = attrs.icons.iter().map(|src| quote!(.with_icon(#p::Icon::new(#src))));
    let scopes = attrs.scopes.iter().map(|scope| quote!(.with_scope(#scope)));

    let mut checks = Vec::new();
    let mut bindings = Vec::new();
    let mut resolved = Vec::new();
    for (index, param) in params.iter().enumerate() {
        let binding = format_ident!("__codeagent_arg_{}", index);
        let ty = param.ty;
        let variable = &param.name();
        if variables.contains(variable) {
            let span = ty.span();
            let here = respanned(p, span);
            resolved.push(quote_spanned! {span=>
                let #binding = #here::Variable::<#ty>::new().parse(read, #variable)?;
            });
        } else {
            // Not a variable: injected, checked by type, spanned on the parameter.
            let check = format_ident!("__codeagent_injected_{}_{}", unrawed, index);
            let span = param.ident().span();
            let here = respanned(p, span);
            checks.push(quote! {
                #[allow(non_upper_case_globals)]
                const #check: bool = #here::injectable::<#ty>();
            });
            resolved.push(quote! {
                let #binding = <#p::check::Checked<#ty, { #check }> as #p::CheckedResourceParam<'_>>::resolve(read)?;
            });
        }
        bindings.push(binding);
    }
    let ret = return_type(&item.sig);
    let span = return_span(&item.sig);
    let here = respanned(p, span);
    let output_check = quote_spanned!(span=> #here::contents::<#ret>());
    let value =
        if item.sig.asyncness.is_some() { quote!(#boxed(#(#bindings),*).await) } else { quote!(#name(#(#bindings),*)) };
    let types = resource.fun.types();
    let deref = deref_impl(&item.sig, &types, name, name, &boxed, p);

    unit_struct(Expansion {
        item,
        p,
        checks,
        output: output.clone(),
        output_check,
        spec_fn: spec_fn.clone(),
        spec_type: quote!(#p::ResourceSpec),
        spec_init: quote! {
            #p::resource_spec(#uri, #resource_name)
                .with_description(#description)
                #title
                #mime_type
                #size
                #(#icons)* #(#scopes)*
        },
        implementation: quote! {
            impl #p::Resource for #name {
                fn spec(&self) -> &#p::ResourceSpec {
                    #spec_fn()
                }

                fn read(&self, read: #p::ResourceRead) -> #p::ResourceFuture {
                    #p::Box::pin(async move {
                        #[allow(unused_imports)]
                        use #p::RequiredVariable as _;
                        let read = &read;
                        #(#resolved)*
                        let value = #value;
                        <#p::check::Checked<#ret, { #output }> as #p::CheckedContents>::lower(
                            value,
                            read.uri(),
                            #spec_fn().mime_type(),
                        )
                    })
                }
            }
        },
        deref,
    })
}
