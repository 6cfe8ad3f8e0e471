//! The name a parameter's `#[serde(rename)]` gives its argument.

use proc_macro2::TokenStream;
use syn::Attribute;

use super::keys::Located;

/// The name `#[serde(rename = "...")]` or `#[serde(rename(deserialize = "..."))]` gives.
pub(crate) fn serde_rename(attrs: &[Attribute]) -> Option<Located<String>> {
    let mut renamed = None;
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                if meta.input.peek(syn::Token![=]) {
                    let name: syn::LitStr = meta.value()?.parse()?;
                    renamed = Some(Located { value: name.value(), span: name.span() });
                } else {
                    meta.parse_nested_meta(|inner| {
                        let name: syn::LitStr = inner.value()?.parse()?;
                        if inner.path.is_ident("deserialize") {
                            renamed = Some(Located { value: name.value(), span: name.span() });
                        }
                        Ok(())
                    })?;
                }
            } else if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<syn::Expr>()?;
            } else if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                content.parse::<TokenStream>()?;
            }
            Ok(())
        });
    }
    renamed
}
