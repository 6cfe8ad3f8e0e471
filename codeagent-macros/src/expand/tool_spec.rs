//! The `ToolSpec` a tool builds once: name, description, annotations,
//! schemas and the other `#[tool(...)]` arguments.

use proc_macro2::TokenStream;
use quote::quote;

use super::args_struct::{arg_type, described};
use super::checks::Checks;
use super::runtime::Runtime;
use crate::parse::tool::ToolFn;
use crate::parse::tool_args::{BudgetChoice, UiChoice};

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
    let scopes = attrs.scopes.iter().map(|scope| quote!(.with_scope(#scope)));
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
    let task = attrs.task.as_ref().map(|choice| {
        let support = if choice.required { quote!(Required) } else { quote!(Optional) };
        let detach = choice.detach.then(|| quote!(.with_task_at_detach()));
        quote!(.with_task(#p::TaskSupport::#support) #detach)
    });
    let ui = attrs.ui.as_ref().map(|choice| match choice {
        UiChoice::Off => quote!(.without_ui()),
        UiChoice::Builtin => quote!(.with_builtin_ui()),
        UiChoice::Resource(uri) => quote!(.with_ui(#uri)),
    });
    let input = match described(tool) {
        Some(docs) => {
            let properties = tool.fun.params.iter().zip(&docs).enumerate().map(|(index, (param, doc))| {
                let wire = param.wire_name().0;
                let ty = arg_type(checks, index, param, p);
                quote!(#p::property::<#ty>(#wire, #doc))
            });
            let deny = !attrs.allow_unknown_arguments;
            quote!(#p::tool_spec_of(#name, &[#(#properties),*], #deny))
        }
        None => quote!(#p::tool_spec(#name, <#args as #p::schemars::JsonSchema>::json_schema)),
    };
    quote! {
        fn #spec_fn() -> &'static #p::ToolSpec {
            static SPEC: #p::OnceLock<#p::ToolSpec> = #p::OnceLock::new();
            #p::spec_once(&SPEC, || {
                #input
                    .with_origin(#p::env!("CARGO_PKG_NAME"), #p::env!("CARGO_PKG_VERSION"))
                    .with_description(#description)
                    #title
                    .with_annotations(#p::annotations(#read_only, #destructive, #idempotent, #open_world))
                    #(#icons)*
                    #(#meta)*
                    #output
                    #(#forms)*
                    #(#requires)*
                    #(#scopes)*
                    #ui
                    #budget
                    #task
                    #allow
            })
        }
    }
}
