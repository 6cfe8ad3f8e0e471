//! The struct a tool's arguments are decoded into: its input schema.

use proc_macro2::TokenStream;
use quote::quote;

use super::checks::Checks;
use super::fields::by_field;
use super::lifetime::with_lifetime;
use super::runtime::Runtime;
use crate::parse::signature::Param;
use crate::parse::tool::ToolFn;

/// The struct whose fields are the tool's parameters, deriving `JsonSchema`
/// (and `Deserialize` when the arguments are not decoded field by field);
/// injected parameters are [`Injected`] placeholders.
///
/// None when the schema is written without it (see [`described`]).
pub(crate) fn args_struct(tool: &ToolFn<'_>, args: &syn::Ident, checks: &Checks, runtime: &Runtime) -> TokenStream {
    if described(tool).is_some() {
        return TokenStream::new();
    }
    let p = &runtime.private;
    let fields = tool.fun.params.iter().enumerate().map(|(index, param)| {
        let forwarded = param.attrs;
        let ident = param.ident();
        let ty = arg_type(checks, index, param, p);
        quote!(#(#forwarded)* #ident: #ty)
    });
    let serde = &runtime.serde;
    let schemars = &runtime.schemars;
    let deny = (!tool.attrs.allow_unknown_arguments).then(|| quote!(, deny_unknown_fields));
    // Decoded field by field when it can be (see `fields`); the schema is always derived.
    let deserialize = (!by_field(tool)).then(|| quote!(#p::serde::Deserialize,));
    quote! {
        #[derive(#deserialize #p::schemars::JsonSchema)]
        #[serde(crate = #serde #deny)]
        #[schemars(crate = #schemars)]
        #[allow(non_camel_case_types, dead_code)]
        struct #args {
            #(#fields,)*
        }
    }
}

/// The argument struct's field type for parameter `index`: the value itself
/// for an argument, `Injected` for what the server injects.
pub(crate) fn arg_type(checks: &Checks, index: usize, param: &Param<'_>, p: &TokenStream) -> TokenStream {
    let checked = checks.param(index, &with_lifetime(param.ty, "static").0, p);
    quote!(<#checked as #p::check::CheckedParam<'static>>::Arg)
}

/// The doc comment of each parameter, as schemars reads it (the lines joined
/// by `\n`, one leading space of each taken off), when no parameter has an
/// attribute but doc comments written as string literals: the input schema
/// is then written by the runtime's `tool_spec_of` from these, the same as
/// the derive's, and the tool has no argument struct (its arguments are
/// decoded field by field, see `fields`). `None` otherwise.
pub(crate) fn described(tool: &ToolFn<'_>) -> Option<Vec<String>> {
    tool.fun
        .params
        .iter()
        .map(|param| {
            let mut lines = Vec::new();
            for attr in param.attrs {
                let syn::Meta::NameValue(doc) = &attr.meta else { return None };
                if !doc.path.is_ident("doc") {
                    return None;
                }
                let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(line), .. }) = &doc.value else { return None };
                let line = line.value();
                lines.push(line.strip_prefix(' ').map_or_else(|| line.clone(), str::to_owned));
            }
            Some(lines.join("\n"))
        })
        .collect()
}
