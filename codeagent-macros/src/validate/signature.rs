//! The signature rules, written once for every macro: what a function must
//! look like to be a tool, a toolbox method, a resource or a prompt. Each
//! rule has one message, which takes the kind's words from
//! [`Kind`](crate::kind::Kind), and is spanned on the token at fault.
//!
//! A parameter refused here is not judged again by the macro's own rules
//! (see [`FnDef::is_plain`](crate::parse::signature::FnDef::is_plain)), so
//! one problem is one error.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{ReturnType, Type};

use crate::errors::Errors;
use crate::kind::Kind;
use crate::parse::signature::{Binding, FnDef};

/// Checks `fun` as a function of `kind`, recording every problem in `errors`.
pub(crate) fn check_signature(fun: &FnDef<'_>, kind: Kind, errors: &mut Errors) {
    receiver(fun, kind, errors);
    let noun = kind.noun();
    for param in &fun.params {
        param_attrs(param.attrs, kind, errors);
        if let Type::ImplTrait(impl_trait) = param.ty {
            errors.at(
                impl_trait.span(),
                format!("`impl Trait` parameters are not supported in a {noun}: each parameter needs a concrete type"),
            );
            continue;
        }
        match param.binding {
            Binding::Name(_) => {}
            Binding::Wild(span) => errors.at(span, format!("a {noun} parameter needs a name: {}", kind.name_role())),
            Binding::Pattern(span) => errors.at(
                span,
                format!(
                    "destructuring is not supported in {noun} parameters: bind a name ({}) and destructure in the body",
                    kind.name_role()
                ),
            ),
        }
    }
    let sig = fun.sig;
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.at(
            sig.generics.span(),
            format!(
                "generic {noun}s are not supported: each type is checked when the program is built; use concrete types"
            ),
        );
    }
    if let Some(variadic) = &sig.variadic {
        errors.at(variadic.span(), format!("variadic parameters are not supported in a {noun}"));
    }
    if let syn::Safety::Unsafe(unsafety) = &sig.safety {
        errors.at(unsafety.span(), format!("a {noun} cannot be an `unsafe fn`: clients call it with arbitrary input"));
    }
    if let Some(abi) = &sig.abi {
        errors.at(abi.span(), format!("a {noun} cannot have an `extern` ABI: it is called from Rust"));
    }
    if let ReturnType::Type(_, ty) = &sig.output
        && let Type::ImplTrait(impl_trait) = &**ty
    {
        errors.at(
            impl_trait.span(),
            format!(
                "return a concrete type from a {noun}, such as {}: `impl Trait` hides the type it is checked against",
                kind.return_example()
            ),
        );
    }
}

/// A free function takes no `self`; a toolbox method takes `&self`.
fn receiver(fun: &FnDef<'_>, kind: Kind, errors: &mut Errors) {
    match (kind, fun.receiver) {
        (Kind::ToolMethod, None) => errors.at(
            fun.sig.ident.span(),
            "a tool method takes `&self`; for a tool without state, use a free function with #[codeagent::tool]",
        ),
        (Kind::ToolMethod, Some(receiver))
            if !matches!(receiver.kind, syn::ReceiverKind::Reference(_, _, None)) || receiver.mutability.is_some() =>
        {
            errors.at(
                receiver.span(),
                "tool methods take `&self`: calls may run at the same time, so keep changing state behind a Mutex or an atomic",
            );
        }
        (Kind::ToolMethod, Some(_)) | (_, None) => {}
        (_, Some(receiver)) => errors.at(
            receiver.span(),
            format!("`self` is not supported: #[{}] goes on a free function; {}", kind.noun(), kind.receiver_hint()),
        ),
    }
}

/// A parameter carries only the attributes `kind` reads.
fn param_attrs(attrs: &[syn::Attribute], kind: Kind, errors: &mut Errors) {
    let (allowed, listed) = kind.param_attrs();
    for attr in attrs {
        if !allowed.iter().any(|name| attr.path().is_ident(name)) {
            errors.at(attr.meta.span(), format!("only {listed} can go on a {} parameter", kind.noun()));
        }
    }
}

/// Argument names are unique: each name given with its span and whether a
/// rename made it.
pub(crate) fn unique_arguments(names: impl IntoIterator<Item = (String, Span, bool)>, errors: &mut Errors) {
    let mut seen: Vec<String> = Vec::new();
    for (name, span, renamed) in names {
        if seen.contains(&name) {
            let after = if renamed { " (after renaming)" } else { "" };
            errors.at(span, format!("the argument name `{name}` is used twice{after}; argument names must be unique"));
        }
        seen.push(name);
    }
}
