//! The arguments of `#[resource(...)]` and `#[prompt(...)]`.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Lit, LitStr};

use super::keys::{Located, crate_path, icons, known_key, located_string, parse_keys, scopes, string_value};
use crate::errors::Errors;

/// The keys `#[resource(...)]` accepts.
pub(crate) const RESOURCE_KEYS: [&str; 9] =
    ["uri", "name", "title", "description", "mime_type", "size", "icons", "scopes", "crate"];

/// The keys `#[prompt(...)]` accepts.
pub(crate) const PROMPT_KEYS: [&str; 6] = ["name", "title", "description", "icons", "scopes", "crate"];

/// What `#[resource(...)]` or `#[prompt(...)]` says (a prompt has no `uri`,
/// `mime_type` or `size`).
#[derive(Default)]
pub(crate) struct ItemAttrs {
    /// `uri = "..."`: a fixed URI or an RFC 6570 template (resources only).
    pub(crate) uri: Option<LitStr>,
    /// `name = "..."`: the name clients see, instead of the function's.
    pub(crate) name: Option<Located<String>>,
    /// `title = "..."`: the display title.
    pub(crate) title: Option<String>,
    /// `description = "..."`: instead of the doc comment.
    pub(crate) description: Option<String>,
    /// `mime_type = "..."`: the contents' MIME type (resources only).
    pub(crate) mime_type: Option<String>,
    /// `size = N`: the contents' size in bytes (fixed URIs only).
    pub(crate) size: Option<Located<u64>>,
    /// `icons = [...]`: the icons' URLs or data: URIs.
    pub(crate) icons: Vec<String>,
    /// `scopes = [...]`: the OAuth scopes a read or a get needs.
    pub(crate) scopes: Vec<String>,
    /// `crate = "..."`: the path of the `codeagent` crate.
    pub(crate) krate: Option<syn::Path>,
    seen: Vec<String>,
}

impl ItemAttrs {
    /// Parses the tokens inside `#[resource(...)]` (`kind` "resource") or
    /// `#[prompt(...)]`, accepting `keys`; every problem goes to `errors`.
    pub(crate) fn parse(tokens: TokenStream, kind: &str, keys: &[&str], errors: &mut Errors) -> ItemAttrs {
        let mut attrs = ItemAttrs::default();
        parse_keys(tokens, errors, |meta| attrs.parse_key(meta, kind, keys));
        attrs
    }

    /// Reads one key.
    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>, kind: &str, keys: &[&str]) -> syn::Result<()> {
        match known_key(meta, kind, keys, &mut self.seen)?.as_str() {
            "uri" => self.uri = Some(string_value(meta)?),
            "name" => self.name = Some(located_string(meta)?),
            "title" => self.title = Some(string_value(meta)?.value()),
            "description" => self.description = Some(string_value(meta)?.value()),
            "mime_type" => self.mime_type = Some(string_value(meta)?.value()),
            "size" => {
                let span = meta.path.span();
                let value = match meta.value()?.parse::<syn::Expr>()? {
                    syn::Expr::Lit(syn::ExprLit { lit: Lit::Int(size), .. }) => size.base10_parse::<u64>()?,
                    other => {
                        return Err(syn::Error::new(other.span(), "`size` takes a number of bytes: `size = 1024`"));
                    }
                };
                self.size = Some(Located { value, span });
            }
            "icons" => self.icons.extend(icons(meta)?),
            "scopes" => self.scopes = scopes(meta)?,
            _ => self.krate = Some(crate_path(meta)?),
        }
        Ok(())
    }
}
