//! Decoding a tool's arguments field by field (`codeagent::__private::Fields`)
//! rather than through a derived `Deserialize` of its argument struct.
//!
//! A derived deserializer is code of each tool's own, generic over serde's
//! machinery, that the compiler instantiates in codegen units every tool
//! shares: editing one tool compiles all of it again. Field by field, the
//! only generic code is serde's for each parameter type, shared by every
//! tool. Parameters whose `#[serde(...)]` attributes ask for more than a
//! rename or a default (`with`, `alias`, `flatten`, ...) keep the derived
//! deserializer, which knows them all.

use proc_macro2::TokenStream;
use quote::quote;

use crate::parse::signature::Param;
use crate::parse::tool::ToolFn;

/// What a field left out takes.
enum Absent {
    /// Serde's rule: `None` for an `Option`, else the error "missing field".
    Missing,
    /// `#[serde(default)]`.
    Default,
    /// `#[serde(default = "path")]`.
    Function(syn::ExprPath),
}

/// How a parameter is decoded field by field; `None` when one of its
/// `#[serde(...)]` keys is not a rename or a default.
fn absent(param: &Param<'_>) -> Option<Absent> {
    let mut absent = Absent::Missing;
    for attr in param.attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<syn::LitStr>()?;
                } else {
                    meta.parse_nested_meta(|inner| inner.value()?.parse::<syn::LitStr>().map(drop))?;
                }
                Ok(())
            } else if meta.path.is_ident("default") {
                absent = if meta.input.peek(syn::Token![=]) {
                    Absent::Function(meta.value()?.parse::<syn::LitStr>()?.parse()?)
                } else {
                    Absent::Default
                };
                Ok(())
            } else {
                Err(meta.error("decoded by the derived deserializer"))
            }
        });
        parsed.ok()?;
    }
    Some(absent)
}

/// Whether `tool`'s arguments are decoded field by field.
pub(crate) fn by_field(tool: &ToolFn<'_>) -> bool {
    tool.fun.params.iter().all(|param| absent(param).is_some())
}

/// The statements that decode `tool`'s arguments field by field into
/// `bindings`, whose types are `types` (the argument struct's field types);
/// `spec` is the tool's spec.
///
/// Each field is taken by a call generic over its type only (shared by
/// every tool taking that type), and one check of the outcome follows: a
/// tool's own code is a call per field and one `match`.
pub(crate) fn decode_fields(
    tool: &ToolFn<'_>,
    bindings: &[syn::Ident],
    types: &[TokenStream],
    spec: &TokenStream,
    p: &TokenStream,
) -> TokenStream {
    let names = tool.fun.params.iter().map(|param| param.wire_name().0);
    let deny = !tool.attrs.allow_unknown_arguments;
    let new = quote! {
        match #p::Fields::new(#spec, &mut call, &[#(#names),*], #deny) {
            #p::Result::Ok(fields) => fields,
            #p::Result::Err(error) => return #p::IntoToolResult::into_tool_result(error),
        }
    };
    // Without parameters, the check refuses (or skips) what the client sent:
    // no field is declared, so none is taken.
    if bindings.is_empty() {
        return quote! {
            let fields = #new;
            if let #p::Result::Err(error) = fields.finish() {
                return #p::IntoToolResult::into_tool_result(error);
            }
        };
    }
    let taken = tool.fun.params.iter().zip(types).enumerate().map(|(index, (param, ty))| match absent(param) {
        Some(Absent::Default) => quote!(fields.take_or_default::<#ty>(#index)),
        Some(Absent::Function(path)) => quote!(fields.take_or_else::<#ty>(#index, #path)),
        Some(Absent::Missing) | None => quote!(fields.take::<#ty>(#index)),
    });
    quote! {
        let mut fields = #new;
        let (#(#bindings,)*) = match (#(#taken,)* fields.finish()) {
            (#(#p::Option::Some(#bindings),)* #p::Result::Ok(())) => (#(#bindings,)*),
            (.., outcome) => return #p::Fields::failed(outcome),
        };
    }
}
