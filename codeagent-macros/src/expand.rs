//! Writing the tokens of a tool.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;

use crate::ast::ToolFn;
use crate::attr::{Errors, ToolAttrs};
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
pub(crate) fn free_tool(args: TokenStream, item: &syn::ItemFn) -> syn::Result<TokenStream> {
    let mut errors = Errors::default();
    let attrs = ToolAttrs::parse(args, &mut errors);
    let tool = ToolFn::from_sig(&item.sig, &item.attrs, attrs, &mut errors);
    check(&tool, Site::Free, &mut errors);
    errors.finish()?;

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
    let callee = quote!(#implementation);
    let args_struct = args_struct(&tool, &args, &runtime);
    let spec = spec_fn_tokens(&tool, &spec_fn, &args, &runtime);
    let body = call_body(&tool, &callee, &args, &spec_fn, &runtime, None);
    let deref = deref_impl(&tool, name, &implementation, p);

    Ok(quote! {
        #(#cfgs)*
        #(#docs)*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, Default)]
        #vis struct #name;

        #(#cfgs)*
        const _: () = {
            #args_struct

            #(#others)*
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

/// The struct whose fields are the tool's parameters, deriving `Deserialize`
/// and `JsonSchema`; injected parameters are [`Injected`] placeholders.
pub(crate) fn args_struct(tool: &ToolFn<'_>, args: &syn::Ident, runtime: &Runtime) -> TokenStream {
    let p = &runtime.private;
    let fields = tool.params.iter().map(|param| {
        let forwarded = &param.forwarded;
        let ident = &param.ident;
        let ty = with_lifetime(param.ty, "static").0;
        let field_ty = quote_spanned!(param.ty.span()=> <#ty as #p::ToolParam<'static>>::Arg);
        quote!(#(#forwarded)* #ident: #field_ty)
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
    runtime: &Runtime,
) -> TokenStream {
    let p = &runtime.private;
    let (name, _) = tool.name();
    let description = tool.description();
    let attrs = &tool.attrs;
    let title = attrs.title.as_ref().map(|title| quote!(.title(#title)));
    let hint = |value: Option<bool>| match value {
        Some(value) => quote!(#p::Option::Some(#value)),
        None => quote!(#p::Option::None),
    };
    let (read_only, destructive, idempotent, open_world) =
        (hint(attrs.read_only), hint(attrs.destructive), hint(attrs.idempotent), hint(attrs.open_world));
    let icons = attrs.icons.iter().map(|src| quote!(.icon(#p::Icon::new(#src))));
    let meta = attrs.meta.iter().map(|(key, value)| quote!(.meta(#key, #p::serde_json::Value::from(#value))));
    let ret = return_type(tool.sig);
    let output = quote_spanned!(ret.span()=> .output::<#ret>());
    let allow = attrs.allow_unknown_arguments.then(|| quote!(.allow_unknown_arguments()));
    quote! {
        fn #spec_fn() -> &'static #p::ToolSpec {
            static SPEC: #p::OnceLock<#p::ToolSpec> = #p::OnceLock::new();
            SPEC.get_or_init(|| {
                #p::ToolSpec::new::<#args>(#name)
                    .origin(#p::env!("CARGO_PKG_NAME"), #p::env!("CARGO_PKG_VERSION"))
                    .description(#description)
                    #title
                    .annotations(#p::ToolAnnotations {
                        title: #p::Option::None,
                        read_only_hint: #read_only,
                        destructive_hint: #destructive,
                        idempotent_hint: #idempotent,
                        open_world_hint: #open_world,
                    })
                    #(#icons)*
                    #(#meta)*
                    #output
                    #allow
            })
        }
    }
}

/// The body of `Tool::call`: decode, resolve each parameter, call, lower.
/// `receiver` is the `Arc` of a toolbox method's `self`.
pub(crate) fn call_body(
    tool: &ToolFn<'_>,
    callee: &TokenStream,
    args: &syn::Ident,
    spec_fn: &syn::Ident,
    runtime: &Runtime,
    receiver: Option<TokenStream>,
) -> TokenStream {
    let p = &runtime.private;
    let bindings: Vec<_> = (0..tool.params.len()).map(|index| format_ident!("__codeagent_arg_{}", index)).collect();
    let resolved = tool.params.iter().zip(&bindings).map(|(param, binding)| {
        let field = &param.ident;
        let ty = param.ty;
        let resolve = quote_spanned!(ty.span()=> <#ty as #p::ToolParam<'_>>::resolve);
        quote! {
            let #binding = match #resolve(args.#field, call) {
                #p::Result::Ok(value) => value,
                #p::Result::Err(error) => return #p::IntoToolResult::into_tool_result(error),
            };
        }
    });
    let invoke = if tool.sig.asyncness.is_some() {
        quote!(#callee(#(#bindings),*).await)
    } else {
        quote!(#callee(#(#bindings),*))
    };
    let ret = return_type(tool.sig);
    let lower = quote_spanned!(ret.span()=> #p::IntoToolResult::into_tool_result(#invoke));
    let steps = quote! {
        let args: #args = match #p::decode_arguments::<#args>(#spec_fn(), &mut call) {
            #p::Result::Ok(args) => args,
            #p::Result::Err(error) => return #p::IntoToolResult::into_tool_result(error),
        };
        let call = &call;
        #(#resolved)*
        #lower
    };
    let this = receiver.map(|receiver| quote!(let this = #receiver;));
    if tool.sig.asyncness.is_some() {
        quote! {
            #this
            #p::Box::pin(async move { #steps })
        }
    } else {
        quote! {
            #this
            #p::run_blocking(move || { #steps })
        }
    }
}

/// `Deref` to a function pointer, so the tool's name still calls the function.
fn deref_impl(tool: &ToolFn<'_>, name: &syn::Ident, implementation: &syn::Ident, p: &TokenStream) -> TokenStream {
    let ret = return_type(tool.sig);
    if tool.sig.asyncness.is_none() {
        let types = tool.params.iter().map(|param| param.ty);
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
    let types: Vec<TokenStream> = tool
        .params
        .iter()
        .map(|param| {
            let (ty, replaced) = with_lifetime(param.ty, "__codeagent");
            borrows |= replaced;
            ty
        })
        .collect();
    let names: Vec<_> = (0..types.len()).map(|index| format_ident!("__codeagent_arg_{}", index)).collect();
    let boxed = format_ident!("__codeagent_boxed_{}", unraw(implementation));
    let (lifetime, binder, generics) = if borrows {
        (quote!('__codeagent), quote!(for<'__codeagent>), quote!(<'__codeagent>))
    } else {
        (quote!('static), quote!(), quote!())
    };
    let future = quote!(#p::Pin<#p::Box<dyn #p::Future<Output = #ret> + #p::Send + #lifetime>>);
    let pointer = quote!(#binder fn(#(#types),*) -> #future);
    quote! {
        fn #boxed #generics (#(#names: #types),*) -> #future {
            #p::Box::pin(#implementation(#(#names),*))
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
