//! The `#[tool]` and `#[toolbox]` attribute macros of codeagent.
//!
//! Use them through the `codeagent` crate. Each macro runs in three passes:
//! `attr` and `ast` parse the attribute and the function into a typed
//! front end that keeps the original tokens for spans, `valid` checks the
//! rules that span several parts, and `expand` writes the tokens. Every error
//! is reported at once, and `fallback` emits the original item alongside
//! them, with stand-ins for the unit struct and its `Tool` impl, so the user
//! sees the real problem rather than a cascade. Type errors (a parameter that
//! is not an argument, a return type that does not lower) are left to the
//! compiler, through checks the expansion spans on the offending type.

mod ast;
mod attr;
mod docs;
mod expand;
mod fallback;
mod names;
mod toolbox;
mod valid;

use proc_macro::TokenStream;

/// Turns a function into a tool. See the `codeagent` crate.
#[proc_macro_attribute]
pub fn tool(args: TokenStream, input: TokenStream) -> TokenStream {
    let args = proc_macro2::TokenStream::from(args);
    let item = match syn::parse::<syn::ItemFn>(input.clone()) {
        Ok(item) => item,
        Err(_) => {
            let message = "#[tool] goes on a function; for methods, put #[codeagent::toolbox] on the impl block";
            let error = syn::Error::new(proc_macro2::Span::call_site(), message).to_compile_error();
            let mut output = proc_macro2::TokenStream::from(input);
            output.extend(error);
            return output.into();
        }
    };
    match expand::free_tool(args, &item) {
        Ok(tokens) => tokens.into(),
        Err(failure) => fallback::free_fn(item, failure).into(),
    }
}

/// Turns the `#[tool]` methods of an impl block into tools that share `&self`.
/// See the `codeagent` crate.
#[proc_macro_attribute]
pub fn toolbox(args: TokenStream, input: TokenStream) -> TokenStream {
    let args = proc_macro2::TokenStream::from(args);
    let item = match syn::parse::<syn::ItemImpl>(input.clone()) {
        Ok(item) => item,
        Err(_) => {
            let message = "#[toolbox] goes on an impl block whose methods are marked #[tool]";
            let error = syn::Error::new(proc_macro2::Span::call_site(), message).to_compile_error();
            let mut output = proc_macro2::TokenStream::from(input);
            output.extend(error);
            return output.into();
        }
    };
    match toolbox::expand(args, &item) {
        Ok(tokens) => tokens.into(),
        Err(failure) => fallback::toolbox(toolbox::strip_tool_attrs(item), failure).into(),
    }
}
