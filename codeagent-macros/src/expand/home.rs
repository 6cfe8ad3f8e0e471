//! Where the generated tokens are: at the item's name, not at the attribute.
//!
//! Tokens `quote!` makes carry `Span::call_site()`, whose syntax context is
//! the macro's expansion. The compiler's incremental cache keys what it knows
//! of code in an expansion by that expansion, which it identifies by where
//! the attribute is: when an edit moves the attribute (any edit to the code
//! above it that is not of the same length), every item the expansion made is
//! type-checked and borrow-checked again, though nothing in it changed.
//! Moved onto a token of the user's item (the function's name), the
//! generated tokens are keyed like the code the user wrote, and an edit to
//! one tool leaves the others' checks in the cache.
//!
//! Name resolution does not change: tokens at the call site resolve like the
//! user's. Spans the expansion already points at the user's code (a checked
//! type, the function's name) are left as they are.

use proc_macro2::{Group, Span, TokenStream, TokenTree};

/// `tokens`, every token at the call site moved to `home`.
pub(crate) fn homed(tokens: TokenStream, home: Span) -> TokenStream {
    let call_site = format!("{:?}", Span::call_site());
    rehome(tokens, &call_site, home)
}

fn rehome(tokens: TokenStream, call_site: &str, home: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut tree| {
            let at_call_site = format!("{:?}", tree.span()) == call_site;
            if let TokenTree::Group(group) = &tree {
                let mut inner = Group::new(group.delimiter(), rehome(group.stream(), call_site, home));
                inner.set_span(if at_call_site { home } else { group.span() });
                tree = TokenTree::Group(inner);
            } else if at_call_site {
                tree.set_span(home);
            }
            tree
        })
        .collect()
}
