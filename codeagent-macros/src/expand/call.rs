//! The body of `Tool::call`: decode the arguments, resolve each parameter,
//! call the function and lower its result.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::args_struct::arg_type;
use super::checks::Checks;
use super::fields::{by_field, decode_fields};
use super::runtime::{Runtime, respanned, return_type};
use crate::parse::tool::ToolFn;

/// How the call body calls the function.
pub(crate) enum Invoke {
    /// Call it as is (sync functions and methods, async methods).
    Direct(TokenStream),
    /// Call the boxing wrapper of an async free function, which returns a
    /// `Send` future (the one place an unsendable future is reported).
    Boxed(TokenStream),
}

/// The body of `Tool::call`: decode, resolve each parameter, call, lower.
/// `receiver` is the `Arc` of a toolbox method's `self`.
pub(crate) fn call_body(
    tool: &ToolFn<'_>,
    invoke: &Invoke,
    args: &syn::Ident,
    spec_fn: &syn::Ident,
    checks: &Checks,
    runtime: &Runtime,
    receiver: Option<TokenStream>,
) -> TokenStream {
    let p = &runtime.private;
    let bindings: Vec<_> = (0..tool.fun.params.len()).map(|index| format_ident!("__codeagent_arg_{}", index)).collect();
    let by_field = by_field(tool);
    let fields: Vec<_> = (0..tool.fun.params.len()).map(|index| format_ident!("__codeagent_field_{}", index)).collect();
    let resolved =
        tool.fun.params.iter().zip(&bindings).zip(&fields).enumerate().map(|(index, ((param, binding), field))| {
            let ty = param.ty;
            let checked = checks.param(index, &quote!(#ty), p);
            let arg = if by_field {
                quote!(#field)
            } else {
                let field = param.ident();
                quote!(args.#field)
            };
            quote! {
                let #binding = match <#checked as #p::check::CheckedParam<'_>>::resolve(#arg, call) {
                    #p::Result::Ok(value) => value,
                    #p::Result::Err(error) => return #p::IntoToolResult::into_tool_result(error),
                };
            }
        });
    let value = match invoke {
        Invoke::Direct(callee) if tool.sig().asyncness.is_some() => {
            // Boxed as a `Send` future here, spanned on the method's name, so a
            // future that is not `Send` is reported once, there.
            let ret = return_type(tool.sig());
            let span = tool.sig().ident.span();
            let p = &respanned(p, span);
            quote_spanned! {span=> {
                let future: #p::Pin<#p::Box<dyn #p::Future<Output = #ret> + #p::Send + '_>> =
                    #p::Box::pin(#callee(#(#bindings),*));
                future.await
            }}
        }
        Invoke::Direct(callee) => quote!(#callee(#(#bindings),*)),
        Invoke::Boxed(boxed) => quote!(#boxed(#(#bindings),*).await),
    };
    let checked_output = checks.output(tool, p);
    let decode = if by_field {
        let types: Vec<_> =
            tool.fun.params.iter().enumerate().map(|(index, param)| arg_type(checks, index, param, p)).collect();
        decode_fields(tool, &fields, &types, &quote!(#spec_fn()), p)
    } else {
        quote! {
            let args: #args = match #p::decode_arguments::<#args>(#spec_fn(), &mut call) {
                #p::Result::Ok(args) => args,
                #p::Result::Err(error) => return #p::IntoToolResult::into_tool_result(error),
            };
        }
    };
    let steps = quote! {
        #decode
        let call = &call;
        #(#resolved)*
        <#checked_output as #p::check::CheckedOutput>::lower(#value)
    };
    // A sync body is a non-capturing closure, which coerces to the function
    // pointer the runtime takes: the blocking pool's hand-off (the box, its
    // vtable and drop glue) is compiled once in the runtime, not per tool.
    let inline = tool.attrs.inline.as_ref().is_some_and(|inline| inline.value);
    match receiver {
        Some(receiver) if tool.sig().asyncness.is_some() => quote! {
            let this = #receiver;
            #p::Box::pin(async move {
                let mut call = call;
                #steps
            })
        },
        None if tool.sig().asyncness.is_some() => quote! {
            #p::Box::pin(async move {
                let mut call = call;
                #steps
            })
        },
        Some(receiver) if inline => quote!(#p::method_inline(#receiver, call, |this, mut call| { #steps })),
        Some(receiver) => quote!(#p::method_blocking(#receiver, call, |this, mut call| { #steps })),
        None if inline => quote!(#p::call_inline(call, |mut call| { #steps })),
        None => quote!(#p::call_blocking(call, |mut call| { #steps })),
    }
}
