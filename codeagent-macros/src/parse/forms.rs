//! The form types a tool asks the person for: every `elicit::<T>` in its
//! body, so the toolbox can refuse a `T` MCP elicitation cannot carry when
//! it is built, not when the question is first asked.

use proc_macro2::{TokenStream, TokenTree};

/// Each `T` of `elicit::<T>` in `body`, when it names a type the spec can
/// name too (not `Self`, `_` or one of `generics`).
pub(crate) fn elicited(body: TokenStream, generics: &syn::Generics) -> Vec<syn::Type> {
    let mut found = Vec::new();
    scan(body, &mut found);
    let local: Vec<String> = generics.type_params().map(|param| param.ident.to_string()).collect();
    found.retain(|ty| {
        let text = quote::quote!(#ty).to_string();
        let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric() && c != '_').collect();
        !words.iter().any(|word| *word == "Self" || *word == "_" || local.iter().any(|param| param == word))
    });
    found
}

/// Pushes each `elicit::<T>` type in `tokens`, nested groups included, to `found`.
fn scan(tokens: TokenStream, found: &mut Vec<syn::Type>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut index = 0;
    while index < tokens.len() {
        match &tokens[index] {
            TokenTree::Group(group) => scan(group.stream(), found),
            TokenTree::Ident(ident) if ident == "elicit" && is_turbofish(&tokens[index + 1..]) => {
                if let Some((ty, end)) = type_argument(&tokens[index + 4..]) {
                    found.push(ty);
                    index += 4 + end;
                    continue;
                }
            }
            _ => {}
        }
        index += 1;
    }
}

/// Whether `tokens` start with `::<`.
fn is_turbofish(tokens: &[TokenTree]) -> bool {
    let punct =
        |index: usize, ch: char| matches!(tokens.get(index), Some(TokenTree::Punct(punct)) if punct.as_char() == ch);
    punct(0, ':') && punct(1, ':') && punct(2, '<')
}

/// The type before the `>` closing a turbofish, and how many tokens it took.
fn type_argument(tokens: &[TokenTree]) -> Option<(syn::Type, usize)> {
    let mut depth = 0usize;
    for (index, token) in tokens.iter().enumerate() {
        if let TokenTree::Punct(punct) = token {
            match punct.as_char() {
                '<' => depth += 1,
                '>' if depth == 0 => {
                    let ty: TokenStream = tokens[..index].iter().cloned().collect();
                    return syn::parse2(ty).ok().map(|ty| (ty, index + 1));
                }
                '>' => depth -= 1,
                _ => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::elicited;

    fn names(body: proc_macro2::TokenStream, generics: syn::Generics) -> Vec<String> {
        elicited(body, &generics).iter().map(|ty| quote!(#ty).to_string().replace(' ', "")).collect()
    }

    #[test]
    fn every_turbofish_elicitation_is_found() {
        let body = quote! {{
            let a = ctx.elicit::<Confirm>("ok?").await?;
            let b = ctx.question("x").elicit::<forms::Profile<String>>("who?").await?;
            if x { ctx.elicit::<Vec<u8>>("no") }
            ctx.sample(req).await?;
            other::<Nope>();
        }};
        assert_eq!(names(body, syn::Generics::default()), ["Confirm", "forms::Profile<String>", "Vec<u8>"]);
    }

    #[test]
    fn types_the_spec_cannot_name_are_left_to_the_call() {
        let body = quote! {{ ctx.elicit::<T>("?"); ctx.elicit::<Self>("?"); ctx.elicit::<_>("?"); }};
        let generics: syn::Generics = syn::parse_quote!(<T>);
        assert!(names(body, generics).is_empty());
    }
}
