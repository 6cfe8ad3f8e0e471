//! `#[resource]`'s definition: the function, its arguments and its URI
//! (parsed with the runtime's own URI-template parser).

use codeagent_uri_template::UriTemplate;
use proc_macro2::TokenStream;
use syn::LitStr;

use super::item_args::{ItemAttrs, RESOURCE_KEYS};
use super::signature::FnDef;
use crate::errors::Errors;

/// `#[resource]` on a free function.
pub(crate) struct ResourceFn<'a> {
    /// The function as written.
    pub(crate) item: &'a syn::ItemFn,
    /// Its signature, read.
    pub(crate) fun: FnDef<'a>,
    /// The `#[resource(...)]` arguments.
    pub(crate) attrs: ItemAttrs,
    /// The `uri` string and what it parses to (the parser's message when it does not).
    pub(crate) uri: Option<(LitStr, Result<UriTemplate, String>)>,
}

/// Parses `#[resource(args)]` on `item`.
pub(crate) fn parse_resource<'a>(args: TokenStream, item: &'a syn::ItemFn, errors: &mut Errors) -> ResourceFn<'a> {
    let attrs = ItemAttrs::parse(args, "resource", &RESOURCE_KEYS, errors);
    let uri = attrs.uri.clone().map(|uri| {
        let template = UriTemplate::parse(&uri.value()).map_err(|error| error.to_string());
        (uri, template)
    });
    ResourceFn { item, fun: FnDef::new(&item.sig, &item.attrs, &item.block), attrs, uri }
}

impl ResourceFn<'_> {
    /// The template variables, each once, in order; none when the URI is bad.
    pub(crate) fn variables(&self) -> Vec<String> {
        let mut variables: Vec<String> = Vec::new();
        if let Some((_, Ok(template))) = &self.uri {
            for variable in template.variables() {
                if !variables.iter().any(|known| known == variable) {
                    variables.push(variable.to_owned());
                }
            }
        }
        variables
    }
}
