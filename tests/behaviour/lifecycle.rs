//! Initialize and version negotiation, ping, discovery, and the errors of the
//! 2026-07-28 era.

use std::time::Duration;

use codeagent::server::{CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY, SERVER_INFO_KEY};
use codeagent::{ProtocolVersion, Server};
use serde_json::{Value, json};

use super::{call, modern, sync};
use crate::common::client::{Client, SERVER_NAME, Transport, assert_names_the_server};
use crate::common::tools::toolbox;
use crate::common::{INVALID_PARAMS, LEGACY, METHOD_NOT_FOUND, UNSUPPORTED_VERSION, V2025_06};

over_both!(
    initialize_echoes_each_legacy_version,
    initialize_with_an_unknown_or_modern_version_gets_2025_11_25,
    ping_answers_an_empty_result,
    server_discover_describes_the_server,
    an_unsupported_modern_version_is_32022_with_supported_and_requested,
    a_modern_request_missing_meta_is_invalid_params,
    methods_removed_in_2026_are_method_not_found,
);

/// The identity of a server not given one: the crate that defined its tools.
fn default_identity() -> Value {
    json!({"name": "codeagent", "version": env!("CARGO_PKG_VERSION")})
}

async fn initialize_echoes_each_legacy_version(transport: Transport) {
    for version in LEGACY {
        let mut client = Client::new(transport).await;
        let result = client.initialize(version).await;
        assert_eq!(result["protocolVersion"], version.as_str(), "{transport}: the asked version is echoed");
        assert_eq!(result["serverInfo"]["name"], SERVER_NAME);
        assert_eq!(result["serverInfo"]["version"], "1.0.0");
        assert_eq!(result["capabilities"]["tools"]["listChanged"], true, "{transport} {version}: {result}");
        assert!(result["capabilities"]["logging"].is_object(), "{transport} {version}: {result}");
        sync(&mut client).await;
    }
    let mut client = Client::start(transport, Server::new(toolbox())).await;
    let result = client.initialize(V2025_06).await;
    assert_eq!(result["serverInfo"], default_identity(), "{transport}: {result}");
}

async fn initialize_with_an_unknown_or_modern_version_gets_2025_11_25(transport: Transport) {
    for asked in [json!("1999-01-01"), json!("2026-07-28"), json!("2025-13-45"), json!(20241105), Value::Null] {
        let mut client = Client::new(transport).await;
        let params = json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}});
        let result = client.result(1, "initialize", params).await;
        assert_eq!(result["protocolVersion"], "2025-11-25", "{transport}: asked {asked}");
    }
}

async fn ping_answers_an_empty_result(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_06).await;
    assert_eq!(client.result(1, "ping", json!({})).await, json!({}));
    assert_eq!(client.result("two", "ping", json!({})).await, json!({}));
    // Without params, or with null ones.
    assert_eq!(client.result(3, "ping", Value::Null).await, json!({}), "{transport}");
    client.send_raw(json!({"jsonrpc": "2.0", "id": 4, "method": "ping"})).await;
    let (_, response) = client.response_with_notes(&json!(4)).await;
    assert_eq!(response["result"], json!({}), "{transport}: {response}");
}

async fn server_discover_describes_the_server(transport: Transport) {
    let mut client = Client::new(transport).await;
    let result = client.result(1, "server/discover", modern(json!({}))).await;
    assert_names_the_server(&result);
    let supported: Vec<&str> = result["supportedVersions"]
        .as_array()
        .expect("supportedVersions")
        .iter()
        .map(|version| version.as_str().expect("a string"))
        .collect();
    assert_eq!(supported[0], "2026-07-28", "{transport}: the newest first: {result}");
    let mut sorted = supported.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ProtocolVersion::ALL.iter().map(|version| version.as_str()).collect::<Vec<_>>(), "{transport}");
    assert_eq!(result["capabilities"]["tools"]["listChanged"], true, "{transport}: {result}");
    assert!(result.get("serverInfo").is_none(), "{transport}: serverInfo lives in _meta: {result}");
    assert_eq!(result["resultType"], "complete", "{transport}: {result}");
    assert_eq!((result["ttlMs"].as_u64(), result["cacheScope"].as_str()), (Some(3_600_000), Some("public")));
    // The time to cache it is the server's to set; a server not named is named after its tools' crate.
    let server = Server::new(toolbox()).with_discover_ttl(Duration::from_secs(5));
    let mut client = Client::start(transport, server).await;
    let result = client.result(2, "server/discover", modern(json!({}))).await;
    assert_eq!(result["ttlMs"], 5000, "{transport}: {result}");
    assert_eq!(result["_meta"][SERVER_INFO_KEY], default_identity(), "{transport}: {result}");
}

async fn an_unsupported_modern_version_is_32022_with_supported_and_requested(transport: Transport) {
    let mut client = Client::new(transport).await;
    // A legacy version is no modern one either.
    for (id, requested) in [(1, "2099-01-01"), (2, "1900-01-01"), (3, "2025-11-25")] {
        let meta = json!({PROTOCOL_VERSION_KEY: requested, CLIENT_CAPABILITIES_KEY: {}});
        let error = client.error(id, "server/discover", json!({"_meta": meta})).await;
        assert_eq!(error["code"], UNSUPPORTED_VERSION, "{transport}: {error}");
        assert_eq!(error["data"]["requested"], requested);
        let supported = error["data"]["supported"].as_array().expect("supported");
        for &version in ProtocolVersion::ALL {
            assert!(supported.contains(&json!(version.as_str())), "{transport}: {version} missing from {error}");
        }
    }
    // The same for a tools/call.
    let meta = json!({PROTOCOL_VERSION_KEY: "2030-01-01", CLIENT_CAPABILITIES_KEY: {}});
    let mut params = call("add", json!({"a": 1, "b": 2}));
    params["_meta"] = meta;
    let error = client.error(4, "tools/call", params).await;
    assert_eq!(error["code"], UNSUPPORTED_VERSION, "{transport}: {error}");
    assert_eq!(error["data"]["requested"], "2030-01-01", "{transport}: {error}");
}

async fn a_modern_request_missing_meta_is_invalid_params(transport: Transport) {
    let mut client = Client::new(transport).await;
    // A protocol version but no client capabilities.
    let meta = json!({PROTOCOL_VERSION_KEY: "2026-07-28"});
    let error = client.error(7, "tools/list", json!({"_meta": meta})).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    let message = error["message"].as_str().expect("a message");
    assert!(message.contains(CLIENT_CAPABILITIES_KEY), "{transport}: the message names the key: {message}");
    // Client capabilities that are not an object.
    let meta = json!({PROTOCOL_VERSION_KEY: "2026-07-28", CLIENT_CAPABILITIES_KEY: "none"});
    let mut params = call("add", json!({}));
    params["_meta"] = meta;
    let error = client.error(8, "tools/call", params).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains(CLIENT_CAPABILITIES_KEY), "{transport}: {error}");
    // A protocol version that is not a string.
    let meta = json!({PROTOCOL_VERSION_KEY: 20260728, CLIENT_CAPABILITIES_KEY: {}});
    let error = client.error(9, "tools/list", json!({"_meta": meta})).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains(PROTOCOL_VERSION_KEY), "{transport}: {error}");
}

async fn methods_removed_in_2026_are_method_not_found(transport: Transport) {
    let mut client = Client::new(transport).await;
    for (id, method, params) in [
        (1, "ping", json!({})),
        (2, "logging/setLevel", json!({"level": "debug"})),
        (3, "resources/subscribe", json!({"uri": "file:///x"})),
        (4, "resources/unsubscribe", json!({"uri": "file:///x"})),
    ] {
        let error = client.error(id, method, modern(params)).await;
        assert_eq!(error["code"], METHOD_NOT_FOUND, "{transport} {method}: {error}");
        assert!(error["message"].as_str().is_some_and(|text| text.contains(method)), "{transport}: {error}");
    }
}
