//! The rules of a resource: the signature rules, then its URI (as
//! `ResourceSpec` checks one at run time: a scheme, URI characters only, a
//! template that can be matched back) and how the URI and the parameters fit
//! (every variable a parameter, `size` only for a fixed URI).

use codeagent_uri_template::{UriTemplate, check_uri, has_scheme};
use syn::LitStr;

use super::signature::check_signature;
use crate::errors::Errors;
use crate::kind::Kind;
use crate::parse::resource::ResourceFn;

/// Checks `resource`.
pub(crate) fn check_resource(resource: &ResourceFn<'_>, errors: &mut Errors) {
    check_signature(&resource.fun, Kind::Resource, errors);
    let Some((uri, template)) = &resource.uri else {
        errors.at(
            proc_macro2::Span::call_site(),
            "#[resource] needs a URI: `#[resource(uri = \"file:///notes.txt\")]`, or a template such as \
             `#[resource(uri = \"users://{id}/profile\")]`",
        );
        return;
    };
    let template = match template {
        Ok(template) => template,
        Err(error) => {
            errors.at(uri.span(), format!("`{}` is not a valid URI template: {error}", uri.value()));
            return;
        }
    };
    if !servable(uri, template, errors) {
        return;
    }
    // A parameter refused above (a pattern, `impl Trait`) may be the variable's: no second error.
    if resource.fun.is_plain() {
        for variable in resource.variables() {
            if !resource.fun.params.iter().any(|param| param.name() == variable) {
                errors.at(
                    uri.span(),
                    format!(
                        "the URI template has the variable `{variable}`, but the function has no parameter \
                         `{variable}`; add `{variable}: String` (or another `FromStr` type, `Option<_>` when it \
                         may be absent)"
                    ),
                );
            }
        }
    }
    if let Some(size) = &resource.attrs.size
        && !template.is_literal()
    {
        errors.at(size.span, "`size` is for a fixed URI: each URI of a template is a resource of its own size");
    }
}

/// Whether a resource can be served at `template` (parsed from `uri`); every
/// problem is reported on the string.
fn servable(uri: &LitStr, template: &UriTemplate, errors: &mut Errors) -> bool {
    let text = uri.value();
    // As `ResourceSpec::fixed` checks a URI: a scheme, then only URI characters.
    if !has_scheme(&text) {
        errors.at(
            uri.span(),
            format!(
                "`{text}` is not a URI with a scheme: write an absolute URI such as `file:///notes.txt`, or a \
                 template such as `users://{{id}}/profile`"
            ),
        );
        return false;
    }
    if template.is_literal() {
        if let Err(problem) = check_uri(&text) {
            errors.at(uri.span(), problem.to_string());
            return false;
        }
    } else if !template.is_matchable() {
        errors.at(
            uri.span(),
            format!(
                "the URI template `{text}` cannot be matched back from a URI, so no read would find the resource: \
                 drop explode (`*`) and prefix (`:3`) modifiers, and put a literal between two expressions"
            ),
        );
        return false;
    }
    true
}
