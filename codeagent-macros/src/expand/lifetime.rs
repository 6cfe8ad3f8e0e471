//! Naming the lifetimes a parameter type leaves elided.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::visit_mut::VisitMut;

/// `ty` with every elided or `'_` lifetime replaced by `'name`, and whether
/// there was one.
pub(crate) fn with_lifetime(ty: &syn::Type, name: &str) -> (TokenStream, bool) {
    /// Replaces each elided lifetime by `lifetime`.
    struct Replace {
        lifetime: syn::Lifetime,
        replaced: bool,
    }

    impl VisitMut for Replace {
        fn visit_type_reference_mut(&mut self, reference: &mut syn::TypeReference) {
            match &reference.lifetime {
                None => {
                    reference.lifetime = Some(self.lifetime.clone());
                    self.replaced = true;
                }
                Some(lifetime) if lifetime.ident == "_" => {
                    reference.lifetime = Some(self.lifetime.clone());
                    self.replaced = true;
                }
                Some(_) => {}
            }
            syn::visit_mut::visit_type_reference_mut(self, reference);
        }

        fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
            if lifetime.ident == "_" {
                *lifetime = self.lifetime.clone();
                self.replaced = true;
            }
        }
    }

    let mut ty = ty.clone();
    let mut replace = Replace { lifetime: syn::Lifetime::new(&format!("'{name}"), Span::call_site()), replaced: false };
    replace.visit_type_mut(&mut ty);
    (quote!(#ty), replace.replaced)
}
