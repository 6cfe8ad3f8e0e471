//! `#[resource]` on a free function: its URI (checked with the runtime's
//! own URI-template parser), its parameters (template variables by name,
//! injected values by type) and the `Resource` impl.

use codeagent_uri_template::{UriTemplate, check_uri, has_scheme};
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::LitStr;
use syn::spanned::Spanned;

use crate::attr::{Errors, ItemAttrs, RESOURCE_KEYS};
use crate::docs::doc_text;
use crate::expand::{Failure, Runtime, deref_impl, respanned, return_span, return_type};
use crate::item::{self, Expansion, ItemParam, check_sig, params, unit_struct};
use crate::names::unraw;

/// Expands `#[resource]`.
pub(crate) fn expand(args: TokenStream, item: &syn::ItemFn) -> Result<TokenStream, Failure> {
    let mut errors = Errors::default();
    let attrs = ItemAttrs::parse(args, "resource", &RESOURCE_KEYS, &mut errors);
    let params = params(&item.sig, "resource", &mut errors);
    check_sig(&item.sig, "resource", &mut errors);
    for param in &params {
        for attr in param.attrs {
            if !attr.path().is_ident("doc") && !attr.path().is_ident("cfg") {
                errors.at(attr.meta.span(), "only doc comments can go on a resource parameter");
            }
        }
    }
    let template = match &attrs.uri {
        Some(uri) => checked_uri(uri, &mut errors),
        None => {
            errors.at(
                proc_macro2::Span::call_site(),
                "#[resource] needs a URI: `#[resource(uri = \"file:///notes.txt\")]`, or a template such as \
                 `#[resource(uri = \"users://{id}/profile\")]`",
            );
            None
        }
    };
    let mut variables: Vec<String> = Vec::new();
    if let (Some(template), Some(uri)) = (&template, &attrs.uri) {
        for variable in template.variables() {
            if !variables.iter().any(|known| known == variable) {
                variables.push(variable.to_owned());
            }
        }
        // A parameter refused above (a pattern, `impl Trait`) may be the variable's: no second error.
        let every_param_read = params.len() == item.sig.inputs.len();
        for variable in variables.iter().filter(|_| every_param_read) {
            if !params.iter().any(|param| &param.name == variable) {
                errors.at(
                    uri.span(),
                    format!(
                        "the URI template has the variable `{variable}`, but the function has no parameter \
                         `{variable}`; add `{variable}: String` (or another `FromStr` type, `Option<_>` when it \
                         may be absent)"
                    ),
                );
            }
        }
        if let Some(size) = &attrs.size
            && !template.is_literal()
        {
            errors.at(size.span, "`size` is for a fixed URI: each URI of a template is a resource of its own size");
        }
    }
    if let Err(error) = errors.finish() {
        return Err(Failure { error, krate: attrs.krate });
    }
    let uri = attrs.uri.as_ref().map(LitStr::value).unwrap_or_default();
    Ok(tokens(item, &attrs, &params, &variables, &uri))
}

/// The template `uri` parses to, when it is a URI or a template a resource
/// can be served at; every problem is reported on the string.
fn checked_uri(uri: &LitStr, errors: &mut Errors) -> Option<UriTemplate> {
    let text = uri.value();
    let template = match UriTemplate::parse(&text) {
        Ok(template) => template,
        Err(error) => {
            errors.at(uri.span(), format!("`{text}` is not a valid URI template: {error}"));
            return None;
        }
    };
    // As `ResourceSpec::fixed` checks a URI: a scheme, then only URI characters.
    if !has_scheme(&text) {
        errors.at(
            uri.span(),
            format!(
                "`{text}` is not a URI with a scheme: write an absolute URI such as `file:///notes.txt`, or a \
                 template such as `users://{{id}}/profile`"
            ),
        );
        return None;
    }
    if template.is_literal() {
        if let Err(problem) = check_uri(&text) {
            errors.at(uri.span(), problem.to_string());
            return None;
        }
    } else if !template.is_matchable() {
        errors.at(
            uri.span(),
            format!(
                "the URI template `{text}` cannot be matched back from a URI, so no read would find the resource: \
                 drop explode (`*`) and prefix (`:3`) modifiers, and put a literal between two expressions"
            ),
        );
        return None;
    }
    Some(template)
}

fn tokens(
    item: &syn::ItemFn,
    attrs: &ItemAttrs,
    params: &[ItemParam<'_>],
    variables: &[String],
    uri: &str,
) -> TokenStream {
    let runtime = Runtime::new(attrs.krate.as_ref());
    let p = &runtime.private;
    let name = &item.sig.ident;
    let unrawed = unraw(name);
    let spec_fn = format_ident!("__codeagent_resource_spec_{}", unrawed);
    let boxed = format_ident!("__codeagent_boxed_{}", unrawed);
    let output = format_ident!("__codeagent_contents_{}", unrawed);

    let (resource_name, _) = item::name(&item.sig, attrs);
    let description = attrs.description.clone().unwrap_or_else(|| doc_text(&item.attrs));
    let title = attrs.title.as_ref().map(|title| quote!(.with_title(#title)));
    let mime_type = attrs.mime_type.as_ref().map(|mime_type| quote!(.with_mime_type(#mime_type)));
    let size = attrs.size.as_ref().map(|size| {
        let size = size.value;
        quote!(.with_size(#size))
    });
    let icons = attrs.icons.iter().map(|src| quote!(.with_icon(#p::Icon::new(#src))));

    let mut checks = Vec::new();
    let mut bindings = Vec::new();
    let mut resolved = Vec::new();
    for (index, param) in params.iter().enumerate() {
        let binding = format_ident!("__codeagent_arg_{}", index);
        let ty = param.ty;
        let variable = &param.name;
        if variables.contains(variable) {
            let span = ty.span();
            let here = respanned(p, span);
            resolved.push(quote_spanned! {span=>
                let #binding = #here::Variable::<#ty>::new().parse(read, #variable)?;
            });
        } else {
            // Not a variable: injected, checked by type, spanned on the parameter.
            let check = format_ident!("__codeagent_injected_{}_{}", unrawed, index);
            let span = param.ident.span();
            let here = respanned(p, span);
            checks.push(quote! {
                #[allow(non_upper_case_globals)]
                const #check: bool = #here::injectable::<#ty>();
            });
            resolved.push(quote! {
                let #binding = <#p::check::Checked<#ty, { #check }> as #p::CheckedResourceParam<'_>>::resolve(read);
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
    let types: Vec<&syn::Type> = params.iter().map(|param| param.ty).collect();
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
                #(#icons)*
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
