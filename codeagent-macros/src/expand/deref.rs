//! The `Deref` that keeps an item's name callable: the unit struct derefs
//! to a function pointer (to a boxing wrapper for an async function).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::lifetime::with_lifetime;
use super::runtime::{respanned, return_type};

/// `Deref` to a function pointer, so the tool's name still calls the function.
pub(crate) fn deref_impl(
    sig: &syn::Signature,
    types: &[&syn::Type],
    name: &syn::Ident,
    implementation: &syn::Ident,
    boxed: &syn::Ident,
    p: &TokenStream,
) -> TokenStream {
    let ret = return_type(sig);
    if sig.asyncness.is_none() {
        let pointer = quote!(fn(#(#types),*) -> #ret);
        return quote! {
            #[automatically_derived]
            impl #p::Deref for #name {
                type Target = #pointer;

                fn deref(&self) -> &Self::Target {
                    const FUNCTION: #pointer = #implementation;
                    &FUNCTION
                }
            }
        };
    }
    let mut borrows = false;
    let types: Vec<TokenStream> = types
        .iter()
        .map(|ty| {
            let (ty, replaced) = with_lifetime(ty, "__codeagent");
            borrows |= replaced;
            ty
        })
        .collect();
    let names: Vec<_> = (0..types.len()).map(|index| format_ident!("__codeagent_arg_{}", index)).collect();
    // Spanned on the function's name: a future that is not `Send` is reported there, once.
    let span = sig.ident.span();
    let here = &respanned(p, span);
    let (lifetime, binder, generics) = if borrows {
        (quote!('__codeagent), quote!(for<'__codeagent>), quote!(<'__codeagent>))
    } else {
        (quote!('static), quote!(), quote!())
    };
    let future =
        quote_spanned!(span=> #here::Pin<#here::Box<dyn #here::Future<Output = #ret> + #here::Send + #lifetime>>);
    let pinned = quote_spanned! {span=>
        let future: #future = #here::Box::pin(#implementation(#(#names),*));
        future
    };
    let pointer = quote!(#binder fn(#(#types),*) -> #future);
    quote! {
        fn #boxed #generics (#(#names: #types),*) -> #future {
            #pinned
        }

        #[automatically_derived]
        impl #p::Deref for #name {
            type Target = #pointer;

            fn deref(&self) -> &Self::Target {
                const FUNCTION: #pointer = #boxed;
                &FUNCTION
            }
        }
    }
}
