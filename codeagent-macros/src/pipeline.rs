//! The one pipeline every macro runs: parse, validate, then expand, or
//! fallback when anything was wrong. A macro only says what each stage is
//! for it ([`Macro`]); [`run`] chains them, so all four report errors the
//! same way.

use proc_macro2::{Span, TokenStream};

use crate::errors::Errors;

/// One attribute macro, stage by stage.
pub(crate) trait Macro {
    /// The item the attribute goes on (a function, an impl block).
    type Item: syn::parse::Parse;
    /// The parsed definition, borrowing from the item.
    type Definition<'a>;
    /// The error when the attribute is on another kind of item.
    const MISPLACED: &'static str;
    /// Stage one: the attribute's arguments and the item, read; syntax
    /// problems go to `errors`.
    fn parse<'a>(args: TokenStream, item: &'a Self::Item, errors: &mut Errors) -> Self::Definition<'a>;
    /// Stage two: every rule, each broken one recorded in `errors`.
    fn validate(definition: &Self::Definition<'_>, errors: &mut Errors);
    /// Stage three: the tokens of a valid definition.
    fn expand(definition: &Self::Definition<'_>) -> TokenStream;
    /// The `crate = "..."` path the definition gives, for the fallback's stand-ins.
    fn krate(definition: &Self::Definition<'_>) -> Option<syn::Path>;
    /// Stage four: the errors, and the item kept usable by later code.
    fn fallback(item: Self::Item, krate: Option<&syn::Path>, error: syn::Error) -> TokenStream;
}

/// Runs `M` on the attribute's `args` and the `input` item.
pub(crate) fn run<M: Macro>(args: TokenStream, input: TokenStream) -> TokenStream {
    let item = match syn::parse2::<M::Item>(input.clone()) {
        Ok(item) => item,
        Err(_) => {
            let mut output = input;
            output.extend(syn::Error::new(Span::call_site(), M::MISPLACED).to_compile_error());
            return output;
        }
    };
    let mut errors = Errors::default();
    let definition = M::parse(args, &item, &mut errors);
    M::validate(&definition, &mut errors);
    match errors.finish() {
        Ok(()) => M::expand(&definition),
        Err(error) => {
            let krate = M::krate(&definition);
            drop(definition);
            M::fallback(item, krate.as_ref(), error)
        }
    }
}
