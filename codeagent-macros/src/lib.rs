//! The `#[tool]` and `#[toolbox]` attribute macros of codeagent.
//!
//! Use them through the `codeagent` crate. Each macro runs in three passes:
//! [`attr`] and [`ast`] parse the attribute and the function into a typed
//! front end that keeps the original tokens for spans, [`valid`] checks the
//! rules that span several parts, and [`expand`] writes the tokens. Every error
//! is reported at once, and the original item is emitted alongside them so
//! the user sees the real problem rather than a cascade.

mod ast;
mod attr;
mod docs;
mod expand;
mod names;
mod toolbox;
mod valid;

use proc_macro::TokenStream;
use quote::ToTokens;

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
        Err(error) => fallback(item.into_token_stream(), error),
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
        Err(error) => fallback(toolbox::strip_tool_attrs(item).into_token_stream(), error),
    }
}

/// The item as written (minus what only the macro understands) plus the errors.
fn fallback(item: proc_macro2::TokenStream, error: syn::Error) -> TokenStream {
    let item = ast::strip_param_attrs(item);
    let mut output = item;
    output.extend(error.to_compile_error());
    output.into()
}
