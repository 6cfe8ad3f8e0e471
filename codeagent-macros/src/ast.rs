//! The typed front end: a tool function and its parameters, keeping the
//! original tokens for spans.

use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Pat, Type};

use crate::attr::{Errors, ToolAttrs};
use crate::docs::doc_text;
use crate::names::unraw;

/// A function marked `#[tool]`.
pub(crate) struct ToolFn<'a> {
    pub(crate) sig: &'a syn::Signature,
    pub(crate) attrs: ToolAttrs,
    pub(crate) docs: String,
    pub(crate) receiver: Option<&'a syn::Receiver>,
    pub(crate) params: Vec<ToolArg<'a>>,
    /// The form types the body asks the person for (`elicit::<T>`).
    pub(crate) forms: Vec<Type>,
}

/// One parameter of a tool function.
pub(crate) struct ToolArg<'a> {
    /// The binding, as written (possibly raw).
    pub(crate) ident: syn::Ident,
    /// The argument's name on the wire: the serde rename, else the unrawed identifier.
    pub(crate) wire_name: String,
    pub(crate) wire_span: Span,
    pub(crate) ty: &'a Type,
    /// Doc comments and `#[serde]` / `#[schemars]` attributes, forwarded to the argument field.
    pub(crate) forwarded: Vec<&'a Attribute>,
}

impl<'a> ToolFn<'a> {
    /// Reads the signature; problems with single parameters go to `errors`.
    pub(crate) fn from_sig(
        sig: &'a syn::Signature,
        body: &syn::Block,
        fn_attrs: &[Attribute],
        attrs: ToolAttrs,
        errors: &mut Errors,
    ) -> ToolFn<'a> {
        let mut receiver = None;
        let mut params = Vec::new();
        for input in &sig.inputs {
            match input {
                FnArg::Receiver(self_param) => receiver = Some(self_param),
                FnArg::Typed(typed) => {
                    if let Some(param) = ToolArg::from_pat_type(typed, errors) {
                        params.push(param);
                    }
                }
            }
        }
        let forms = crate::forms::elicited(quote::ToTokens::to_token_stream(body), &sig.generics);
        ToolFn { sig, attrs, docs: doc_text(fn_attrs), receiver, params, forms }
    }

    /// The tool's name: the `name` key, else the function's unrawed name.
    pub(crate) fn name(&self) -> (String, Span) {
        match &self.attrs.name {
            Some(name) => (name.value.clone(), name.span),
            None => (unraw(&self.sig.ident), self.sig.ident.span()),
        }
    }

    /// The description: the `description` key, else the doc comment.
    pub(crate) fn description(&self) -> &str {
        self.attrs.description.as_deref().unwrap_or(&self.docs)
    }
}

impl<'a> ToolArg<'a> {
    fn from_pat_type(typed: &'a syn::PatType, errors: &mut Errors) -> Option<ToolArg<'a>> {
        let mut forwarded = Vec::new();
        for attr in &typed.attrs {
            let path = attr.path();
            if path.is_ident("doc") || path.is_ident("serde") || path.is_ident("schemars") {
                forwarded.push(attr);
            } else {
                errors.at(
                    attr.span(),
                    "only doc comments, #[serde(...)] and #[schemars(...)] attributes can go on a tool parameter",
                );
            }
        }
        if let Type::ImplTrait(impl_trait) = &*typed.ty {
            errors.at(
                impl_trait.span(),
                "`impl Trait` parameters are not supported in tools: each argument needs a concrete type to derive its schema",
            );
            return None;
        }
        let ident = match &*typed.pat {
            Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => pat.ident.clone(),
            Pat::Wild(wild) => {
                errors.at(
                    wild.span(),
                    "a tool parameter needs a name: it becomes the argument's name in the input schema",
                );
                return None;
            }
            other => {
                errors.at(
                    other.span(),
                    "destructuring is not supported in tool parameters: bind a name (it becomes the argument's name) \
                     and destructure in the body",
                );
                return None;
            }
        };
        let (wire_name, wire_span) = serde_rename(&typed.attrs).unwrap_or_else(|| (unraw(&ident), ident.span()));
        Some(ToolArg { ident, wire_name, wire_span, ty: &typed.ty, forwarded })
    }
}

/// The name `#[serde(rename = "...")]` or `#[serde(rename(deserialize = "..."))]` gives.
fn serde_rename(attrs: &[Attribute]) -> Option<(String, Span)> {
    let mut renamed = None;
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        let _ = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                if meta.input.peek(syn::Token![=]) {
                    let name: syn::LitStr = meta.value()?.parse()?;
                    renamed = Some((name.value(), name.span()));
                } else {
                    meta.parse_nested_meta(|inner| {
                        let name: syn::LitStr = inner.value()?.parse()?;
                        if inner.path.is_ident("deserialize") {
                            renamed = Some((name.value(), name.span()));
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
