//! One page of a toolbox's listing, typed, and its wire form (`tools/list`,
//! `resources/list`, `resources/templates/list`, `prompts/list`).

use std::time::Duration;

use serde_json::{Map, Value};

use super::errors::InvalidCursor;
use crate::mcp::{ProtocolVersion, ToolDefinition};

/// How long a client may cache a `tools/list` result (2026-07-28), and for whom.
///
/// ```
/// use std::time::Duration;
/// use codeagent_core::toolbox::CacheHint;
///
/// let hint = CacheHint::public(Duration::from_secs(60));
/// assert!(hint.is_public());
/// assert_eq!(hint.ttl(), Duration::from_secs(60));
/// assert!(!CacheHint::private(Duration::ZERO).is_public());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheHint {
    ttl: Duration,
    public: bool,
}

impl CacheHint {
    /// Shared caches may serve the listing to every user for `ttl`.
    pub const fn public(ttl: Duration) -> Self {
        CacheHint { ttl, public: true }
    }

    /// Only the user's own client may cache the listing, for `ttl`.
    pub const fn private(ttl: Duration) -> Self {
        CacheHint { ttl, public: false }
    }

    /// How long the listing stays fresh; zero means re-fetch every time.
    pub const fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Whether shared caches may serve the listing across users.
    pub const fn is_public(&self) -> bool {
        self.public
    }
}

impl Default for CacheHint {
    /// A zero TTL, public.
    fn default() -> Self {
        CacheHint::public(Duration::ZERO)
    }
}

/// One page of a toolbox's tools, resources or prompts, as
/// [`Tools::list`](crate::tools::Tools::list), [`Resources::list`](crate::resources::Resources::list)
/// and [`Prompts::list`](crate::prompts::Prompts::list) give it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Page<T> {
    /// The items on this page, in the toolbox's order.
    pub items: Vec<T>,
    /// The cursor of the next page, when more items follow.
    pub next_cursor: Option<String>,
    /// How long the listing may be cached.
    pub cache: CacheHint,
}

impl<T> Page<T> {
    /// The page of `all` that starts at `cursor` (none for the first) and
    /// holds at most `page_size` items, each made by `item`.
    pub(crate) fn of<S>(
        all: &[S],
        cursor: Option<&str>,
        page_size: usize,
        cache: CacheHint,
        item: impl Fn(&S) -> T,
    ) -> Result<Self, InvalidCursor> {
        let (start, end) = page_bounds(cursor, all.len(), page_size)?;
        Ok(Page {
            items: all[start..end].iter().map(item).collect(),
            next_cursor: (end < all.len()).then(|| end.to_string()),
            cache,
        })
    }
}

impl Page<ToolDefinition> {
    /// The `tools/list` result for `version`: the tools as that version
    /// defines them, `nextCursor` when more follow, and in 2026-07-28
    /// `resultType`, `ttlMs` and `cacheScope`.
    pub fn to_wire(&self, version: ProtocolVersion) -> Value {
        let tools = self.items.iter().map(|tool| tool.to_wire(version)).collect();
        wire_page(version, "tools", tools, self.next_cursor.as_deref(), self.cache)
    }
}

/// The `key` list result (`tools/list`, `resources/list`, ...) for
/// `version` of the page of `all` (wire forms) at `cursor`.
pub(crate) fn wire_page_of(
    version: ProtocolVersion,
    key: &str,
    all: &[Value],
    cursor: Option<&str>,
    page_size: usize,
    cache: CacheHint,
) -> Result<Value, InvalidCursor> {
    let page = Page::of(all, cursor, page_size, cache, Value::clone)?;
    Ok(wire_page(version, key, page.items, page.next_cursor.as_deref(), cache))
}

/// A list result (`tools/list`, `resources/list`, ...) with `items` under `key`.
pub(crate) fn wire_page(
    version: ProtocolVersion,
    key: &str,
    items: Vec<Value>,
    next_cursor: Option<&str>,
    cache: CacheHint,
) -> Value {
    let mut result = Map::new();
    if version.has_result_type() {
        result.insert("resultType".into(), Value::from("complete"));
    }
    result.insert(key.into(), Value::Array(items));
    if let Some(cursor) = next_cursor {
        result.insert("nextCursor".into(), Value::from(cursor));
    }
    if version.has_result_type() {
        let ttl = u64::try_from(cache.ttl.as_millis()).unwrap_or(u64::MAX);
        result.insert("ttlMs".into(), Value::from(ttl));
        result.insert("cacheScope".into(), Value::from(if cache.public { "public" } else { "private" }));
    }
    Value::Object(result)
}

/// The items a page from `cursor` holds, of `count`: `start..end`.
fn page_bounds(cursor: Option<&str>, count: usize, page_size: usize) -> Result<(usize, usize), InvalidCursor> {
    let start = match cursor {
        None => 0,
        Some(cursor) => cursor
            .parse::<usize>()
            .ok()
            .filter(|start| *start > 0 && *start < count)
            .ok_or_else(|| InvalidCursor::new(cursor))?,
    };
    Ok((start, (start + page_size).min(count)))
}
