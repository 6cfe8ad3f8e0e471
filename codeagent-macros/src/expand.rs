//! Writing the tokens of a tool.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

use crate::ast::ToolFn;
use crate::attr::{BudgetChoice, Errors, ToolAttrs, UiChoice};
use crate::names::unraw;
use crate::valid::{Site, check};

/// Paths into the runtime, all through one hidden module.
pub(crate) struct Runtime {
    /// `::codeagent::__private`, or the `crate = "..."` override's.
    pub(crate) private: TokenStream,
    serde: String,
    schemars: String,
}

impl Runtime {
    pub(crate) fn new(krate: Option<&syn::Path>) -> Runtime {
        let krate = krate.map_or_else(|| quote!(::codeagent), |path| quote!(#path));
        let text = krate.to_string().replace(' ', "");
        Runtime {
            private: quote!(#krate::__private),
            serde: format!("{text}::__private::serde"),
            schemars: format!("{text}::__private::schemars"),
        }
    }
}

/// Expands `#[tool]` on a free function.
pub(crate) fn free_tool(args: TokenStream, item: &syn::ItemFn) -> Result<TokenStream, Failure> {
    let mut errors = Errors::default();
    let attrs = ToolAttrs::parse(args, &mut errors);
    let tool = ToolFn::from_sig(&item.sig, &item.block, &item.attrs, attrs, &mut errors);
    check(&tool, Site::Free, &mut errors);
    if let Err(error) = errors.finish() {
        return Err(Failure { error, krate: tool.attrs.krate.clone() });
    }

    let runtime = Runtime::new(tool.attrs.krate.as_ref());
    let p = &runtime.private;
    let vis = &item.vis;
    let name = &item.sig.ident;
    let unrawed = unraw(name);
    // The function keeps its name inside the block below, where it shadows the
    // unit struct's value: calls and a parameter named like the function resolve
    // to the function there, while `add` outside is the struct (and derefs to it).
    let implementation = name.clone();
    let spec_fn = format_ident!("__codeagent_spec_{}", unrawed);
    let args = format_ident!("__CodeagentArgs_{}", unrawed);
    let cfgs: Vec<_> = item.attrs.iter().filter(|attr| attr.path().is_ident("cfg")).collect();
    let docs: Vec<_> = item.attrs.iter().filter(|attr| attr.path().is_ident("doc")).collect();
    let others: Vec<_> =
        item.attrs.iter().filter(|attr| !attr.path().is_ident("cfg") && !attr.path().is_ident("doc")).collect();

    let mut sig = item.sig.clone();
    for input in &mut sig.inputs {
        if let syn::FnArg::Typed(typed) = input {
            typed.attrs.clear();
        }
    }
    let block = &item.block;
    let checks = Checks::new(&tool, &unrawed);
    let check_items = checks.items(&tool, p);
    let args_struct = args_struct(&tool, &args, &checks, &runtime);
    let spec = spec_fn_tokens(&tool, &spec_fn, &args, &checks, &runtime);
    let boxed = format_ident!("__codeagent_boxed_{}", unrawed);
    let invoke = if tool.sig.asyncness.is_some() {
        Invoke::Boxed(quote!(#boxed))
    } else {
        Invoke::Direct(quote!(#implementation))
    };
    let body = call_body(&tool, &invoke, &args, &spec_fn, &checks, &runtime, None);
    let types: Vec<&syn::Type> = tool.params.iter().map(|param| param.ty).collect();
    let deref = deref_impl(&item.sig, &types, name, &implementation, &boxed, p);

    Ok(quote! {
        #(#cfgs)*
        #(#docs)*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name;

        #(#cfgs)*
        const _: () = {
            #check_items

            #args_struct

            #(#others)*
            #[allow(clippy::needless_pass_by_value, clippy::too_many_arguments)]
            #sig #block

            #spec

            #[automatically_derived]
            impl #p::Tool for #name {
                fn spec(&self) -> &#p::ToolSpec {
                    #spec_fn()
                }

                fn call(&self, mut call: #p::ToolCall) -> #p::ToolFuture {
                    #body
                }
            }

            #deref
        };
    })
}

/// An expansion that could not go ahead: the errors, and the `crate` path
/// for the stand-in items, when one was given.
pub(crate) struct Failure {
    pub(crate) error: syn::Error,
    pub(crate) krate: Option<syn::Path>,
}

/// The compile-time checks of a tool's parameter and return types.
///
/// Each type is checked once, by a `const` spanned on the type (see
/// `codeagent_core::toolbox::check`); everything else names the type through
/// `Checked<T, CONST>`, so a failed check adds no further errors.
pub(crate) struct Checks {
    /// Per parameter: the first and the complete check.
    params: Vec<(syn::Ident, syn::Ident)>,
    output: syn::Ident,
}

impl Checks {
    pub(crate) fn new(tool: &ToolFn<'_>, unrawed: &str) -> Checks {
        let params = (0..tool.params.len())
            .map(|index| {
                (
                    format_ident!("__codeagent_decodable_{}_{}", unrawed, index),
                    format_ident!("__codeagent_param_{}_{}", unrawed, index),
                )
            })
            .collect();
        Checks { params, output: format_ident!("__codeagent_output_{}", unrawed) }
    }

    /// The `const` items that run the checks.
    pub(crate) fn items(&self, tool: &ToolFn<'_>, p: &TokenStream) -> TokenStream {
        let params = tool.params.iter().zip(&self.params).map(|(param, (decodable, complete))| {
            // As written: lifetimes are inferred in a `const` initializer, and
            // the message shows the type as the user wrote it.
            let ty = param.ty;
            let span = ty.span();
            let p = &respanned(p, span);
            // A reference can only be injected (`&Context`): checking it as such
            // reports `&str` as a type error with a hint, not a lifetime error.
            let first = if matches!(param.ty, syn::Type::Reference(_)) {
                quote_spanned!(span=> #p::check::borrowed::<#ty>())
            } else {
                quote_spanned!(span=> #p::check::decodable::<#ty>())
            };
            let second = quote_spanned!(span=> #p::check::param::<#ty, #decodable>());
            quote! {
                #[allow(non_upper_case_globals)]
                const #decodable: bool = #first;
                #[allow(non_upper_case_globals)]
                const #complete: bool = #second;
            }
        });
        let ret = return_type(tool.sig);
        let output = &self.output;
        let span = return_span(tool.sig);
        let p = &respanned(p, span);
        let check = quote_spanned!(span=> #p::check::output::<#ret>());
        quote! {
            #(#params)*
            #[allow(non_upper_case_globals)]
            const #output: bool = #check;
        }
    }

    /// `ty`, the type of parameter `index`, as checked.
    fn param(&self, index: usize, ty: &TokenStream, p: &TokenStream) -> TokenStream {
        let complete = &self.params[index].1;
        quote!(#p::check::Checked<#ty, { #complete }>)
    }

    /// The return type, as checked.
    fn output(&self, tool: &ToolFn<'_>, p: &TokenStream) -> TokenStream {
        let ret = return_type(tool.sig);
        let output = &self.output;
        quote!(#p::check::Checked<#ret, { #output }>)
    }
}

/// How the call body calls the function.
pub(crate) enum Invoke {
    /// Call it as is (sync functions and methods, async methods).
    Direct(TokenStream),
    /// Call the boxing wrapper of an async free function, which returns a
    /// `Send` future (the one place an unsendable future is reported).
    Boxed(TokenStream),
}

/// The struct whose fields are the tool's parameters, deriving `Deserialize`
/// and `JsonSchema`; injected parameters are [`Injected`] placeholders.
pub(crate) fn args_struct(tool: &ToolFn<'_>, args: &syn::Ident, checks: &Checks, runtime: &Runtime) -> TokenStream {
    let p = &runtime.private;
    let fields = tool.params.iter().enumerate().map(|(index, param)| {
        let forwarded = &param.forwarded;
        let ident = &param.ident;
        let checked = checks.param(index, &with_lifetime(param.ty, "static").0, p);
        quote!(#(#forwarded)* #ident: <#checked as #p::check::CheckedParam<'static>>::Arg)
    });
    let serde = &runtime.serde;
    let schemars = &runtime.schemars;
    let deny = (!tool.attrs.allow_unknown_arguments).then(|| quote!(, deny_unknown_fields));
    quote! {
        #[derive(#p::serde::Deserialize, #p::schemars::JsonSchema)]
        #[serde(crate = #serde #deny)]
        #[schemars(crate = #schemars)]
        #[allow(non_camel_case_types, dead_code)]
        struct #args {
            #(#fields,)*
        }
    }
}

/// The function that builds the tool's spec once.
pub(crate) fn spec_fn_tokens(
    tool: &ToolFn<'_>,
    spec_fn: &syn::Ident,
    args: &syn::Ident,
    checks: &Checks,
    runtime: &Runtime,
) -> TokenStream {
    let p = &runtime.private;
    let (name, _) = tool.name();
    let description = tool.description();
    let attrs = &tool.attrs;
    let title = attrs.title.as_ref().map(|title| quote!(.with_title(#title)));
    let hint = |value: Option<bool>| match value {
        Some(value) => quote!(#p::Option::Some(#value)),
        None => quote!(#p::Option::None),
    };
    let (read_only, destructive, idempotent, open_world) =
        (hint(attrs.read_only), hint(attrs.destructive), hint(attrs.idempotent), hint(attrs.open_world));
    let icons = attrs.icons.iter().map(|src| quote!(.with_icon(#p::Icon::new(#src))));
    let meta = attrs.meta.iter().map(|(key, value)| quote!(.with_meta(#key, #p::serde_json::Value::from(#value))));
    let checked = checks.output(tool, p);
    let output = quote!(.with_output::<#checked>());
    let allow = attrs.allow_unknown_arguments.then(|| quote!(.with_unknown_arguments_allowed()));
    let forms = tool.forms.iter().map(|ty| quote!(.with_elicitation::<#ty>()));
    let requires = attrs.requires.iter().map(|capability| quote!(.with_required_capability(#capability)));
    let budget = attrs.result_budget.as_ref().map(|choice| match choice {
        BudgetChoice::Unlimited => quote!(.with_result_budget(#p::ResultBudget::unlimited())),
        BudgetChoice::Bytes { value, wire } => {
            let value = value.map(|bytes| {
                let bytes = proc_macro2::Literal::u64_unsuffixed(bytes);
                quote!(.with_value_bytes(#bytes))
            });
            let wire = wire.map(|bytes| {
                let bytes = proc_macro2::Literal::u64_unsuffixed(bytes);
                quote!(.with_wire_bytes(#bytes))
            });
            quote!(.with_result_budget(#p::ResultBudget::new() #value #wire))
        }
    });
    let ui = attrs.ui.as_ref().map(|choice| match choice {
        UiChoice::Off => quote!(.without_ui()),
        UiChoice::Builtin => quote!(.with_builtin_ui()),
        UiChoice::Resource(uri) => quote!(.with_ui(#uri)),
    });
    quote! {
        fn #spec_fn() -> &'static #p::ToolSpec {
            static SPEC: #p::OnceLock<#p::ToolSpec> = #p::OnceLock::new();
            SPEC.get_or_init(|| {
                #p::ToolSpec::new::<#args>(#name)
                    .with_origin(#p::env!("CARGO_PKG_NAME"), #p::env!("CARGO_PKG_VERSION"))
                    .with_description(#description)
                    #title
                    .with_annotations(#p::annotations(#read_only, #destructive, #idempotent, #open_world))
                    #(#icons)*
                    #(#meta)*
                    #output
                    #(#forms)*
                    #(#requires)*
                    #ui
                    #budget
                    #allow
            })
        }
    }
}

/// The body of `Tool::call`: decode, resolve each parameter, call, lower.
/// `receiver` is the `Arc` of a toolbox method's `self`.
pub(crate) fn call_body(
    tool: &ToolFn<'_>,
    invoke: &Invoke,
    args: &syn::Ident,
    spec_fn: &syn::Ident,
    checks: &Checks,
    runtime: &Runtime,
    receiver: Option<TokenStream>,
) -> TokenStream {
    let p = &runtime.private;
    let bindings: Vec<_> = (0..tool.params.len()).map(|index| format_ident!("__codeagent_arg_{}", index)).collect();
    let resolved = tool.params.iter().zip(&bindings).enumerate().map(|(index, (param, binding))| {
        let field = &param.ident;
        let ty = param.ty;
        let checked = checks.param(index, &quote!(#ty), p);
        quote! {
            let #binding = match <#checked as #p::check::CheckedParam<'_>>::resolve(args.#field, call) {
                #p::Result::Ok(value) => value,
                #p::Result::Err(error) => return #p::IntoToolResult::into_tool_result(error),
            };
        }
    });
    let value = match invoke {
        Invoke::Direct(callee) if tool.sig.asyncness.is_some() => {
            // Boxed as a `Send` future here, spanned on the method's name, so a
            // future that is not `Send` is reported once, there.
            let ret = return_type(tool.sig);
            let span = tool.sig.ident.span();
            let p = &respanned(p, span);
            quote_spanned! {span=> {
                let future: #p::Pin<#p::Box<dyn #p::Future<Output = #ret> + #p::Send + '_>> =
                    #p::Box::pin(#callee(#(#bindings),*));
                future.await
            }}
        }
        Invoke::Direct(callee) => quote!(#callee(#(#bindings),*)),
        Invoke::Boxed(boxed) => quote!(#boxed(#(#bindings),*).await),
    };
    let checked_output = checks.output(tool, p);
    let steps = quote! {
        let args: #args = match #p::decode_arguments::<#args>(#spec_fn(), &mut call) {
            #p::Result::Ok(args) => args,
            #p::Result::Err(error) => return #p::IntoToolResult::into_tool_result(error),
        };
        let call = &call;
        #(#resolved)*
        <#checked_output as #p::check::CheckedOutput>::lower(#value)
    };
    let this = receiver.map(|receiver| quote!(let this = #receiver;));
    if tool.sig.asyncness.is_some() {
        quote! {
            #this
            #p::Box::pin(async move { #steps })
        }
    } else if tool.attrs.inline.as_ref().is_some_and(|inline| inline.value) {
        quote! {
            #this
            #p::run_inline(move || { #steps })
        }
    } else {
        quote! {
            #this
            #p::run_blocking(move || { #steps })
        }
    }
}

/// `Deref` to a function pointer, so the tool's name still calls the function.
pub(crate) fn deref_impl(
    sig: &syn::Signature,
    types: &[&syn::Type],
    name: &syn::Ident,
    implementation: &syn::Ident,
    boxed: &syn::Ident,
    p: &TokenStream,
) -> TokenStream {
    let ret = return_type(sig);
    if sig.asyncness.is_none() {
        let pointer = quote!(fn(#(#types),*) -> #ret);
        return quote! {
            #[automatically_derived]
            impl #p::Deref for #name {
                type Target = #pointer;

                fn deref(&self) -> &Self::Target {
                    const FUNCTION: #pointer = #implementation;
                    &FUNCTION
                }
            }
        };
    }
    let mut borrows = false;
    let types: Vec<TokenStream> = types
        .iter()
        .map(|ty| {
            let (ty, replaced) = with_lifetime(ty, "__codeagent");
            borrows |= replaced;
            ty
        })
        .collect();
    let names: Vec<_> = (0..types.len()).map(|index| format_ident!("__codeagent_arg_{}", index)).collect();
    // Spanned on the function's name: a future that is not `Send` is reported there, once.
    let span = sig.ident.span();
    let here = &respanned(p, span);
    let (lifetime, binder, generics) = if borrows {
        (quote!('__codeagent), quote!(for<'__codeagent>), quote!(<'__codeagent>))
    } else {
        (quote!('static), quote!(), quote!())
    };
    let future =
        quote_spanned!(span=> #here::Pin<#here::Box<dyn #here::Future<Output = #ret> + #here::Send + #lifetime>>);
    let pinned = quote_spanned! {span=>
        let future: #future = #here::Box::pin(#implementation(#(#names),*));
        future
    };
    let pointer = quote!(#binder fn(#(#types),*) -> #future);
    quote! {
        fn #boxed #generics (#(#names: #types),*) -> #future {
            #pinned
        }

        #[automatically_derived]
        impl #p::Deref for #name {
            type Target = #pointer;

            fn deref(&self) -> &Self::Target {
                const FUNCTION: #pointer = #boxed;
                &FUNCTION
            }
        }
    }
}

/// `tokens` with every token at `span`, so that an error about code built
/// from them points at the user's tokens that `span` belongs to.
pub(crate) fn respanned(tokens: &TokenStream, span: Span) -> TokenStream {
    tokens
        .clone()
        .into_iter()
        .map(|mut tree| {
            if let proc_macro2::TokenTree::Group(group) = &tree {
                let mut inner = proc_macro2::Group::new(group.delimiter(), respanned(&group.stream(), span));
                inner.set_span(span);
                tree = proc_macro2::TokenTree::Group(inner);
            } else {
                tree.set_span(span);
            }
            tree
        })
        .collect()
}

/// Where the return type was written: the type, else the function's name.
pub(crate) fn return_span(sig: &syn::Signature) -> Span {
    match &sig.output {
        syn::ReturnType::Default => sig.ident.span(),
        syn::ReturnType::Type(_, ty) => ty.span(),
    }
}

/// The declared return type, `()` when there is none.
pub(crate) fn return_type(sig: &syn::Signature) -> TokenStream {
    match &sig.output {
        syn::ReturnType::Default => quote_spanned!(sig.ident.span()=> ()),
        syn::ReturnType::Type(_, ty) => quote!(#ty),
    }
}

/// `ty` with every elided or `'_` lifetime replaced by `'name`, and whether
/// there was one.
fn with_lifetime(ty: &syn::Type, name: &str) -> (TokenStream, bool) {
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
