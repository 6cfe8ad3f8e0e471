//! The rules of a prompt: the signature rules, one `#[complete(path)]` at
//! most per parameter, and unique argument names.

use syn::spanned::Spanned;

use super::signature::{check_signature, unique_arguments};
use crate::errors::Errors;
use crate::kind::Kind;
use crate::parse::prompt::PromptFn;

/// Checks `prompt`.
pub(crate) fn check_prompt(prompt: &PromptFn<'_>, errors: &mut Errors) {
    check_signature(&prompt.fun, Kind::Prompt, errors);
    for completers in &prompt.completers {
        for (index, completer) in completers.iter().enumerate() {
            if index > 0 {
                errors.at(completer.attr.meta.span(), "`#[complete(...)]` is given twice on this parameter");
            } else if completer.function.is_none() {
                errors.at(
                    completer.attr.meta.span(),
                    "write `#[complete(path::to::function)]`, naming a \
                     `fn(&str, &BTreeMap<String, String>) -> Vec<String>`",
                );
            }
        }
    }
    let names = prompt.fun.params.iter().filter(|param| param.is_plain());
    unique_arguments(names.map(|param| (param.name(), param.ident().span(), false)), errors);
}
