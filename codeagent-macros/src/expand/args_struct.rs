//! The struct a tool's arguments are decoded into: its input schema.

use proc_macro2::TokenStream;
use quote::quote;

use super::checks::Checks;
use super::lifetime::with_lifetime;
use super::runtime::Runtime;
use crate::parse::tool::ToolFn;

/// The struct whose fields are the tool's parameters, deriving `Deserialize`
/// and `JsonSchema`; injected parameters are [`Injected`] placeholders.
pub(crate) fn args_struct(tool: &ToolFn<'_>, args: &syn::Ident, checks: &Checks, runtime: &Runtime) -> TokenStream {
    let p = &runtime.private;
    let fields = tool.fun.params.iter().enumerate().map(|(index, param)| {
        let forwarded = param.attrs;
        let ident = param.ident();
        let checked = checks.param(index, &with_lifetime(param.ty, "static").0, p);
        quote!(#(#forwarded)* #ident: <#checked as #p::check::CheckedParam<'static>>::Arg)
    });
    let serde = &runtime.serde;
    let schemars = &runtime.schemars;
    let deny = (!tool.attrs.allow_unknown_arguments).then(|| quote!(, deny_unknown_fields));
    quote! {
        #[derive(#p::serde::Deserialize, #p::schemars::JsonSchema)]
        #[serde(crate = #serde #deny)]
        #[schemars(crate = #schemars)]
        #[allow(non_camel_case_types, dead_code)]
        struct #args {
            #(#fields,)*
        }
    }
}
