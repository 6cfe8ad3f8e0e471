//! Result budgets: a result over budget is sent as a bounded preview plus a
//! link to the whole result (a `resource_link` from 2025-06-18, the URI in
//! the text before), which `resources/read` returns while the server keeps
//! it; per-tool budgets, no budget, expiry and eviction.

use std::time::Duration;

use codeagent::server::{RESULT_MIME_TYPE, RESULT_URI_PREFIX, SERVER_INFO_KEY};
use codeagent::tools::ResultBudget;
use codeagent::{Image, Json, Server, Table, Toolbox};
use serde_json::{Value, json};

use super::{call, modern};
use crate::common::client::{Client, Transport};
use crate::common::{INVALID_PARAMS, LEGACY, V2024, V2025_03, V2025_06, V2025_11};

over_both!(
    a_large_text_is_a_bounded_preview_and_a_link_to_all_of_it,
    a_modern_client_reads_the_whole_result_too,
    legacy_versions_without_links_name_the_uri_in_the_text,
    a_large_table_reaches_the_model_as_its_value_and_hosts_as_its_artifact,
    a_large_structured_table_keeps_its_first_rows_in_its_schema,
    structured_content_that_fits_is_kept_and_what_does_not_is_left_out,
    structured_content_without_an_output_schema_is_held_to_the_value_budget,
    a_large_image_is_left_out_of_the_preview,
    a_tool_budget_replaces_the_servers,
    an_unlimited_server_sends_everything_whole_and_offers_no_resources,
    a_kept_result_gives_way_to_newer_ones,
    a_result_larger_than_the_store_is_previewed_without_a_link,
);

const RESOURCE_NOT_FOUND: i64 = -32002;

/// One line of [`log`], as long as every other.
const LINE: &str = "line 0000000: ünïcödé\n";

/// `lines` lines of text with multi-byte characters ([`LINE`] bytes each).
#[codeagent::tool]
fn log(
    /// How many lines to write.
    lines: usize,
) -> String {
    (0..lines).map(|line| format!("line {line:07}: ünïcödé\n")).collect()
}

/// A table of `rows` rows.
#[codeagent::tool]
fn rows(
    /// How many rows the table has.
    rows: usize,
) -> Table {
    table_of(rows)
}

fn table_of(count: usize) -> Table {
    let table = Table::new().with_column("n", 0..count).unwrap();
    table.with_column("label", (0..count).map(|row| format!("row number {row}"))).unwrap().with_title("Rows")
}

/// [`rows`], sent as `structuredContent` too.
#[codeagent::tool]
fn structured_rows(
    /// How many rows the table has.
    #[serde(rename = "rows")]
    count: usize,
) -> Table {
    table_of(count).with_structured_content()
}

/// `count` strings of structured output.
#[codeagent::tool]
fn names(
    /// How many names to return.
    count: usize,
) -> Json<Vec<String>> {
    Json((0..count).map(|n| format!("name-{n:06}")).collect())
}

/// `count` strings as a plain JSON value: its text is a JSON array.
#[codeagent::tool]
fn name_list(
    /// How many names to return.
    count: usize,
) -> Value {
    Value::from((0..count).map(|n| format!("name-{n:06}")).collect::<Vec<_>>())
}

/// A 2 MB picture (a PNG signature, then zeros).
#[codeagent::tool]
fn picture() -> Result<Image, codeagent::ToolError> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.resize(2_000_000, 0);
    Ok(Image::from_bytes(bytes, "image/png")?.with_output("A picture of nothing."))
}

/// A log with a budget of its own: 1 KiB of text.
#[codeagent::tool(result_budget(value = 1024))]
fn short_log(
    /// How many lines to write.
    lines: usize,
) -> String {
    log(lines)
}

/// A log that is always sent whole.
#[codeagent::tool(result_budget(unlimited))]
fn whole_log(
    /// How many lines to write.
    lines: usize,
) -> String {
    log(lines)
}

fn toolbox() -> Toolbox {
    Toolbox::new()
        .tool(log)
        .tool(rows)
        .tool(structured_rows)
        .tool(names)
        .tool(name_list)
        .tool(picture)
        .tool(short_log)
        .tool(whole_log)
}

fn server() -> Server {
    Server::new(toolbox()).with_name("budget-test").with_version("1.0.0")
}

/// 3 MB of text: far over the default budgets.
const BIG: usize = 125_000;

/// The result an unbudgeted server sends at `version` for `name(arguments)`.
async fn unbudgeted(transport: Transport, version: codeagent::ProtocolVersion, params: Value) -> Value {
    let mut client = Client::start(transport, server().with_result_budget(ResultBudget::unlimited())).await;
    client.initialize(version).await;
    client.result("whole", "tools/call", params).await
}

/// The link of a preview: its `resource_link` block, checked.
#[track_caller]
fn link(result: &Value, tool: &str) -> String {
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 2, "a text block and a link: {result}");
    let link = &content[1];
    assert_eq!(link["type"], "resource_link", "{link}");
    let uri = link["uri"].as_str().expect("a uri");
    assert!(uri.starts_with(RESULT_URI_PREFIX) && uri.len() == RESULT_URI_PREFIX.len() + 32, "{uri}");
    assert_eq!(link["name"], format!("{tool}-result"), "{link}");
    assert_eq!(link["title"], format!("Whole result of {tool}"), "{link}");
    assert_eq!(link["mimeType"], RESULT_MIME_TYPE, "{link}");
    assert!(link["size"].as_u64().is_some_and(|size| size > 0), "{link}");
    let text = content[0]["text"].as_str().expect("a text block");
    assert!(text.contains(uri), "the note names the link's URI: {text}");
    uri.to_owned()
}

/// The whole result kept at `uri`, read back and parsed.
async fn read_whole(client: &mut Client, id: &str, uri: &str) -> Value {
    let read = client.result(id, "resources/read", json!({"uri": uri})).await;
    let contents = read["contents"].as_array().expect("contents");
    assert_eq!(contents.len(), 1, "{read}");
    assert_eq!(contents[0]["uri"], uri);
    assert_eq!(contents[0]["mimeType"], RESULT_MIME_TYPE);
    serde_json::from_str(contents[0]["text"].as_str().expect("text contents")).expect("the result as JSON")
}

async fn a_large_text_is_a_bounded_preview_and_a_link_to_all_of_it(transport: Transport) {
    for version in [V2025_06, V2025_11] {
        let mut client = Client::start(transport, server()).await;
        let init = client.initialize(version).await;
        assert_eq!(init["capabilities"]["resources"], json!({}), "{transport} {version}: kept results are resources");
        let result = client.result(1, "tools/call", call("log", json!({"lines": BIG}))).await;
        assert!(result.get("isError").is_none(), "{transport} {version}: {result}");
        let uri = link(&result, "log");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.len() <= ResultBudget::DEFAULT_VALUE_BYTES, "{transport} {version}: {} bytes", text.len());
        assert!(text.starts_with("line 0000000: ünïcödé\nline 0000001"), "{transport} {version}");
        let whole_text = BIG * LINE.len();
        assert!(
            text.contains(&format!("of {whole_text} bytes of text")),
            "{transport} {version}: the note says how large the whole is: {}",
            &text[text.len() - 400..]
        );
        let wire = result.to_string().len();
        assert!(wire < 40 * 1024, "{transport} {version}: {wire} bytes on the wire");

        let whole = read_whole(&mut client, "read", &uri).await;
        let size = result["content"][1]["size"].as_u64().unwrap();
        assert_eq!(size, whole.to_string().len() as u64, "{transport} {version}: the link's size is the document's");
        let expected = unbudgeted(transport, version, call("log", json!({"lines": BIG}))).await;
        assert_eq!(whole, expected, "{transport} {version}: the kept result is what an unbudgeted server sends");
        assert_eq!(whole["content"][0]["text"].as_str().unwrap().len(), whole_text);
        // Not listed: a kept result is reached by its link only.
        let list = client.result("list", "resources/list", json!({})).await;
        assert_eq!(list["resources"], json!([]), "{transport} {version}");
    }
}

async fn a_modern_client_reads_the_whole_result_too(transport: Transport) {
    let mut client = Client::start(transport, server()).await;
    let result = client.result(1, "tools/call", modern(call("log", json!({"lines": BIG})))).await;
    assert_eq!(result["resultType"], "complete");
    let uri = link(&result, "log");
    let read = client.result(2, "resources/read", modern(json!({"uri": uri}))).await;
    let ttl = read["ttlMs"].as_u64().expect("ttlMs");
    assert!(ttl > 0 && ttl <= 600_000, "{transport}: cached at most while kept: {ttl}");
    assert_eq!(read["cacheScope"], "private", "{transport}");
    let whole: Value = serde_json::from_str(read["contents"][0]["text"].as_str().unwrap()).unwrap();
    let mut unbudgeted = Client::start(transport, server().with_result_budget(ResultBudget::unlimited())).await;
    let mut expected = unbudgeted.result(3, "tools/call", modern(call("log", json!({"lines": BIG})))).await;
    let meta = expected["_meta"].as_object_mut().expect("_meta");
    assert!(meta.remove(SERVER_INFO_KEY).is_some());
    if meta.is_empty() {
        expected.as_object_mut().unwrap().remove("_meta");
    }
    assert_eq!(whole, expected, "{transport}: the whole result, without the per-message server identity");
}

async fn legacy_versions_without_links_name_the_uri_in_the_text(transport: Transport) {
    for version in [V2024, V2025_03] {
        let mut client = Client::start(transport, server()).await;
        let init = client.initialize(version).await;
        assert!(init["capabilities"]["resources"].is_object(), "{transport} {version}");
        let result = client.result(1, "tools/call", call("log", json!({"lines": BIG}))).await;
        let content = result["content"].as_array().unwrap();
        assert_eq!(content.len(), 1, "{transport} {version}: one text block, no resource_link: {result}");
        let text = content[0]["text"].as_str().unwrap();
        assert!(text.len() <= ResultBudget::DEFAULT_VALUE_BYTES, "{transport} {version}");
        let start = text.find(RESULT_URI_PREFIX).expect("the note names the URI");
        let uri = &text[start..start + RESULT_URI_PREFIX.len() + 32];
        assert!(text.contains("read it with resources/read"), "{transport} {version}: {text}");
        let whole = read_whole(&mut client, "read", uri).await;
        let expected = unbudgeted(transport, version, call("log", json!({"lines": BIG}))).await;
        assert_eq!(whole, expected, "{transport} {version}");
    }
}

async fn a_large_table_reaches_the_model_as_its_value_and_hosts_as_its_artifact(transport: Transport) {
    let total = 60_000;
    for version in LEGACY {
        let mut client = Client::start(transport, server()).await;
        client.initialize(version).await;
        let result = client.result(1, "tools/call", call("rows", json!({"rows": total}))).await;
        // Hosts that hand their model `structuredContent` instead of the text
        // (Claude Code, Codex) find none: the model reads the value.
        assert!(result.get("structuredContent").is_none(), "{transport} {version}: {result:.300}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("| n | label |"), "{transport} {version}: {text}");
        assert!(text.contains(&format!("Showing 20 of {total} rows.")), "{transport} {version}: the value, whole");
        let artifact = &result["_meta"]["dev.codeagent/artifact"];
        let shown = artifact["payload"]["df"]["rows"].as_array().map_or(0, Vec::len);
        assert!(
            shown > 20 && shown < total,
            "{transport} {version}: the artifact keeps the first rows that fit: {shown}"
        );
        assert!(result.to_string().len() <= ResultBudget::DEFAULT_WIRE_BYTES, "{transport} {version}");
    }
}

async fn a_large_structured_table_keeps_its_first_rows_in_its_schema(transport: Transport) {
    let total = 60_000;
    for version in LEGACY {
        let mut client = Client::start(transport, server()).await;
        client.initialize(version).await;
        let result = client.result(1, "tools/call", call("structured_rows", json!({"rows": total}))).await;
        let wire = result.to_string().len();
        assert!(wire <= ResultBudget::DEFAULT_WIRE_BYTES, "{transport} {version}: {wire}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with("| n | label |"), "{transport} {version}: the Markdown value, whole: {text}");
        assert!(text.contains(&format!("Showing 20 of {total} rows.")), "{transport} {version}");
        let artifact = &result["_meta"]["dev.codeagent/artifact"];
        assert_eq!(artifact["kind"], "table", "{transport} {version}: a preview artifact: {artifact}");
        assert_eq!(artifact["title"], "Rows");
        // From 2025-06-18 the artifact names the structured content rather than repeating it.
        let df = if version >= V2025_06 {
            assert_eq!(artifact["payload"], json!({"structuredContent": "df"}), "{transport} {version}");
            &result["structuredContent"]
        } else {
            &artifact["payload"]["df"]
        };
        let shown = df["rows"].as_array().unwrap().len();
        assert!(shown > 100 && shown < total, "{transport} {version}: {shown} rows");
        assert!(text.contains(&format!("structured content cut to the first {shown} of {total} rows")), "{text}");
        if version >= V2025_06 {
            // The preview is still a table: its columns and its first rows.
            assert_eq!(df["rows"][0], json!([0, "row number 0"]));
            assert_eq!(df["columns"], json!([{"name": "n", "type": "integer"}, {"name": "label", "type": "string"}]));
            let uri = link(&result, "structured_rows");
            let whole = read_whole(&mut client, "read", &uri).await;
            assert_eq!(whole["structuredContent"]["rows"].as_array().unwrap().len(), total);
            let expected = unbudgeted(transport, version, call("structured_rows", json!({"rows": total}))).await;
            assert_eq!(whole, expected, "{transport} {version}");
        } else {
            assert!(result.get("structuredContent").is_none());
            assert!(text.contains(RESULT_URI_PREFIX), "{transport} {version}");
        }
    }
}

async fn structured_content_without_an_output_schema_is_held_to_the_value_budget(transport: Transport) {
    let mut client = Client::start(transport, server()).await;
    client.initialize(V2025_11).await;
    // Within budget, the JSON array of the text is structured content too (as `{"result": ...}`).
    let small = client.result(1, "tools/call", call("name_list", json!({"count": 3}))).await;
    assert_eq!(small["structuredContent"], json!({"result": ["name-000000", "name-000001", "name-000002"]}));
    // About 70 KB: over the value budget. Hosts that hand their model the
    // structured content would get all of it, so it is left out: the model
    // reads the preview and the link.
    let large = client.result(2, "tools/call", call("name_list", json!({"count": 5_000}))).await;
    assert!(large.get("structuredContent").is_none(), "{transport}: {large:.300}");
    assert!(large["content"][0]["text"].as_str().unwrap().len() <= ResultBudget::DEFAULT_VALUE_BYTES);
    link(&large, "name_list");
}

async fn structured_content_that_fits_is_kept_and_what_does_not_is_left_out(transport: Transport) {
    let mut client = Client::start(transport, server()).await;
    client.initialize(V2025_11).await;
    // About 60 KB: over the value budget, within the wire budget.
    let result = client.result(1, "tools/call", call("names", json!({"count": 5_000}))).await;
    link(&result, "names");
    assert!(result["content"][0]["text"].as_str().unwrap().len() <= ResultBudget::DEFAULT_VALUE_BYTES);
    assert_eq!(result["structuredContent"]["result"].as_array().map(Vec::len), Some(5_000), "kept whole");
    // About 1.2 MB: no cut of it conforms to the schema, so it is left out.
    let result = client.result(2, "tools/call", call("names", json!({"count": 100_000}))).await;
    let uri = link(&result, "names");
    assert!(result.get("structuredContent").is_none(), "{transport}: {}", result.to_string().len());
    let whole = read_whole(&mut client, "read", &uri).await;
    assert_eq!(whole["structuredContent"]["result"].as_array().map(Vec::len), Some(100_000));
}

async fn a_large_image_is_left_out_of_the_preview(transport: Transport) {
    let mut client = Client::start(transport, server()).await;
    client.initialize(V2025_11).await;
    let result = client.result(1, "tools/call", call("picture", json!({}))).await;
    let uri = link(&result, "picture");
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("1 image: image/png"), "{transport}: the whole text: {text}");
    assert!(text.contains("A picture of nothing.\n\n[Result cut"), "{transport}: the whole text: {text}");
    assert!(text.contains("1 non-text content block left out"), "{transport}: {text}");
    assert!(result.get("_meta").is_none(), "{transport}: its artifact refers to the image left out: {result}");
    let whole = read_whole(&mut client, "read", &uri).await;
    assert_eq!(whole["content"][0]["type"], "image", "{transport}");
    let expected = unbudgeted(transport, V2025_11, call("picture", json!({}))).await;
    assert_eq!(whole, expected, "{transport}");
}

async fn a_tool_budget_replaces_the_servers(transport: Transport) {
    let mut client = Client::start(transport, server()).await;
    client.initialize(V2025_11).await;
    // 100 lines: 2.4 KB, within the server's budget, over the tool's 1 KiB.
    let result = client.result(1, "tools/call", call("short_log", json!({"lines": 100}))).await;
    link(&result, "short_log");
    assert!(result["content"][0]["text"].as_str().unwrap().len() <= 1024, "{transport}: {result}");
    let result = client.result(2, "tools/call", call("log", json!({"lines": 100}))).await;
    assert_eq!(result["content"].as_array().unwrap().len(), 1, "{transport}: within the server's budget");
    assert_eq!(result["content"][0]["text"], log(100));
    // 3 MB, sent whole: the tool has no budget.
    let result = client.result(3, "tools/call", call("whole_log", json!({"lines": BIG}))).await;
    assert_eq!(result["content"].as_array().unwrap().len(), 1, "{transport}");
    assert_eq!(result["content"][0]["text"].as_str().unwrap().len(), BIG * LINE.len());
}

async fn an_unlimited_server_sends_everything_whole_and_offers_no_resources(transport: Transport) {
    let unbudgeted =
        Server::new(Toolbox::new().tool(log).tool(whole_log)).with_result_budget(ResultBudget::unlimited());
    let mut client = Client::start(transport, unbudgeted).await;
    let init = client.initialize(V2025_11).await;
    assert!(init["capabilities"].get("resources").is_none(), "{transport}: no result can be kept: {init}");
    for capability in ["prompts", "completions"] {
        assert!(init["capabilities"].get(capability).is_none(), "{transport}: no {capability}: {init}");
    }
    let list = client.result(1, "resources/list", json!({})).await;
    assert_eq!(list["resources"], json!([]), "{transport}: listing nothing is not an error");
    let mut client = Client::start(transport, server().with_result_ttl(Duration::ZERO)).await;
    let init = client.initialize(V2025_11).await;
    assert!(init["capabilities"].get("resources").is_none(), "{transport}: none is kept: {init}");
    let result = client.result(1, "tools/call", call("log", json!({"lines": BIG}))).await;
    assert_eq!(result["content"].as_array().unwrap().len(), 1, "{transport}: a preview without a link: {result}");
    let mut client =
        Client::start(transport, Server::new(toolbox()).with_result_budget(ResultBudget::unlimited())).await;
    let init = client.initialize(V2025_11).await;
    assert_eq!(init["capabilities"]["resources"], json!({}), "{transport}: a tool with a budget keeps results");
    let result = client.result(1, "tools/call", call("log", json!({"lines": BIG}))).await;
    assert_eq!(result["content"].as_array().unwrap().len(), 1, "{transport}");
    assert_eq!(result["content"][0]["text"].as_str().unwrap().len(), BIG * LINE.len(), "{transport}");
}

async fn a_kept_result_gives_way_to_newer_ones(transport: Transport) {
    // Room for one 3 MB result.
    let server = server().with_result_store_limit(4 * 1024 * 1024);
    let mut client = Client::start(transport, server).await;
    client.initialize(V2025_11).await;
    let first = client.result(1, "tools/call", call("log", json!({"lines": BIG}))).await;
    let first = link(&first, "log");
    read_whole(&mut client, "read-1", &first).await;
    let second = client.result(2, "tools/call", call("log", json!({"lines": BIG}))).await;
    let second = link(&second, "log");
    assert_ne!(first, second);
    read_whole(&mut client, "read-2", &second).await;
    let error = client.error("read-first", "resources/read", json!({"uri": first})).await;
    assert_eq!(error["code"], RESOURCE_NOT_FOUND, "{transport}: {error}");
    assert_eq!(error["data"]["uri"], first, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains("kept for 10 minutes after its call"), "{transport}: {error}");
    let error = client.error("modern", "resources/read", modern(json!({"uri": first}))).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: 2026-07-28 (SEP-2164): {error}");
    let unknown = format!("{RESULT_URI_PREFIX}0123");
    let error = client.error("unknown", "resources/read", json!({"uri": unknown})).await;
    assert_eq!(error["code"], RESOURCE_NOT_FOUND, "{transport}: {error}");
}

/// [`a_kept_result_expires`] over both transports as [`over_both!`] runs a
/// case, but on a current-thread runtime: the test moves its clock past the
/// TTL instead of waiting for it, which only such a runtime allows.
mod a_kept_result_expires {
    use crate::common::client::Transport;

    #[tokio::test]
    async fn stdio() {
        crate::common::bounded(super::a_kept_result_expires(Transport::Stdio)).await;
    }

    #[tokio::test]
    async fn http() {
        crate::common::bounded(super::a_kept_result_expires(Transport::Http)).await;
    }
}

async fn a_kept_result_expires(transport: Transport) {
    let ttl = Duration::from_secs(10);
    let mut client = Client::start(transport, server().with_result_ttl(ttl)).await;
    client.initialize(V2025_11).await;
    let result = client.result(1, "tools/call", call("log", json!({"lines": 2_000}))).await;
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("is kept for 10 seconds at"), "{transport}: {text}");
    let uri = link(&result, "log");
    read_whole(&mut client, "read", &uri).await;
    // The TTL passes on the runtime's clock (the server's too), paused only
    // for that: the requests before and after run in real time.
    tokio::time::pause();
    tokio::time::advance(ttl).await;
    tokio::time::resume();
    let error = client.error("expired", "resources/read", json!({"uri": uri})).await;
    assert_eq!(error["code"], RESOURCE_NOT_FOUND, "{transport}: {error}");
    assert_eq!(error["data"]["uri"], uri, "{transport}: {error}");
}

async fn a_result_larger_than_the_store_is_previewed_without_a_link(transport: Transport) {
    for version in [V2024, V2025_11] {
        let mut client = Client::start(transport, server().with_result_store_limit(1024 * 1024)).await;
        client.initialize(version).await;
        let result = client.result(version.as_str(), "tools/call", call("log", json!({"lines": BIG}))).await;
        let content = result["content"].as_array().unwrap();
        assert_eq!(content.len(), 1, "{transport} {version}: no link to what is not kept: {result}");
        let text = content[0]["text"].as_str().unwrap();
        assert!(text.len() <= ResultBudget::DEFAULT_VALUE_BYTES);
        assert!(text.contains("is larger than this server keeps (1048576 bytes)"), "{transport} {version}");
        assert!(!text.contains(RESULT_URI_PREFIX), "{transport} {version}");
    }
}
