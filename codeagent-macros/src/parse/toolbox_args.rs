//! The arguments of `#[toolbox(...)]`: only `crate = "..."`.

use proc_macro2::TokenStream;

use super::keys::{crate_path, known_key, parse_keys};
use crate::errors::Errors;

/// The keys `#[toolbox(...)]` accepts.
const TOOLBOX_KEYS: [&str; 1] = ["crate"];

/// The `crate` path `#[toolbox(...)]` gives, if any; every problem goes to `errors`.
pub(crate) fn parse_toolbox_args(tokens: TokenStream, errors: &mut Errors) -> Option<syn::Path> {
    let mut krate = None;
    let mut seen = Vec::new();
    parse_keys(tokens, errors, |meta| {
        known_key(meta, "toolbox", &TOOLBOX_KEYS, &mut seen)?;
        krate = Some(crate_path(meta)?);
        Ok(())
    });
    krate
}
