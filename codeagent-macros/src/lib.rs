//! The `#[tool]`, `#[toolbox]`, `#[resource]` and `#[prompt]` attribute macros of codeagent.
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
mod forms;
mod item;
mod names;
mod prompt;
mod resource;
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

/// Turns a function into a resource read by URI (fixed, or an RFC 6570
/// template whose variables are parameters). See the `codeagent` crate.
#[proc_macro_attribute]
pub fn resource(args: TokenStream, input: TokenStream) -> TokenStream {
    let args = proc_macro2::TokenStream::from(args);
    let Ok(item) = syn::parse::<syn::ItemFn>(input.clone()) else {
        return on_non_fn(input, "#[resource] goes on a free function");
    };
    match resource::expand(args, &item) {
        Ok(tokens) => tokens.into(),
        Err(failure) => fallback::resource(item, failure).into(),
    }
}

/// Turns a function into a prompt whose arguments are its `String` and
/// `Option<String>` parameters. See the `codeagent` crate.
#[proc_macro_attribute]
pub fn prompt(args: TokenStream, input: TokenStream) -> TokenStream {
    let args = proc_macro2::TokenStream::from(args);
    let Ok(item) = syn::parse::<syn::ItemFn>(input.clone()) else {
        return on_non_fn(input, "#[prompt] goes on a free function");
    };
    match prompt::expand(args, &item) {
        Ok(tokens) => tokens.into(),
        Err(failure) => fallback::prompt(item, failure).into(),
    }
}

fn on_non_fn(input: TokenStream, message: &str) -> TokenStream {
    let error = syn::Error::new(proc_macro2::Span::call_site(), message).to_compile_error();
    let mut output = proc_macro2::TokenStream::from(input);
    output.extend(error);
    output.into()
}
