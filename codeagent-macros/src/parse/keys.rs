//! What every attribute's arguments share: the `key = value` driver that
//! goes on after a bad key, the key checks (unknown, given twice) and the
//! value readers (strings, flags, icons, the `crate` path).

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Lit, LitStr, Token};

use crate::errors::Errors;
use crate::names::did_you_mean;

/// A value with the span it was written at.
pub(crate) struct Located<T> {
    /// The value.
    pub(crate) value: T,
    /// Where it was written.
    pub(crate) span: Span,
}

/// Parses `tokens` as `key = value, ...`, calling `key` for each; a key that
/// fails is recorded and skipped, so the next key's problems are reported too.
pub(crate) fn parse_keys(
    tokens: TokenStream,
    errors: &mut Errors,
    mut key: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<()>,
) {
    let parser = syn::meta::parser(|meta| {
        if let Err(error) = key(&meta) {
            errors.push(error);
            skip_value(&meta)?;
        }
        Ok(())
    });
    if let Err(error) = syn::parse::Parser::parse2(parser, tokens) {
        errors.push(error);
    }
}

/// The key `meta` names, once it is known to be one of `keys` and not in
/// `seen` (which it joins); `kind` names the attribute in the message.
pub(crate) fn known_key(
    meta: &ParseNestedMeta<'_>,
    kind: &str,
    keys: &[&str],
    seen: &mut Vec<String>,
) -> syn::Result<String> {
    let key = path_text(&meta.path);
    if !keys.contains(&key.as_str()) {
        return Err(meta.error(unknown_key(kind, &key, keys)));
    }
    if seen.contains(&key) {
        return Err(meta.error(format!("`{key}` is given twice")));
    }
    seen.push(key.clone());
    Ok(key)
}

/// The message for a key `kind`'s attribute does not accept.
fn unknown_key(kind: &str, key: &str, keys: &[&str]) -> String {
    if let [only] = keys {
        return format!("unknown {kind} attribute `{key}`; the only key is `{only}`");
    }
    let hint = did_you_mean(key, keys).map(|close| format!("; did you mean `{close}`?")).unwrap_or_default();
    format!(
        "unknown {kind} attribute `{key}`{hint}\nexpected one of: {}",
        keys.iter().map(|key| format!("`{key}`")).collect::<Vec<_>>().join(", ")
    )
}

/// `icons = ["...", ...]`.
pub(crate) fn icons(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<String>> {
    let list: syn::ExprArray = meta.value()?.parse()?;
    list.elems
        .iter()
        .map(|element| match element {
            syn::Expr::Lit(syn::ExprLit { lit: Lit::Str(src), .. }) => Ok(src.value()),
            other => Err(syn::Error::new(other.span(), "each icon is a string: its URL or data: URI")),
        })
        .collect()
}

/// `scopes = ["sales:write", ...]`: OAuth scope tokens (RFC 6749 §3.3:
/// visible ASCII without spaces, `"` or `\\`), each spanned when it is not one.
pub(crate) fn scopes(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<String>> {
    const HINT: &str = "`scopes` lists the OAuth scopes a call needs: `scopes = [\"sales:write\"]`";
    let list: syn::ExprArray = meta.value().map_err(|_| meta.error(HINT))?.parse().map_err(|_| meta.error(HINT))?;
    list.elems
        .iter()
        .map(|element| match element {
            syn::Expr::Lit(syn::ExprLit { lit: Lit::Str(text), .. }) => {
                let scope = text.value();
                let token = !scope.is_empty()
                    && scope.bytes().all(|b| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b));
                if token {
                    Ok(scope)
                } else if scope.is_empty() {
                    Err(syn::Error::new(text.span(), "an OAuth scope is not empty: `scopes = [\"sales:write\"]`"))
                } else {
                    Err(syn::Error::new(
                        text.span(),
                        format!(
                            "`{scope}` is not an OAuth scope: a scope is visible ASCII without spaces, `\"` or `\\`"
                        ),
                    ))
                }
            }
            other => Err(syn::Error::new(other.span(), HINT)),
        })
        .collect()
}

/// `crate = "::path"`.
pub(crate) fn crate_path(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::Path> {
    let path = string_value(meta)?;
    path.parse().map_err(|_| syn::Error::new(path.span(), "`crate` takes a path such as \"::codeagent\""))
}

/// `path` as written, `a::b`.
pub(crate) fn path_text(path: &syn::Path) -> String {
    path.segments.iter().map(|segment| segment.ident.to_string()).collect::<Vec<_>>().join("::")
}

/// `key = "..."`.
pub(crate) fn string_value(meta: &ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    let key = path_text(&meta.path);
    let value = meta.value().map_err(|_| meta.error(format!("`{key}` takes a string: `{key} = \"...\"`")))?;
    match value.parse::<syn::Expr>()? {
        syn::Expr::Lit(syn::ExprLit { lit: Lit::Str(text), .. }) => Ok(text),
        other => Err(syn::Error::new(other.span(), format!("`{key}` takes a string: `{key} = \"...\"`"))),
    }
}

/// `key = "..."`, with the string's span.
pub(crate) fn located_string(meta: &ParseNestedMeta<'_>) -> syn::Result<Located<String>> {
    let text = string_value(meta)?;
    Ok(Located { value: text.value(), span: text.span() })
}

/// `read_only` or `read_only = true`.
pub(crate) fn flag(meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
    if !meta.input.peek(Token![=]) {
        return Ok(true);
    }
    let key = path_text(&meta.path);
    match meta.value()?.parse::<syn::Expr>()? {
        syn::Expr::Lit(syn::ExprLit { lit: Lit::Bool(value), .. }) => Ok(value.value),
        other => Err(syn::Error::new(other.span(), format!("`{key}` is a flag: write `{key}` or `{key} = false`"))),
    }
}

/// Consumes what is left of a key that was refused, up to the next `,`, so
/// parsing goes on and the next key's problems are reported too.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    meta.input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, proc_macro2::TokenTree::Punct(punct) if punct.as_char() == ',') {
                break;
            }
            rest = next;
        }
        Ok(((), rest))
    })
}
