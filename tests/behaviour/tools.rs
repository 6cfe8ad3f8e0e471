//! tools/list and tools/call: shapes per version, results, tool errors,
//! invalid arguments, unknown tools and panics.

use serde_json::json;

use super::{call, modern, sync, text, tool_names};
use crate::common::client::{Client, Transport, assert_names_the_server};
use crate::common::{INVALID_PARAMS, LEGACY, V2024, V2025_06, V2025_11};

over_both!(
    tools_list_has_the_shape_of_each_version,
    an_invalid_cursor_is_invalid_params,
    a_text_result_and_a_structured_result,
    invalid_arguments_are_tool_errors_naming_the_field,
    an_unknown_tool_is_invalid_params,
    a_panicking_tool_is_an_error_result_and_the_server_lives_on,
    modern_tools_list_and_call,
);

/// Every key of every listing is checked against its version by the client;
/// here, what each version must show or leave out.
async fn tools_list_has_the_shape_of_each_version(transport: Transport) {
    for version in LEGACY {
        let mut client = Client::new(transport).await;
        client.initialize(version).await;
        let list = client.result(1, "tools/list", json!({})).await;
        let names = tool_names(&list);
        assert_eq!(names[..3], ["add", "greet", "sum"], "{transport} {version}: in the order registered");
        for name in ["add", "greet", "sum", "wait", "steps", "forecast"] {
            assert!(names.contains(&name), "{transport} {version}: {name} missing from {names:?}");
        }
        assert!(list.get("nextCursor").is_none(), "{transport}: everything fits one page: {list}");
        let tools = list["tools"].as_array().unwrap();
        let greet = tools.iter().find(|tool| tool["name"] == "greet").unwrap();
        let sum = tools.iter().find(|tool| tool["name"] == "sum").unwrap();
        if version == V2024 {
            for tool in tools {
                for key in ["title", "annotations", "outputSchema", "icons", "execution"] {
                    assert!(tool.get(key).is_none(), "{transport} {version}: `{key}` in {tool}");
                }
            }
        } else {
            assert_eq!(greet["annotations"]["readOnlyHint"], true, "{transport} {version}: {greet}");
        }
        if version >= V2025_06 {
            assert_eq!(greet["title"], "Greeting", "{transport} {version}: {greet}");
            assert!(sum["outputSchema"].is_object(), "{transport} {version}: {sum}");
        } else {
            assert!(greet.get("title").is_none(), "{transport} {version}: {greet}");
            assert!(sum.get("outputSchema").is_none(), "{transport} {version}: {sum}");
        }
        // A structured tool's result follows the version too.
        let result = client.result(2, "tools/call", call("sum", json!({"values": [1, 2, 3]}))).await;
        if version >= V2025_06 {
            assert_eq!(result["structuredContent"], json!({"total": 6}), "{transport} {version}: {result}");
        } else {
            assert!(result.get("structuredContent").is_none(), "{transport} {version}: {result}");
        }
    }
}

async fn an_invalid_cursor_is_invalid_params(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    for (id, cursor, needle) in
        [(1, json!("not-a-cursor"), "not-a-cursor"), (2, json!("999"), "cursor"), (3, json!(12), "cursor")]
    {
        let error = client.error(id, "tools/list", json!({"cursor": cursor})).await;
        assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
        assert!(error["message"].as_str().unwrap().contains(needle), "{transport}: {needle} in {error}");
    }
    let error = client.error(4, "tools/list", modern(json!({"cursor": "bogus"}))).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains("bogus"), "{transport}: the cursor is named: {error}");
}

async fn a_text_result_and_a_structured_result(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_06).await;
    let result = client.result(1, "tools/call", call("add", json!({"a": 2, "b": 3}))).await;
    assert_eq!(text(&result), "5", "{transport}");
    assert_ne!(result["isError"], true, "{transport}: {result}");
    let result = client.result(2, "tools/call", call("greet", json!({"name": "Ada"}))).await;
    assert_eq!(text(&result), "Hello, Ada!", "{transport}");
    let result = client.result(3, "tools/call", call("sum", json!({"values": [1, 2, 3]}))).await;
    assert_eq!(result["structuredContent"], json!({"total": 6}), "{transport}: {result}");
}

async fn invalid_arguments_are_tool_errors_naming_the_field(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    for (id, tool, arguments, field) in [
        (1, "add", json!({"a": 1, "b": "x"}), "`b`"),
        (2, "add", json!({"a": "two", "b": 3}), "`a`"),
        (3, "add", json!({"a": 1}), "`b`"),
        (4, "sum", json!({"values": [1, "x"]}), "values"),
    ] {
        let result = client.result(id, "tools/call", call(tool, arguments)).await;
        assert_eq!(result["isError"], true, "{transport}: {result}");
        assert!(text(&result).contains(field), "{transport}: names the field {field}: {result}");
    }
    let result = client.result(5, "tools/call", modern(call("add", json!({"a": 1, "b": []})))).await;
    assert_eq!(result["isError"], true, "{transport}: 2026-07-28: {result}");
    assert!(text(&result).contains("`b`"), "{transport}: 2026-07-28 names the field: {result}");
}

async fn an_unknown_tool_is_invalid_params(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    let error = client.error(1, "tools/call", call("no_such_tool", json!({}))).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    assert_eq!(error["message"], "Unknown tool: no_such_tool", "{transport}: {error}");
    let error = client.error(2, "tools/call", modern(call("no_such_tool", json!({})))).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: 2026-07-28: {error}");
    assert_eq!(error["message"], "Unknown tool: no_such_tool", "{transport}: 2026-07-28: {error}");
}

async fn a_panicking_tool_is_an_error_result_and_the_server_lives_on(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    for (id, tool, message) in [(1, "boom_sync", "sync kaboom"), (2, "boom_async", "async kaboom")] {
        let result = client.result(id, "tools/call", call(tool, json!({}))).await;
        assert_eq!(result["isError"], true, "{transport}: {result}");
        assert!(text(&result).contains("panicked"), "{transport}: it says the tool panicked: {result}");
        assert!(text(&result).contains(message), "{transport}: the panic message is reported: {result}");
        let result = client.result(id + 10, "tools/call", modern(call(tool, json!({})))).await;
        assert_eq!(result["isError"], true, "{transport}: 2026-07-28: {result}");
        assert!(text(&result).contains(message), "{transport}: 2026-07-28: {result}");
    }
    sync(&mut client).await;
    let result = client.result(3, "tools/call", call("add", json!({"a": 1, "b": 1}))).await;
    assert_eq!(text(&result), "2", "{transport}");
}

async fn modern_tools_list_and_call(transport: Transport) {
    let mut client = Client::new(transport).await;
    let list = client.result(1, "tools/list", modern(json!({}))).await;
    assert_names_the_server(&list);
    assert_eq!(list["resultType"], "complete", "{transport}: {list}");
    assert!(list["ttlMs"].is_u64() && list["cacheScope"].is_string(), "{transport}: cacheable: {list}");
    assert!(tool_names(&list).contains(&"add"), "{transport}: {list}");
    let result = client.result(2, "tools/call", modern(call("add", json!({"a": 40, "b": 2})))).await;
    assert_names_the_server(&result);
    assert_eq!(result["resultType"], "complete", "{transport}: {result}");
    assert_eq!(text(&result), "42", "{transport}");
    let result = client.result(3, "tools/call", modern(call("sum", json!({"values": [2, 2]})))).await;
    assert_eq!(result["structuredContent"], json!({"total": 4}), "{transport}: {result}");
    let error = client.error(4, "tools/call", modern(call("no_such_tool", json!({})))).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    // Legacy requests of the same client get legacy shapes.
    client.initialize(V2025_11).await;
    let result = client.result(5, "tools/call", call("add", json!({"a": 1, "b": 1}))).await;
    assert_eq!(text(&result), "2", "{transport}");
    assert!(result.get("resultType").is_none() && result.get("_meta").is_none(), "{transport}: {result}");
}
