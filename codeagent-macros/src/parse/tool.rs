//! `#[tool]`'s definition: a function (free, or a toolbox method) and its
//! `#[tool(...)]` arguments.

use proc_macro2::{Span, TokenStream};
use syn::Type;

use super::signature::FnDef;
use super::tool_args::ToolAttrs;
use crate::errors::Errors;

/// `#[tool]` on a free function.
pub(crate) struct FreeTool<'a> {
    /// The function as written.
    pub(crate) item: &'a syn::ItemFn,
    /// The tool it defines.
    pub(crate) tool: ToolFn<'a>,
}

/// A function marked `#[tool]`.
pub(crate) struct ToolFn<'a> {
    /// Its signature, read.
    pub(crate) fun: FnDef<'a>,
    /// The `#[tool(...)]` arguments.
    pub(crate) attrs: ToolAttrs,
    /// The form types the body asks the person for (`elicit::<T>`).
    pub(crate) forms: Vec<Type>,
}

/// Parses `#[tool(args)]` on `item`.
pub(crate) fn parse_free_tool<'a>(args: TokenStream, item: &'a syn::ItemFn, errors: &mut Errors) -> FreeTool<'a> {
    let attrs = ToolAttrs::parse(args, errors);
    FreeTool { item, tool: ToolFn::new(FnDef::new(&item.sig, &item.attrs, &item.block), attrs) }
}

impl<'a> ToolFn<'a> {
    /// A tool of `fun`, as `attrs` describe it.
    pub(crate) fn new(fun: FnDef<'a>, attrs: ToolAttrs) -> ToolFn<'a> {
        let forms = super::forms::elicited(quote::ToTokens::to_token_stream(fun.body), &fun.sig.generics);
        ToolFn { fun, attrs, forms }
    }

    /// The tool's name: the `name` key, else the function's unrawed name.
    pub(crate) fn name(&self) -> (String, Span) {
        self.fun.name(self.attrs.name.as_ref())
    }

    /// The description: the `description` key, else the doc comment.
    pub(crate) fn description(&self) -> &str {
        self.fun.description(self.attrs.description.as_ref())
    }

    /// The signature.
    pub(crate) fn sig(&self) -> &'a syn::Signature {
        self.fun.sig
    }
}
