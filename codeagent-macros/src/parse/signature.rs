//! The front end every macro's function shares: the signature, its receiver
//! and its parameters, each read as written, without judging it (that is
//! `validate::signature`'s work), and keeping the original tokens for spans.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, FnArg, Pat, Type};

use super::docs::{doc_text, has_description, names_key};
use super::keys::Located;
use super::rename::serde_rename;
use crate::names::unraw;

/// A function one of the macros goes on (a free function or a toolbox method).
pub(crate) struct FnDef<'a> {
    /// The signature as written.
    pub(crate) sig: &'a syn::Signature,
    /// The body (scanned for `elicit::<T>`).
    pub(crate) body: &'a syn::Block,
    /// `self`, `&self`, ... when there is one.
    pub(crate) receiver: Option<&'a syn::Receiver>,
    /// The typed parameters, in order.
    pub(crate) params: Vec<Param<'a>>,
    /// The doc comment's text.
    pub(crate) docs: String,
}

/// One typed parameter.
pub(crate) struct Param<'a> {
    /// How it is bound.
    pub(crate) binding: Binding,
    /// Its type, as written.
    pub(crate) ty: &'a Type,
    /// Its attributes (doc comments, `#[serde]`, `#[complete]`, ...).
    pub(crate) attrs: &'a [Attribute],
    /// The name `#[serde(rename = "...")]` gives it.
    pub(crate) rename: Option<Located<String>>,
}

/// How a parameter is bound.
pub(crate) enum Binding {
    /// A plain name (possibly raw), the only binding the macros accept.
    Name(syn::Ident),
    /// `_`.
    Wild(Span),
    /// Any other pattern (a tuple, a struct, `ref x`, `x @ ..`).
    Pattern(Span),
}

impl<'a> FnDef<'a> {
    /// Reads a function's signature, attributes and body.
    pub(crate) fn new(sig: &'a syn::Signature, attrs: &'a [Attribute], body: &'a syn::Block) -> FnDef<'a> {
        let mut receiver = None;
        let mut params = Vec::new();
        for input in &sig.inputs {
            match input {
                FnArg::Receiver(self_param) => receiver = Some(self_param),
                FnArg::Typed(typed) => params.push(Param::new(typed)),
            }
        }
        FnDef { sig, body, receiver, params, docs: doc_text(attrs) }
    }

    /// The item's name: `key` (the `name` argument), else the function's unrawed name.
    pub(crate) fn name(&self, key: Option<&Located<String>>) -> (String, Span) {
        match key {
            Some(name) => (name.value.clone(), name.span),
            None => (unraw(&self.sig.ident), self.sig.ident.span()),
        }
    }

    /// The description: `key` (the `description` argument), else the doc comment.
    pub(crate) fn description<'s>(&'s self, key: Option<&'s String>) -> &'s str {
        key.map_or(&self.docs, String::as_str)
    }

    /// Whether every input is a parameter the macro can pass: no `self`, and
    /// each a plain name of a concrete type.
    pub(crate) fn is_plain(&self) -> bool {
        self.receiver.is_none() && self.params.iter().all(Param::is_plain)
    }

    /// The parameters' types, in order.
    pub(crate) fn types(&self) -> Vec<&'a Type> {
        self.params.iter().map(|param| param.ty).collect()
    }
}

impl<'a> Param<'a> {
    /// Reads one parameter.
    fn new(typed: &'a syn::PatType) -> Param<'a> {
        let binding = match &*typed.pat {
            Pat::Ident(pat) if pat.by_ref.is_none() && pat.subpat.is_none() => Binding::Name(pat.ident.clone()),
            Pat::Wild(wild) => Binding::Wild(wild.span()),
            other => Binding::Pattern(other.span()),
        };
        Param { binding, ty: &typed.ty, attrs: &typed.attrs, rename: serde_rename(&typed.attrs) }
    }

    /// The binding, as written (possibly raw). Expansion runs only on
    /// validated definitions, whose parameters all have one; any other
    /// binding reads as a name no user code can refer to.
    pub(crate) fn ident(&self) -> syn::Ident {
        match &self.binding {
            Binding::Name(ident) => ident.clone(),
            Binding::Wild(span) | Binding::Pattern(span) => syn::Ident::new("__codeagent_unnamed", *span),
        }
    }

    /// The unrawed name: a template variable's or a prompt argument's.
    pub(crate) fn name(&self) -> String {
        unraw(&self.ident())
    }

    /// The argument's name on the wire (the serde rename, else the unrawed
    /// name), its span, and whether it was renamed.
    pub(crate) fn wire_name(&self) -> (String, Span, bool) {
        match &self.rename {
            Some(rename) => (rename.value.clone(), rename.span, true),
            None => {
                let ident = self.ident();
                (unraw(&ident), ident.span(), false)
            }
        }
    }

    /// Whether the parameter needs a description of its own: an argument, as
    /// its type is spelled, that is not `#[serde(flatten)]` (whose fields are
    /// the arguments) and has neither a doc comment nor
    /// `#[schemars(description)]`.
    ///
    /// Judged by spelling, since a macro sees no types: `&Context` (any
    /// reference, the only one the checks accept), `Context` and `State<T>`
    /// (any path ending so) are injected. The expansion itself decides by type,
    /// so an alias of an injected type still works, and is asked for a
    /// description (which it ignores) or `undocumented`.
    pub(crate) fn lacks_description(&self) -> bool {
        let injected = match self.ty {
            Type::Reference(_) => true,
            Type::Path(path) if path.qself.is_none() => path.path.segments.last().is_some_and(|last| {
                (last.ident == "Context" && last.arguments.is_none())
                    || (last.ident == "State" && matches!(last.arguments, syn::PathArguments::AngleBracketed(_)))
            }),
            _ => false,
        };
        let flattened = self.attrs.iter().any(|attr| attr.path().is_ident("serde") && names_key(attr, "flatten"));
        !injected && !flattened && !has_description(self.attrs)
    }

    /// A plain name, and a type that is not `impl Trait`.
    pub(crate) fn is_plain(&self) -> bool {
        matches!(self.binding, Binding::Name(_)) && !matches!(self.ty, Type::ImplTrait(_))
    }
}

#[cfg(test)]
mod tests {
    use super::FnDef;

    /// The names of `item`'s parameters that need a description.
    fn undescribed(item: &syn::ItemFn) -> Vec<String> {
        let fun = FnDef::new(&item.sig, &item.attrs, &item.block);
        fun.params.iter().filter(|param| param.lacks_description()).map(super::Param::name).collect()
    }

    #[test]
    fn a_description_is_a_doc_comment_or_a_schemars_description() {
        let item: syn::ItemFn = syn::parse_quote! {
            fn f(
                /// Described.
                a: i64,
                ///
                blank: i64,
                #[doc = include_str!("a.md")]
                included: i64,
                #[schemars(range(min = 1), description = "Described.")]
                schemars: i64,
                #[schemars(range(min = 1))]
                #[serde(default)]
                ranged: i64,
                #[serde(rename = "r#type")]
                r#type: String,
            ) {}
        };
        assert_eq!(undescribed(&item), ["blank", "ranged", "type"]);
    }

    #[test]
    fn injected_and_flattened_parameters_need_none() {
        let item: syn::ItemFn = syn::parse_quote! {
            fn f(
                ctx: &Context,
                owned: Context,
                state: State<Db>,
                qualified: codeagent::State<Db>,
                #[serde(default, flatten)]
                page: Page,
                own_state: State,
                context: Context<T>,
                alias: Shared,
            ) {}
        };
        assert_eq!(undescribed(&item), ["own_state", "context", "alias"]);
    }
}
