//! Doc comments as descriptions.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of the `///` comments (and `#[doc = "..."]` literals) in `attrs`:
/// one leading space stripped from each line, surrounding blank lines
/// trimmed, paragraphs kept.
pub(crate) fn doc_text(attrs: &[Attribute]) -> String {
    let lines: Vec<String> = attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"))
        .filter_map(|attr| match &attr.meta {
            Meta::NameValue(pair) => match &pair.value {
                Expr::Lit(ExprLit { lit: Lit::Str(text), .. }) => Some(text.value()),
                _ => None,
            },
            _ => None,
        })
        .flat_map(|text| {
            text.split('\n')
                .map(|line| line.strip_prefix(' ').unwrap_or(line).trim_end().to_owned())
                .collect::<Vec<_>>()
        })
        .collect();
    lines.join("\n").trim_matches('\n').to_owned()
}

/// Whether `attrs` describe a parameter: a doc comment that is not blank, a
/// `#[doc = ...]` that is not a literal (`include_str!`, a macro's text), or
/// `#[schemars(description = "...")]`.
pub(crate) fn has_description(attrs: &[Attribute]) -> bool {
    let documented = attrs.iter().filter(|attr| attr.path().is_ident("doc")).any(|attr| match &attr.meta {
        Meta::NameValue(pair) => match &pair.value {
            Expr::Lit(ExprLit { lit: Lit::Str(text), .. }) => !text.value().trim().is_empty(),
            _ => true,
        },
        _ => false,
    });
    documented || attrs.iter().any(|attr| attr.path().is_ident("schemars") && names_key(attr, "description"))
}

/// Whether `attr`, a list attribute such as `#[serde(...)]`, names `key`
/// among its entries (`key`, `key = ...` or `key(...)`). A malformed list
/// is the derive's to report: it reads as not naming the key.
pub(crate) fn names_key(attr: &Attribute, key: &str) -> bool {
    let mut named = false;
    let _ = attr.parse_nested_meta(|meta| {
        named |= meta.path.is_ident(key);
        if meta.input.peek(syn::Token![=]) {
            meta.value()?.parse::<Expr>()?;
        } else if meta.input.peek(syn::token::Paren) {
            meta.input.parse::<proc_macro2::Group>()?;
        }
        Ok(())
    });
    named
}
