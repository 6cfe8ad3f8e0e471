//! The keys of `#[tool(...)]` and `#[toolbox(...)]`.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::parse::Parser as _;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Lit, LitStr, Token};

use crate::names::did_you_mean;

/// The keys `#[tool(...)]` accepts (`blocking` is refused with its own hint).
pub(crate) const TOOL_KEYS: [&str; 15] = [
    "name",
    "title",
    "description",
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
];

/// The client capabilities a tool may require.
const CAPABILITIES: [&str; 4] = ["sampling", "elicitation", "elicitation.url", "roots"];

/// A value with the span it was written at.
pub(crate) struct Located<T> {
    pub(crate) value: T,
    pub(crate) span: Span,
}

/// What `#[tool(...)]` says.
#[derive(Default)]
pub(crate) struct ToolAttrs {
    pub(crate) name: Option<Located<String>>,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) read_only: Option<bool>,
    pub(crate) destructive: Option<bool>,
    pub(crate) idempotent: Option<bool>,
    pub(crate) open_world: Option<bool>,
    pub(crate) icons: Vec<String>,
    pub(crate) meta: Vec<(String, syn::Expr)>,
    pub(crate) krate: Option<syn::Path>,
    pub(crate) allow_unknown_arguments: bool,
    /// `inline`: run a sync tool on the async worker instead of the blocking pool.
    pub(crate) inline: Option<Located<bool>>,
    /// `ui`: the MCP Apps view the tool points at.
    pub(crate) ui: Option<UiChoice>,
    /// `requires = [...]`: the client capabilities the tool needs.
    pub(crate) requires: Vec<String>,
    /// `result_budget(...)`: the tool's own result budget.
    pub(crate) result_budget: Option<BudgetChoice>,
    seen: Vec<String>,
}

/// What `result_budget(...)` says.
pub(crate) enum BudgetChoice {
    /// `result_budget(unlimited)`.
    Unlimited,
    /// `result_budget(value = N, wire = N)`: either may be left out (its default stays).
    Bytes { value: Option<u64>, wire: Option<u64> },
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

/// Collects errors so that every bad key is reported at once.
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(existing) => existing.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    pub(crate) fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

impl ToolAttrs {
    /// Parses the tokens inside `#[tool(...)]`, recording every problem in `errors`.
    pub(crate) fn parse(tokens: TokenStream, errors: &mut Errors) -> ToolAttrs {
        let mut attrs = ToolAttrs::default();
        let parser = syn::meta::parser(|meta| {
            if let Err(error) = attrs.parse_key(&meta) {
                errors.push(error);
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(error) = syn::parse::Parser::parse2(parser, tokens) {
            errors.push(error);
        }
        attrs
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
        let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_else(|| path_text(&meta.path));
        if self.seen.contains(&key) {
            return Err(meta.error(format!("`{key}` is given twice")));
        }
        self.seen.push(key.clone());
        match key.as_str() {
            "name" => {
                let name = string_value(meta)?;
                self.name = Some(Located { value: name.value(), span: name.span() });
            }
            "title" => self.title = Some(string_value(meta)?.value()),
            "description" => self.description = Some(string_value(meta)?.value()),
            "read_only" => self.read_only = Some(flag(meta)?),
            "destructive" => self.destructive = Some(flag(meta)?),
            "idempotent" => self.idempotent = Some(flag(meta)?),
            "open_world" => self.open_world = Some(flag(meta)?),
            "allow_unknown_arguments" => self.allow_unknown_arguments = flag(meta)?,
            "inline" => self.inline = Some(Located { value: flag(meta)?, span: meta.path.span() }),
            "blocking" => {
                return Err(meta.error("sync tools run on the blocking pool unless marked `inline`; remove `blocking`"));
            }
            "icons" => self.icons.extend(icons(meta)?),
            "ui" => self.ui = Some(ui_choice(meta)?),
            "requires" => self.requires = capabilities(meta)?,
            "result_budget" => self.result_budget = Some(budget_choice(meta)?),
            "meta" => {
                let content;
                syn::parenthesized!(content in meta.input);
                // Parsed apart from the outer stream, so one bad entry is one error.
                let tokens: TokenStream = content.parse()?;
                let entries = Punctuated::<MetaEntry, Token![,]>::parse_terminated.parse2(tokens)?;
                self.meta.extend(entries.into_iter().map(|entry| (entry.key, entry.value)));
            }
            "crate" => self.krate = Some(crate_path(meta)?),
            unknown => {
                let hint = did_you_mean(unknown, &TOOL_KEYS)
                    .map(|close| format!("; did you mean `{close}`?"))
                    .unwrap_or_default();
                return Err(meta.error(format!(
                    "unknown tool attribute `{unknown}`{hint}\nexpected one of: {}",
                    TOOL_KEYS.iter().map(|key| format!("`{key}`")).collect::<Vec<_>>().join(", ")
                )));
            }
        }
        Ok(())
    }
}

/// Parses `#[toolbox(...)]`: only `crate = "..."`.
pub(crate) fn parse_toolbox_attrs(tokens: TokenStream, errors: &mut Errors) -> Option<syn::Path> {
    let mut krate = None;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("crate") {
            let path = string_value(&meta)?;
            match path.parse() {
                Ok(path) => krate = Some(path),
                Err(_) => errors.at(path.span(), "`crate` takes a path such as \"::codeagent\""),
            }
        } else {
            errors.push(
                meta.error(format!("unknown toolbox attribute `{}`; the only key is `crate`", path_text(&meta.path))),
            );
            skip_value(&meta)?;
        }
        Ok(())
    });
    if let Err(error) = syn::parse::Parser::parse2(parser, tokens) {
        errors.push(error);
    }
    krate
}

/// `icons = ["...", ...]`.
fn icons(meta: &ParseNestedMeta<'_>) -> syn::Result<Vec<String>> {
    let list: syn::ExprArray = meta.value()?.parse()?;
    list.elems
        .iter()
        .map(|element| match element {
            syn::Expr::Lit(syn::ExprLit { lit: Lit::Str(src), .. }) => Ok(src.value()),
            other => Err(syn::Error::new(other.span(), "each icon is a string: its URL or data: URI")),
        })
        .collect()
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

/// `crate = "::path"`.
fn crate_path(meta: &ParseNestedMeta<'_>) -> syn::Result<syn::Path> {
    let path = string_value(meta)?;
    path.parse().map_err(|_| syn::Error::new(path.span(), "`crate` takes a path such as \"::codeagent\""))
}

fn path_text(path: &syn::Path) -> String {
    path.segments.iter().map(|segment| segment.ident.to_string()).collect::<Vec<_>>().join("::")
}

fn string_value(meta: &ParseNestedMeta<'_>) -> syn::Result<LitStr> {
    let key = path_text(&meta.path);
    let value = meta.value().map_err(|_| meta.error(format!("`{key}` takes a string: `{key} = \"...\"`")))?;
    match value.parse::<syn::Expr>()? {
        syn::Expr::Lit(syn::ExprLit { lit: Lit::Str(text), .. }) => Ok(text),
        other => Err(syn::Error::new(other.span(), format!("`{key}` takes a string: `{key} = \"...\"`"))),
    }
}

/// `read_only` or `read_only = true`.
fn flag(meta: &ParseNestedMeta<'_>) -> syn::Result<bool> {
    if !meta.input.peek(Token![=]) {
        return Ok(true);
    }
    let key = path_text(&meta.path);
    match meta.value()?.parse::<syn::Expr>()? {
        syn::Expr::Lit(syn::ExprLit { lit: Lit::Bool(value), .. }) => Ok(value.value),
        other => Err(syn::Error::new(other.span(), format!("`{key}` is a flag: write `{key}` or `{key} = false`"))),
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

/// Consumes what is left of a key that was refused, up to the next `,`, so
/// parsing goes on and the next key's problems are reported too.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    meta.input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tree, next)) = rest.token_tree() {
            if matches!(&tree, proc_macro2::TokenTree::Punct(punct) if punct.as_char() == ',') {
                break;
            }
            rest = next;
        }
        Ok(((), rest))
    })
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

/// The keys `#[resource(...)]` accepts.
pub(crate) const RESOURCE_KEYS: [&str; 8] =
    ["uri", "name", "title", "description", "mime_type", "size", "icons", "crate"];

/// The keys `#[prompt(...)]` accepts.
pub(crate) const PROMPT_KEYS: [&str; 5] = ["name", "title", "description", "icons", "crate"];

/// What `#[resource(...)]` or `#[prompt(...)]` says (a prompt has no `uri`,
/// `mime_type` or `size`).
#[derive(Default)]
pub(crate) struct ItemAttrs {
    pub(crate) uri: Option<LitStr>,
    pub(crate) name: Option<Located<String>>,
    pub(crate) title: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) mime_type: Option<String>,
    pub(crate) size: Option<Located<u64>>,
    pub(crate) icons: Vec<String>,
    pub(crate) krate: Option<syn::Path>,
    seen: Vec<String>,
}

impl ItemAttrs {
    /// Parses the tokens inside `#[resource(...)]` (`kind` "resource") or
    /// `#[prompt(...)]`, accepting `keys`; every problem goes to `errors`.
    pub(crate) fn parse(tokens: TokenStream, kind: &str, keys: &[&str], errors: &mut Errors) -> ItemAttrs {
        let mut attrs = ItemAttrs::default();
        let parser = syn::meta::parser(|meta| {
            if let Err(error) = attrs.parse_key(&meta, kind, keys) {
                errors.push(error);
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(error) = syn::parse::Parser::parse2(parser, tokens) {
            errors.push(error);
        }
        attrs
    }

    fn parse_key(&mut self, meta: &ParseNestedMeta<'_>, kind: &str, keys: &[&str]) -> syn::Result<()> {
        let key = meta.path.get_ident().map(ToString::to_string).unwrap_or_else(|| path_text(&meta.path));
        if !keys.contains(&key.as_str()) {
            let hint = did_you_mean(&key, keys).map(|close| format!("; did you mean `{close}`?")).unwrap_or_default();
            return Err(meta.error(format!(
                "unknown {kind} attribute `{key}`{hint}\nexpected one of: {}",
                keys.iter().map(|key| format!("`{key}`")).collect::<Vec<_>>().join(", ")
            )));
        }
        if self.seen.contains(&key) {
            return Err(meta.error(format!("`{key}` is given twice")));
        }
        self.seen.push(key.clone());
        match key.as_str() {
            "uri" => self.uri = Some(string_value(meta)?),
            "name" => {
                let name = string_value(meta)?;
                self.name = Some(Located { value: name.value(), span: name.span() });
            }
            "title" => self.title = Some(string_value(meta)?.value()),
            "description" => self.description = Some(string_value(meta)?.value()),
            "mime_type" => self.mime_type = Some(string_value(meta)?.value()),
            "size" => {
                let span = meta.path.span();
                let value = match meta.value()?.parse::<syn::Expr>()? {
                    syn::Expr::Lit(syn::ExprLit { lit: Lit::Int(size), .. }) => size.base10_parse::<u64>()?,
                    other => {
                        return Err(syn::Error::new(other.span(), "`size` takes a number of bytes: `size = 1024`"));
                    }
                };
                self.size = Some(Located { value, span });
            }
            "icons" => self.icons.extend(icons(meta)?),
            _ => self.krate = Some(crate_path(meta)?),
        }
        Ok(())
    }
}
