//! The arguments of `#[tool(...)]`, on a free function or a toolbox method.

use proc_macro2::TokenStream;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser as _;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Lit, LitStr, Token};

use super::keys::{
    Located, crate_path, flag, icons, known_key, located_string, parse_keys, path_text, scopes, string_value,
};
use crate::errors::Errors;

/// The keys `#[tool(...)]` accepts (`blocking` is refused with its own hint).
pub(crate) const TOOL_KEYS: [&str; 18] = [
    "name",
    "title",
    "description",
    "undocumented",
    "read_only",
    "destructive",
    "idempotent",
    "open_world",
    "icons",
    "meta",
    "crate",
    "allow_unknown_arguments",
    "inline",
    "ui",
    "requires",
    "result_budget",
    "scopes",
    "task",
];

/// The client capabilities a tool may require.
const CAPABILITIES: [&str; 4] = ["sampling", "elicitation", "elicitation.url", "roots"];

/// What `#[tool(...)]` says.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    /// `name = "..."`: the tool's name, instead of the function's.
    pub(crate) name: Option<Located<String>>,
    /// `title = "..."`: the display title.
    pub(crate) title: Option<String>,
    /// `description = "..."`: instead of the doc comment.
    pub(crate) description: Option<String>,
    /// `undocumented`: the tool may have no description (else it is an error).
    pub(crate) undocumented: bool,
    /// `read_only`: the annotation hint.
    pub(crate) read_only: Option<bool>,
    /// `destructive`: the annotation hint.
    pub(crate) destructive: Option<bool>,
    /// `idempotent`: the annotation hint.
    pub(crate) idempotent: Option<bool>,
    /// `open_world`: the annotation hint.
    pub(crate) open_world: Option<bool>,
    /// `icons = [...]`: the icons' URLs or data: URIs.
    pub(crate) icons: Vec<String>,
    /// `meta(key = value, ...)`: the spec's `_meta` entries.
    pub(crate) meta: Vec<(String, syn::Expr)>,
    /// `crate = "..."`: the path of the `codeagent` crate.
    pub(crate) krate: Option<syn::Path>,
    /// `allow_unknown_arguments`: accept arguments the schema does not name.
    pub(crate) allow_unknown_arguments: bool,
    /// `inline`: run a sync tool on the async worker instead of the blocking pool.
    pub(crate) inline: Option<Located<bool>>,
    /// `ui`: the MCP Apps view the tool points at.
    pub(crate) ui: Option<UiChoice>,
    /// `requires = [...]`: the client capabilities the tool needs.
    pub(crate) requires: Vec<String>,
    /// `result_budget(...)`: the tool's own result budget.
    pub(crate) result_budget: Option<BudgetChoice>,
    /// `scopes = [...]`: the OAuth scopes a call needs.
    pub(crate) scopes: Vec<String>,
    /// `task`, `task(optional | required, detach)`: the calls become tasks.
    pub(crate) task: Option<TaskChoice>,
    seen: Vec<String>,
}

/// What `result_budget(...)` says.
pub(crate) enum BudgetChoice {
    /// `result_budget(unlimited)`.
    Unlimited,
    /// `result_budget(value = N, wire = N)`: either may be left out (its default stays).
    Bytes { value: Option<u64>, wire: Option<u64> },
}

/// What `task(...)` says.
pub(crate) struct TaskChoice {
    /// `required`: only clients that can poll a task may call the tool.
    pub(crate) required: bool,
    /// `detach`: the task is made at the tool's `ctx.detach()`.
    pub(crate) detach: bool,
}

/// What `ui = ...` says of the tool's MCP Apps view.
pub(crate) enum UiChoice {
    /// `ui = false`: no view, even for a rich return type.
    Off,
    /// `ui = true`: the built-in view, even for a return type that is not rich.
    Builtin,
    /// `ui = "ui://..."`: a view of the server's own.
    Resource(String),
}

impl ToolAttrs {
    /// Parses the tokens inside `#[tool(...)]`, recording every problem in `errors`.
    pub(crate) fn parse(tokens: TokenStream, errors: &mut Errors) -> ToolAttrs {
        let mut attrs = ToolAttrs::default();
        parse_keys(tokens, errors, |meta| attrs.parse_key(meta));
        attrs
    }

    /// Reads one key.
    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        if meta.path.is_ident("blocking") {
            return Err(meta.error("sync tools run on the blocking pool unless marked `inline`; remove `blocking`"));
        }
        match known_key(meta, "tool", &TOOL_KEYS, &mut self.seen)?.as_str() {
            "name" => self.name = Some(located_string(meta)?),
            "title" => self.title = Some(string_value(meta)?.value()),
            "description" => self.description = Some(string_value(meta)?.value()),
            "undocumented" => self.undocumented = flag(meta)?,
            "read_only" => self.read_only = Some(flag(meta)?),
            "destructive" => self.destructive = Some(flag(meta)?),
            "idempotent" => self.idempotent = Some(flag(meta)?),
            "open_world" => self.open_world = Some(flag(meta)?),
            "allow_unknown_arguments" => self.allow_unknown_arguments = flag(meta)?,
            "inline" => self.inline = Some(Located { value: flag(meta)?, span: meta.path.span() }),
            "icons" => self.icons.extend(icons(meta)?),
            "ui" => self.ui = Some(ui_choice(meta)?),
            "requires" => self.requires = capabilities(meta)?,
            "result_budget" => self.result_budget = Some(budget_choice(meta)?),
            "scopes" => self.scopes = scopes(meta)?,
            "task" => self.task = Some(task_choice(meta)?),
            "meta" => {
                let content;
                syn::parenthesized!(content in meta.input);
                // Parsed apart from the outer stream, so one bad entry is one error.
                let tokens: TokenStream = content.parse()?;
                let entries = Punctuated::<MetaEntry, Token![,]>::parse_terminated.parse2(tokens)?;
                self.meta.extend(entries.into_iter().map(|entry| (entry.key, entry.value)));
            }
            _ => self.krate = Some(crate_path(meta)?),
        }
        Ok(())
    }
}

/// `requires = ["sampling", ...]`: known client capabilities only.
fn capabilities(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<String>> {
    let hint = format!(
        "`requires` lists client capabilities: `requires = [\"sampling\"]`, from {}",
        CAPABILITIES.iter().map(|capability| format!("\"{capability}\"")).collect::<Vec<_>>().join(", ")
    );
    let list: syn::ExprArray = meta.value().map_err(|_| meta.error(&hint))?.parse().map_err(|_| meta.error(&hint))?;
    list.elems
        .iter()
        .map(|element| match element {
            syn::Expr::Lit(syn::ExprLit { lit: Lit::Str(text), .. })
                if CAPABILITIES.contains(&text.value().as_str()) =>
            {
                Ok(text.value())
            }
            other => Err(syn::Error::new(other.span(), &hint)),
        })
        .collect()
}

/// `task`, or `task(...)` with `optional` or `required`, and `detach`.
fn task_choice(meta: &ParseNestedMeta<'_>) -> syn::Result<TaskChoice> {
    const HINT: &str =
        "`task` takes `optional` or `required`, and `detach`: `task`, `task(required)`, `task(required, detach)`";
    if meta.input.peek(Token![=]) {
        return Err(meta.error(HINT));
    }
    let mut choice = TaskChoice { required: false, detach: false };
    if !meta.input.peek(syn::token::Paren) {
        return Ok(choice);
    }
    let mut support: Option<String> = None;
    meta.parse_nested_meta(|inner| {
        let key = path_text(&inner.path);
        match key.as_str() {
            "optional" | "required" => {
                if let Some(earlier) = &support {
                    return Err(
                        inner.error(format!("`task` is `{earlier}` already: give `optional` or `required` once"))
                    );
                }
                choice.required = key == "required";
                support = Some(key);
            }
            "detach" if !choice.detach => choice.detach = true,
            "detach" => return Err(inner.error("`detach` is given twice")),
            _ => return Err(inner.error(HINT)),
        }
        if !inner.input.is_empty() && !inner.input.peek(Token![,]) {
            return Err(inner.error(HINT));
        }
        Ok(())
    })?;
    Ok(choice)
}

/// `result_budget(unlimited)` or `result_budget(value = 65536, wire = 4194304)`.
fn budget_choice(meta: &ParseNestedMeta<'_>) -> syn::Result<BudgetChoice> {
    const HINT: &str = "`result_budget` takes `(unlimited)` or byte counts: \
        `result_budget(value = 65536)`, `result_budget(wire = 4194304)`, or both";
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(HINT));
    }
    let mut unlimited = None;
    let mut value = None;
    let mut wire = None;
    meta.parse_nested_meta(|inner| {
        let key = path_text(&inner.path);
        let slot = match key.as_str() {
            "unlimited" => {
                unlimited = Some(inner.path.span());
                return Ok(());
            }
            "value" => &mut value,
            "wire" => &mut wire,
            unknown => {
                if inner.input.peek(Token![=]) {
                    inner.value()?.parse::<syn::Expr>()?;
                }
                return Err(inner.error(format!(
                    "`result_budget` bounds `value` and `wire` (or is `unlimited`); `{unknown}` is neither"
                )));
            }
        };
        if slot.is_some() {
            return Err(inner.error(format!("`{key}` is given twice")));
        }
        let bytes = match inner.value().map_err(|_| inner.error(HINT))?.parse::<syn::Expr>()? {
            syn::Expr::Lit(syn::ExprLit { lit: Lit::Int(bytes), .. }) => bytes.base10_parse::<u64>()?,
            other => {
                return Err(syn::Error::new(other.span(), format!("`{key}` takes a number of bytes: `{key} = 65536`")));
            }
        };
        *slot = Some(bytes);
        Ok(())
    })?;
    match (unlimited, value, wire) {
        (Some(_), None, None) => Ok(BudgetChoice::Unlimited),
        (Some(span), _, _) => Err(syn::Error::new(span, "`unlimited` stands alone: no `value` or `wire` with it")),
        (None, None, None) => Err(meta.error(HINT)),
        (None, value, wire) => Ok(BudgetChoice::Bytes { value, wire }),
    }
}

/// `ui = false`, `ui = true` or `ui = "ui://..."`.
fn ui_choice(meta: &ParseNestedMeta<'_>) -> syn::Result<UiChoice> {
    const HINT: &str = "`ui` takes `false` (no view), `true` (the built-in view) or the `ui://` URI of a view resource";
    let value = meta.value().map_err(|_| meta.error(HINT))?;
    match value.parse::<syn::Expr>()? {
        syn::Expr::Lit(syn::ExprLit { lit: Lit::Bool(flag), .. }) => {
            Ok(if flag.value { UiChoice::Builtin } else { UiChoice::Off })
        }
        syn::Expr::Lit(syn::ExprLit { lit: Lit::Str(uri), .. }) => {
            let text = uri.value();
            match text.strip_prefix("ui://") {
                Some(rest) if !rest.is_empty() && !text.chars().any(char::is_whitespace) => {
                    Ok(UiChoice::Resource(text))
                }
                _ => Err(syn::Error::new(
                    uri.span(),
                    format!(
                        "`ui` names an MCP Apps view by a `ui://` URI such as \"ui://my-server/chart\"; `{text}` is not one"
                    ),
                )),
            }
        }
        other => Err(syn::Error::new(other.span(), HINT)),
    }
}

/// A literal string, number or boolean, or a negative number.
fn checked_literal(value: syn::Expr) -> syn::Result<syn::Expr> {
    let literal = match &value {
        syn::Expr::Unary(syn::ExprUnary { op: syn::UnOp::Neg(_), expr, .. }) => {
            matches!(&**expr, syn::Expr::Lit(syn::ExprLit { lit: Lit::Int(_) | Lit::Float(_), .. }))
        }
        syn::Expr::Lit(syn::ExprLit { lit, .. }) => {
            matches!(lit, Lit::Str(_) | Lit::Int(_) | Lit::Float(_) | Lit::Bool(_))
        }
        _ => false,
    };
    if literal {
        Ok(value)
    } else {
        Err(syn::Error::new(value.span(), "a meta value is a string, a number or a boolean"))
    }
}

/// One `key = value` of `meta(...)`; a key that is not an identifier is a string.
struct MetaEntry {
    key: String,
    value: syn::Expr,
}

impl syn::parse::Parse for MetaEntry {
    fn parse(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        let key = if input.peek(LitStr) {
            input.parse::<LitStr>()?.value()
        } else {
            syn::ext::IdentExt::parse_any(input).map(|ident: syn::Ident| ident.to_string()).map_err(|error| {
                syn::Error::new(
                    error.span(),
                    "write meta as `meta(key = value, ...)`; a key that is not a name is a string",
                )
            })?
        };
        input.parse::<Token![=]>()?;
        let value = checked_literal(input.parse()?)?;
        Ok(MetaEntry { key, value })
    }
}
