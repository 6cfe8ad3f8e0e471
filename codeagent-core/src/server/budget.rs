//! Result budgets: a tool result over its [`ResultBudget`] is sent as a
//! bounded preview plus a link to the whole result, which the server keeps
//! in a [`ResultStore`] (bounded in bytes, each entry for a fixed time) and
//! serves through `resources/read` while it is kept.
//!
//! The whole result is kept as the `CallToolResult` an unbudgeted server
//! would have sent the same client (without the per-message server identity
//! of 2026-07-28), as one `application/json` document, so a host reads
//! everything back, and `ToolResult::from_mcp` rebuilds all three channels.
//!
//! The preview, built from that same wire result:
//!
//! - content: one text block, the result's text (its text blocks, joined by
//!   newlines) cut at a character boundary, then a note saying it was cut,
//!   how large the whole is and where it is kept; from 2025-06-18 a
//!   `resource_link` block to it follows (older versions have no such block:
//!   the note names the URI). Images, audio and other blocks are left out;
//! - `structuredContent`: kept whole when it fits in what is left of the wire
//!   budget (and, for a tool without an output schema, in the value budget:
//!   some hosts hand it to their model instead of the text); else a table's is cut to the first rows that fit in the value
//!   budget (still conforming to the table's output schema), and any other is
//!   left out, as no cut of an arbitrary value conforms to an arbitrary schema;
//! - `_meta`: the artifact is kept when it fits (a table's is cut with its
//!   rows; one that refers to a left-out block is left out), other entries
//!   when they fit;
//! - `isError` and `resultType` as they were.

use std::collections::{HashMap, VecDeque};
use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Map, Value, json};
// The runtime's clock (the system's, unless a test paused it to move it past a TTL).
use tokio::time::Instant;

use crate::mcp::{ARTIFACT_META_KEY, ContentBlock, ProtocolVersion, ResourceLink};
use crate::raw_json::RawParts;
use crate::toolbox::ResultBudget;

/// The prefix of the URIs of kept results: `codeagent://results/<32 hex digits>`.
/// A read of any URI under it is answered from the store, never by the toolbox.
pub const RESULT_URI_PREFIX: &str = "codeagent://results/";

/// The MIME type of a kept result: the `CallToolResult` as JSON.
pub const RESULT_MIME_TYPE: &str = "application/json";

/// How long a result over budget is kept unless set: 10 minutes.
pub const DEFAULT_RESULT_TTL: Duration = Duration::from_secs(600);

/// How many bytes of kept results a server holds at most unless set: 128 MiB.
pub const DEFAULT_RESULT_STORE_BYTES: usize = 128 * 1024 * 1024;

/// What each kept result counts for beyond its document, so that many tiny
/// results cannot grow the store's bookkeeping without bound.
const ENTRY_OVERHEAD: usize = 256;

/// The room a preview's note takes at most (the rest of the value budget is
/// the text's).
const NOTE_ROOM: usize = 512;

/// The room the link block and the envelope of a preview take at most.
const LINK_ROOM: usize = 1024;

/// Results over budget, kept for `resources/read`: at most `limit` bytes,
/// each for `ttl` (expired entries are dropped whenever the store is used;
/// the oldest give way when a new one needs the room).
pub(crate) struct ResultStore {
    ttl: Duration,
    limit: usize,
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    entries: HashMap<String, Entry>,
    /// Ids in the order they were kept, which is also the order they expire in.
    order: VecDeque<String>,
    bytes: usize,
}

struct Entry {
    document: Arc<String>,
    expires: Instant,
}

/// A kept result, as a read finds it.
pub(crate) struct Found {
    /// The whole result, as JSON.
    pub(crate) document: Arc<String>,
    /// How long it is kept still.
    pub(crate) remaining: Duration,
}

impl Entry {
    fn cost(&self) -> usize {
        self.document.len() + ENTRY_OVERHEAD
    }
}

impl Kept {
    fn drop_oldest(&mut self) {
        if let Some(id) = self.order.pop_front()
            && let Some(entry) = self.entries.remove(&id)
        {
            self.bytes -= entry.cost();
        }
    }

    fn drop_expired(&mut self, now: Instant) {
        while let Some(id) = self.order.front() {
            match self.entries.get(id) {
                Some(entry) if entry.expires > now => break,
                _ => self.drop_oldest(),
            }
        }
    }
}

impl ResultStore {
    /// A store keeping each result for `ttl`, `limit` bytes in all.
    pub(crate) fn new(ttl: Duration, limit: usize) -> ResultStore {
        ResultStore { ttl, limit, kept: Mutex::new(Kept::default()) }
    }

    /// How long each result is kept.
    pub(crate) fn ttl(&self) -> Duration {
        self.ttl
    }

    /// How many bytes the store holds at most.
    pub(crate) fn limit(&self) -> usize {
        self.limit
    }

    /// Whether the store can keep anything at all (a time to keep, room).
    pub(crate) fn can_keep(&self) -> bool {
        !self.ttl.is_zero() && self.limit > ENTRY_OVERHEAD
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Keeps `document` from `now`, making room by dropping the oldest
    /// results; its URI, or `None` when it cannot be kept (larger than the
    /// whole store, a zero time to keep, or no random id to name it by).
    ///
    /// A result made for `owner` (a caller's [identity](crate::toolbox::Caller::identity))
    /// is that caller's alone: [`get`](Self::get) finds it for them only.
    pub(crate) fn keep(&self, document: String, now: Instant, owner: Option<&str>) -> Option<String> {
        let cost = document.len() + ENTRY_OVERHEAD;
        if cost > self.limit || self.ttl.is_zero() {
            return None;
        }
        let id = random_id()?;
        let expires = now.checked_add(self.ttl)?;
        let document = Arc::new(document);
        let slot = slot(&id, owner);
        let mut kept = self.lock();
        kept.drop_expired(now);
        while kept.bytes + cost > self.limit && !kept.order.is_empty() {
            kept.drop_oldest();
        }
        kept.bytes += cost;
        kept.order.push_back(slot.clone());
        kept.entries.insert(slot, Entry { document, expires });
        Some(format!("{RESULT_URI_PREFIX}{id}"))
    }

    /// The result kept at `uri` for `owner`, unless it expired or gave way
    /// (or never was, or was another caller's).
    pub(crate) fn get(&self, uri: &str, now: Instant, owner: Option<&str>) -> Option<Found> {
        let id = uri.strip_prefix(RESULT_URI_PREFIX)?;
        let mut kept = self.lock();
        kept.drop_expired(now);
        let entry = kept.entries.get(&slot(id, owner))?;
        Some(Found { document: Arc::clone(&entry.document), remaining: entry.expires.saturating_duration_since(now) })
    }
}

/// Where result `id` of `owner` is kept: its id alone without an owner;
/// with one, the id and a digest of the owner, so that a read by anyone
/// else looks elsewhere and finds nothing.
fn slot(id: &str, owner: Option<&str>) -> String {
    match owner {
        None => id.to_owned(),
        Some(owner) => {
            let digest = hmac_sha256::Hash::hash(owner.as_bytes());
            let digest = crate::lower_hex::lower_hex(&digest);
            format!("{id}.{digest}")
        }
    }
}

/// The key of kept result `uri` of `owner` in a shared store.
#[cfg(feature = "http")]
pub(crate) fn shared_key(uri: &str, owner: Option<&str>) -> String {
    format!("result:{}", slot(uri.strip_prefix(RESULT_URI_PREFIX).unwrap_or(uri), owner))
}

/// 128 bits from the operating system's CSPRNG, as 32 hex digits: the URI of
/// a kept result is all it takes to read it, so it must not be guessable.
fn random_id() -> Option<String> {
    crate::random::hex::<16>()
        .inspect_err(|error| {
            tracing::error!("a result over budget is not kept: the system's random number generator failed: {error}");
        })
        .ok()
}

/// Counts serialised bytes, failing once there are more than `limit`.
struct Counter {
    count: usize,
    limit: usize,
}

impl io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.count += buf.len();
        if self.count > self.limit { Err(io::Error::other("over the limit")) } else { Ok(buf.len()) }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Whether `value` serialises to more than `limit` bytes; the work stops at
/// the limit, and is not done at all when a bound taken without writing
/// (most results) is within it.
fn exceeds(value: &Value, limit: usize) -> bool {
    size_bound(value) > limit && serde_json::to_writer(Counter { count: 0, limit }, value).is_err()
}

/// At least the serialised size of `value`: each character of a string
/// counted as escaped to six bytes, each number as 32.
fn size_bound(value: &Value) -> usize {
    let string = |text: &str| 2 + 6 * text.len();
    match value {
        Value::Null | Value::Bool(_) => 5,
        Value::Number(_) => 32,
        Value::String(text) => string(text),
        Value::Array(items) => items.iter().fold(2, |size, item| size.saturating_add(size_bound(item) + 1)),
        Value::Object(map) => {
            map.iter().fold(2, |size, (key, item)| size.saturating_add(string(key) + size_bound(item) + 2))
        }
    }
}

/// The serialised size of `value`.
fn serialized_len(value: &Value) -> usize {
    size_within(value, usize::MAX).unwrap_or(usize::MAX)
}

/// The serialised size of `value`, or `None` when it is over `limit`.
fn size_within(value: &Value, limit: usize) -> Option<usize> {
    let mut counter = Counter { count: 0, limit };
    serde_json::to_writer(&mut counter, value).ok().map(|()| counter.count)
}

/// The call a result comes from, as the preview describes it.
pub(crate) struct Call<'a> {
    pub(crate) tool: &'a str,
    pub(crate) version: ProtocolVersion,
    pub(crate) budget: ResultBudget,
    /// Whether the result's portable value is over the value budget (known
    /// before lowering, from `ToolResult::value`).
    pub(crate) value_over: bool,
    /// Whether the tool lists an output schema, which its results' structured
    /// content must conform to.
    pub(crate) has_output_schema: bool,
    /// Whose result it is (a caller's identity): a result kept whole is
    /// theirs alone.
    pub(crate) owner: Option<&'a str>,
}

/// `wire` (the result as an unbudgeted server sends it, holding markers of
/// `parts`) if it is within budget; else its preview (with the markers
/// replaced, and `parts` emptied), the whole kept in `store`, and the URI it
/// is kept at.
pub(crate) fn bounded(
    store: &ResultStore,
    call: &Call<'_>,
    mut wire: Value,
    parts: &mut RawParts,
) -> (Value, Option<String>) {
    let over = call.value_over
        || call.budget.wire_bytes().is_some_and(|limit| {
            if parts.is_empty() {
                exceeds(&wire, limit)
            } else {
                parts.write(&wire, &mut Counter { count: 0, limit }).is_err()
            }
        });
    if !over {
        return (wire, None);
    }
    // The preview reads the data: as values.
    parts.materialise(&mut wire);
    *parts = RawParts::default();
    let document = match serde_json::to_string(&wire) {
        Ok(document) => document,
        // A `Value` always serialises; should it not, the result goes out whole.
        Err(_) => return (wire, None),
    };
    let size = document.len();
    let uri = store.keep(document, Instant::now(), call.owner);
    let kept = Whole { uri: uri.as_deref(), size, ttl: store.ttl(), limit: store.limit() };
    (preview(call, wire, &kept), uri)
}

/// Where the whole of a previewed result is.
struct Whole<'a> {
    uri: Option<&'a str>,
    size: usize,
    ttl: Duration,
    limit: usize,
}

/// The preview of over-budget result `wire`.
fn preview(call: &Call<'_>, wire: Value, kept: &Whole<'_>) -> Value {
    let Value::Object(mut result) = wire else { return wire };
    let value_limit = call.budget.value_bytes().unwrap_or(usize::MAX);
    let wire_limit = call.budget.wire_bytes().unwrap_or(usize::MAX);
    let text_limit = value_limit.min(wire_limit);

    let content = match result.remove("content") {
        Some(Value::Array(content)) => content,
        _ => Vec::new(),
    };
    let (head, total_text, left_out) = head_text(&content, text_limit.saturating_sub(NOTE_ROOM));
    drop(content);

    let mut room = wire_limit.saturating_sub(head.len() + NOTE_ROOM + LINK_ROOM);
    let mut meta = match result.remove("_meta") {
        Some(Value::Object(meta)) => meta,
        _ => Map::new(),
    };
    let mut artifact = meta.remove(ARTIFACT_META_KEY);
    let is_table = artifact.as_ref().and_then(|artifact| artifact.get("kind")).and_then(Value::as_str) == Some("table");
    let row_limit = value_limit.min(room);
    // The cut of a table's rows, once made: the `df`, the rows kept, the rows there were.
    let mut cut_df: Option<(Value, usize, usize)> = None;
    if let Some(structured) = result.remove("structuredContent") {
        // Some hosts hand their model the structured content instead of the
        // text: without an output schema to honour, it is held to the value
        // budget like the text.
        let structured_room = if call.has_output_schema { room } else { room.min(value_limit) };
        match size_within(&structured, structured_room) {
            Some(size) => {
                room -= size;
                result.insert("structuredContent".into(), structured);
            }
            None if is_table => {
                if let Some((df, shown, total)) = first_rows(structured, row_limit) {
                    room = room.saturating_sub(serialized_len(&df));
                    result.insert("structuredContent".into(), df.clone());
                    cut_df = Some((df, shown, total));
                }
            }
            None => {}
        }
    }
    // An artifact that refers to the images of content blocks the preview
    // leaves out is left out too.
    if left_out > 0 && artifact.as_ref().is_some_and(refers_to_content) {
        artifact = None;
    }
    if is_table && let Some(mut table) = artifact.take() {
        // A table's artifact holds the rows of its structured content: the
        // same cut, when it does not fit whole.
        if size_within(&table, room).is_some() {
            artifact = Some(table);
        } else if let Some(payload) = table.get_mut("payload").and_then(Value::as_object_mut) {
            if cut_df.is_none() {
                cut_df = payload.remove("df").and_then(|df| first_rows(df, row_limit));
            }
            // Without a `df` that can be cut, no cut of it is a table artifact.
            if let Some((df, _, _)) = &cut_df {
                payload.insert("df".into(), df.clone());
                artifact = Some(table);
            }
        }
    }
    let cut_rows = cut_df.map(|(_, shown, total)| (shown, total));
    let mut kept_meta = Map::new();
    for (key, value) in artifact.map(|artifact| (ARTIFACT_META_KEY.to_owned(), artifact)).into_iter().chain(meta) {
        if let Some(size) = size_within(&value, room) {
            room -= size;
            kept_meta.insert(key, value);
        }
    }

    let mut text = head;
    text.push_str(&note(kept, text.len(), total_text, left_out, cut_rows));
    let mut blocks = vec![ContentBlock::text(text).into_wire(call.version)];
    if let Some(uri) = kept.uri
        && call.version.has_structured_content()
        && let Ok(link) = ResourceLink::new(uri, format!("{}-result", call.tool))
    {
        let link = link
            .with_title(format!("Whole result of {}", call.tool))
            .with_description("The whole tool result (a CallToolResult, as JSON): read it with resources/read.")
            .with_mime_type(RESULT_MIME_TYPE)
            .with_size(u64::try_from(kept.size).unwrap_or(u64::MAX));
        blocks.push(ContentBlock::from(link).into_wire(call.version));
    }
    result.insert("content".into(), Value::Array(blocks));
    if !kept_meta.is_empty() {
        result.insert("_meta".into(), Value::Object(kept_meta));
    }
    Value::Object(result)
}

/// The text of `content`'s text blocks joined by newlines, cut to at most
/// `limit` bytes at a character boundary; its whole length; and how many
/// blocks are not text.
fn head_text(content: &[Value], limit: usize) -> (String, usize, usize) {
    let mut head = String::new();
    let mut total = 0;
    let mut others = 0;
    for block in content {
        let text = match (block.get("type").and_then(Value::as_str), block.get("text").and_then(Value::as_str)) {
            (Some("text"), Some(text)) => text,
            _ => {
                others += 1;
                continue;
            }
        };
        let separator = usize::from(total > 0);
        total += separator + text.len();
        if head.len() + separator > limit {
            continue;
        }
        if separator == 1 {
            head.push('\n');
        }
        head.push_str(cut(text, limit - head.len()));
    }
    (head, total, others)
}

/// The longest start of `text` of at most `limit` bytes ending at a character boundary.
fn cut(text: &str, limit: usize) -> &str {
    if text.len() <= limit {
        return text;
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// A table's `df` cut to the first rows that serialise in `limit` bytes:
/// the cut `df`, the rows kept and the rows there were. `None` when
/// `structured` is not a `df`.
fn first_rows(structured: Value, limit: usize) -> Option<(Value, usize, usize)> {
    let Value::Object(mut df) = structured else { return None };
    let Some(Value::Array(rows)) = df.remove("rows") else { return None };
    let columns = df.remove("columns").filter(Value::is_array)?;
    let total = rows.len();
    let mut room = limit.saturating_sub(size_within(&columns, limit).unwrap_or(limit) + 32);
    let mut kept = Vec::new();
    for row in rows {
        match size_within(&row, room) {
            Some(size) if size < room => {
                room -= size + 1;
                kept.push(row);
            }
            _ => break,
        }
    }
    let shown = kept.len();
    Some((json!({ "columns": columns, "rows": kept }), shown, total))
}

/// Whether an artifact refers to content blocks by index (an image artifact
/// whose bytes ride in image blocks).
fn refers_to_content(artifact: &Value) -> bool {
    let images = artifact.get("payload").and_then(|payload| payload.get("images")).and_then(Value::as_array);
    images.is_some_and(|images| images.iter().any(|image| image.get("content").is_some()))
}

/// The note closing a preview.
fn note(
    kept: &Whole<'_>,
    shown: usize,
    total_text: usize,
    left_out: usize,
    cut_rows: Option<(usize, usize)>,
) -> String {
    let mut parts = Vec::new();
    if shown < total_text {
        parts.push(format!("showing the first {shown} of {total_text} bytes of text"));
    }
    if let Some((shown, total)) = cut_rows {
        parts.push(format!("structured content cut to the first {shown} of {total} rows"));
    }
    if left_out > 0 {
        let noun = if left_out == 1 { "block" } else { "blocks" };
        parts.push(format!("{left_out} non-text content {noun} left out"));
    }
    let what = if parts.is_empty() { String::new() } else { format!(": {}", parts.join("; ")) };
    let whole = match kept.uri {
        Some(uri) => format!(
            "The whole result ({} bytes, {RESULT_MIME_TYPE}) is kept for {} at {uri}: read it with resources/read.",
            kept.size,
            duration_text(kept.ttl),
        ),
        None => format!(
            "The whole result ({} bytes) is larger than this server keeps ({} bytes), so only this preview is available.",
            kept.size, kept.limit,
        ),
    };
    let separator = if shown > 0 { "\n\n" } else { "" };
    format!("{separator}[Result cut to fit the budget{what}. {whole}]")
}

/// `ttl` in words: `10 minutes`, `90 seconds`, `250 ms`.
pub(crate) fn duration_text(ttl: Duration) -> String {
    let seconds = ttl.as_secs();
    if ttl.subsec_nanos() == 0 && seconds >= 60 && seconds.is_multiple_of(60) {
        let minutes = seconds / 60;
        return format!("{minutes} minute{}", if minutes == 1 { "" } else { "s" });
    }
    if ttl.subsec_nanos() == 0 && seconds > 0 {
        return format!("{seconds} second{}", if seconds == 1 { "" } else { "s" });
    }
    format!("{} ms", ttl.as_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(ttl_secs: u64, limit: usize) -> ResultStore {
        ResultStore::new(Duration::from_secs(ttl_secs), limit)
    }

    #[test]
    fn a_kept_result_is_read_until_it_expires() {
        let store = store(10, 1 << 20);
        let now = Instant::now();
        let uri = store.keep("{\"content\":[]}".to_owned(), now, None).expect("kept");
        assert!(uri.starts_with(RESULT_URI_PREFIX) && uri.len() == RESULT_URI_PREFIX.len() + 32, "{uri}");
        let found = store.get(&uri, now + Duration::from_secs(9), None).expect("still kept");
        assert_eq!(found.document.as_str(), "{\"content\":[]}");
        assert_eq!(found.remaining, Duration::from_secs(1));
        assert!(store.get(&uri, now + Duration::from_secs(10), None).is_none(), "expired");
        assert_eq!(store.lock().bytes, 0, "an expired result frees its room");
        assert!(store.get("codeagent://results/nope", now, None).is_none());
    }

    #[test]
    fn the_oldest_results_give_way_and_the_store_stays_bounded() {
        let limit = 3 * (100 + ENTRY_OVERHEAD);
        let store = store(10, limit);
        let now = Instant::now();
        let uris: Vec<String> = (0..5).map(|_| store.keep("x".repeat(100), now, None).expect("kept")).collect();
        assert!(store.get(&uris[0], now, None).is_none() && store.get(&uris[1], now, None).is_none());
        assert!(uris[2..].iter().all(|uri| store.get(uri, now, None).is_some()));
        assert!(store.lock().bytes <= limit);
        assert!(store.keep("x".repeat(limit), now, None).is_none(), "larger than the store: not kept");
        assert!(store.get(&uris[4], now, None).is_some(), "a refused result evicts nothing");
        assert!(ResultStore::new(Duration::ZERO, limit).keep("x".to_owned(), now, None).is_none());
    }

    #[test]
    fn a_result_kept_for_a_caller_is_theirs_alone() {
        let store = store(10, 1 << 20);
        let now = Instant::now();
        let uri = store.keep("{}".to_owned(), now, Some("alice")).expect("kept");
        assert!(store.get(&uri, now, Some("alice")).is_some());
        assert!(store.get(&uri, now, Some("mallory")).is_none(), "another caller finds nothing");
        assert!(store.get(&uri, now, None).is_none(), "nor does a request without a caller");
        #[cfg(feature = "http")]
        assert_ne!(super::shared_key(&uri, Some("alice")), super::shared_key(&uri, Some("mallory")));
    }

    #[test]
    fn text_is_cut_at_a_character_boundary() {
        assert_eq!(cut("héllo", 2), "h");
        assert_eq!(cut("héllo", 3), "hé");
        assert_eq!(cut("hi", 10), "hi");
        let content =
            [json!({"type": "text", "text": "ab"}), json!({"type": "image"}), json!({"type": "text", "text": "cd"})];
        assert_eq!(head_text(&content, 4), ("ab\nc".to_owned(), 5, 1));
    }

    #[test]
    fn a_table_keeps_its_first_rows() {
        let rows: Vec<Value> = (0..1000).map(|row| json!([row, "name"])).collect();
        let df = json!({"columns": [{"name": "n", "type": "integer"}], "rows": rows});
        let (cut, shown, total) = first_rows(df, 1000).expect("a df");
        assert_eq!(total, 1000);
        assert!(shown > 10 && shown < 1000, "{shown}");
        assert!(cut.to_string().len() <= 1000, "{}", cut.to_string().len());
        assert_eq!(cut["rows"][0], json!([0, "name"]));
    }

    #[test]
    fn durations_read_as_words() {
        assert_eq!(duration_text(Duration::from_secs(600)), "10 minutes");
        assert_eq!(duration_text(Duration::from_secs(60)), "1 minute");
        assert_eq!(duration_text(Duration::from_secs(90)), "90 seconds");
        assert_eq!(duration_text(Duration::from_millis(250)), "250 ms");
    }
}
