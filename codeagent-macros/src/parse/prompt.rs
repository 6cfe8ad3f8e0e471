//! `#[prompt]`'s definition: the function, its arguments and each
//! parameter's `#[complete(...)]` completers.

use proc_macro2::TokenStream;

use super::item_args::{ItemAttrs, PROMPT_KEYS};
use super::signature::FnDef;
use crate::errors::Errors;

/// `#[prompt]` on a free function.
pub(crate) struct PromptFn<'a> {
    /// The function as written.
    pub(crate) item: &'a syn::ItemFn,
    /// Its signature, read.
    pub(crate) fun: FnDef<'a>,
    /// The `#[prompt(...)]` arguments.
    pub(crate) attrs: ItemAttrs,
    /// Per parameter, its `#[complete(...)]` attributes as written.
    pub(crate) completers: Vec<Vec<Completer<'a>>>,
}

/// One `#[complete(path)]` on a prompt parameter.
pub(crate) struct Completer<'a> {
    /// The attribute, for spans.
    pub(crate) attr: &'a syn::Attribute,
    /// The completing function, when the attribute names one.
    pub(crate) function: Option<syn::Path>,
}

/// Parses `#[prompt(args)]` on `item`.
pub(crate) fn parse_prompt<'a>(args: TokenStream, item: &'a syn::ItemFn, errors: &mut Errors) -> PromptFn<'a> {
    let attrs = ItemAttrs::parse(args, "prompt", &PROMPT_KEYS, errors);
    let fun = FnDef::new(&item.sig, &item.attrs, &item.block);
    let completers = fun
        .params
        .iter()
        .map(|param| {
            param
                .attrs
                .iter()
                .filter(|attr| attr.path().is_ident("complete"))
                .map(|attr| Completer { attr, function: attr.parse_args::<syn::Path>().ok() })
                .collect()
        })
        .collect();
    PromptFn { item, fun, attrs, completers }
}

impl PromptFn<'_> {
    /// Parameter `index`'s completing function.
    pub(crate) fn completer(&self, index: usize) -> Option<&syn::Path> {
        self.completers[index].first().and_then(|completer| completer.function.as_ref())
    }
}
