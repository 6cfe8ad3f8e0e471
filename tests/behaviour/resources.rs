//! resources/list, resources/templates/list, resources/read and
//! subscriptions: shapes per version, fixed URIs and templates, unknown and
//! failing resources, update notifications in both eras.

use serde_json::{Value, json};

use super::{modern, sync};
use crate::common::client::{Client, Transport};
use crate::common::{INTERNAL_ERROR, INVALID_PARAMS, LEGACY, V2025_06, V2025_11};

over_both!(
    resources_are_advertised_and_listed_per_version,
    templates_are_listed_apart_from_fixed_uris,
    a_fixed_uri_and_a_template_are_read,
    an_unknown_resource_is_an_error_naming_it_in_each_era,
    a_failing_resource_is_an_internal_error,
    a_panicking_resource_is_an_internal_error_and_the_server_lives_on,
    a_subscribed_legacy_client_hears_of_updates,
    a_modern_listener_hears_of_the_uris_it_asked_for,
    modern_reads_carry_caching_hints,
);

fn uris(list: &Value, key: &str, field: &str) -> Vec<String> {
    list[key].as_array().expect("a list").iter().map(|entry| entry[field].as_str().unwrap().to_owned()).collect()
}

async fn resources_are_advertised_and_listed_per_version(transport: Transport) {
    for version in LEGACY {
        let mut client = Client::new(transport).await;
        let init = client.initialize(version).await;
        assert_eq!(init["capabilities"]["resources"], json!({"subscribe": true, "listChanged": true}), "{transport}");
        let list = client.result(1, "resources/list", json!({})).await;
        assert_eq!(uris(&list, "resources", "uri"), ["file:///notes.txt", "file:///pixel.png", "file:///broken"]);
        let notes = &list["resources"][0];
        assert_eq!(notes["mimeType"], "text/plain", "{transport} {version}: {notes}");
        assert_eq!(notes["size"], 11, "{transport} {version}: {notes}");
        if version >= V2025_06 {
            assert_eq!(notes["title"], "Notes", "{transport} {version}: {notes}");
        } else {
            assert!(notes.get("title").is_none(), "{transport} {version}: {notes}");
        }
        let templates = client.result(2, "resources/templates/list", json!({})).await;
        assert_eq!(
            uris(&templates, "resourceTemplates", "uriTemplate"),
            ["users://{id}/profile"],
            "{transport} {version}"
        );
        let read = client.result(3, "resources/read", json!({"uri": "users://grace/profile"})).await;
        assert_eq!(read["contents"][0]["text"], r#"{"id":"grace"}"#, "{transport} {version}: {read}");
    }
}

async fn templates_are_listed_apart_from_fixed_uris(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    let list = client.result(1, "resources/templates/list", json!({})).await;
    assert_eq!(uris(&list, "resourceTemplates", "uriTemplate"), ["users://{id}/profile"], "{transport}");
    assert_eq!(list["resourceTemplates"][0]["mimeType"], "application/json", "{transport}");
}

async fn a_fixed_uri_and_a_template_are_read(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    let read = client.result(1, "resources/read", json!({"uri": "file:///notes.txt"})).await;
    assert_eq!(
        read["contents"],
        json!([{"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "hello notes"}])
    );
    let read = client.result(2, "resources/read", json!({"uri": "file:///pixel.png"})).await;
    assert_eq!(read["contents"][0]["mimeType"], "image/png", "{transport}: {read}");
    assert!(read["contents"][0]["blob"].as_str().unwrap().starts_with("iVBORw0KGgo"), "{transport}: {read}");
    let read = client.result(3, "resources/read", json!({"uri": "users://ada%20l/profile"})).await;
    assert_eq!(read["contents"][0]["uri"], "users://ada%20l/profile", "{transport}: {read}");
    assert_eq!(read["contents"][0]["text"], r#"{"id":"ada l"}"#, "{transport}: the variable is decoded: {read}");
}

async fn an_unknown_resource_is_an_error_naming_it_in_each_era(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    for uri in ["file:///missing", "users://a/b/profile"] {
        let error = client.error(uri, "resources/read", json!({"uri": uri})).await;
        assert_eq!(error["code"], -32002, "{transport}: legacy Resource not found: {error}");
        assert_eq!(error["data"]["uri"], uri, "{transport}: {error}");
    }
    let error = client.error(9, "resources/read", json!({})).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    let mut modern_client = Client::new(transport).await;
    let error = modern_client.error(1, "resources/read", modern(json!({"uri": "file:///missing"}))).await;
    assert_eq!(error["code"], INVALID_PARAMS, "{transport}: SEP-2164: {error}");
    assert_eq!(error["data"]["uri"], "file:///missing", "{transport}: {error}");
}

async fn a_failing_resource_is_an_internal_error(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    let error = client.error(1, "resources/read", json!({"uri": "file:///broken"})).await;
    assert_eq!(error["code"], INTERNAL_ERROR, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains("the disk is gone"), "{transport}: {error}");
    let read = client.result(2, "resources/read", json!({"uri": "file:///notes.txt"})).await;
    assert_eq!(read["contents"][0]["text"], "hello notes", "{transport}: the server lives on");
}

async fn a_panicking_resource_is_an_internal_error_and_the_server_lives_on(transport: Transport) {
    use codeagent::resources::ResourceSpec;
    let toolbox = codeagent::Toolbox::new()
        .resource(ResourceSpec::fixed("file:///fuse", "fuse").unwrap().serve(|_| async {
            if true {
                panic!("resource exploded");
            }
            "unreachable"
        }))
        .resource(ResourceSpec::fixed("file:///calm", "calm").unwrap().serve(|_| async { "still here" }));
    let mut client = Client::start(transport, codeagent::Server::new(toolbox)).await;
    client.initialize(V2025_11).await;
    let error = client.error(1, "resources/read", json!({"uri": "file:///fuse"})).await;
    assert_eq!(error["code"], INTERNAL_ERROR, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains("resource exploded"), "{transport}: {error}");
    let read = client.result(2, "resources/read", json!({"uri": "file:///calm"})).await;
    assert_eq!(read["contents"][0]["text"], "still here", "{transport}: the server lives on");
}

async fn a_subscribed_legacy_client_hears_of_updates(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    assert_eq!(client.result(1, "resources/subscribe", json!({"uri": "file:///notes.txt"})).await, json!({}));
    sync(&mut client).await;
    client.toolbox().resources().notify_updated("file:///pixel.png");
    client.toolbox().resources().notify_updated("file:///notes.txt");
    let note = client.next_notification().await;
    assert_eq!(note["method"], "notifications/resources/updated", "{transport}: {note}");
    assert_eq!(note["params"]["uri"], "file:///notes.txt", "{transport}: only the subscribed URI: {note}");
    assert_eq!(client.result(2, "resources/unsubscribe", json!({"uri": "file:///notes.txt"})).await, json!({}));
    client.toolbox().resources().notify_updated("file:///notes.txt");
    client.assert_quiet(std::time::Duration::from_millis(300)).await;
    let error = client.error(3, "resources/subscribe", modern(json!({"uri": "file:///notes.txt"}))).await;
    assert_eq!(error["code"], -32601, "{transport}: 2026-07-28 subscribes on subscriptions/listen: {error}");
}

async fn a_modern_listener_hears_of_the_uris_it_asked_for(transport: Transport) {
    let mut client = Client::new(transport).await;
    let filter =
        json!({"notifications": {"resourceSubscriptions": ["file:///notes.txt"], "resourcesListChanged": true}});
    client.send_request("listen", "subscriptions/listen", modern(filter)).await;
    let acknowledged = client.next_notification().await;
    assert_eq!(acknowledged["method"], "notifications/subscriptions/acknowledged", "{transport}: {acknowledged}");
    assert_eq!(
        acknowledged["params"]["notifications"],
        json!({"resourcesListChanged": true, "resourceSubscriptions": ["file:///notes.txt"]}),
        "{transport}"
    );
    client.toolbox().resources().notify_updated("file:///pixel.png");
    client.toolbox().resources().notify_updated("file:///notes.txt");
    let note = client.next_notification().await;
    assert_eq!(note["method"], "notifications/resources/updated", "{transport}: {note}");
    assert_eq!(note["params"]["uri"], "file:///notes.txt", "{transport}: {note}");
    assert_eq!(note["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "listen", "{transport}: {note}");
}

async fn modern_reads_carry_caching_hints(transport: Transport) {
    let mut client = Client::new(transport).await;
    let read = client.result(1, "resources/read", modern(json!({"uri": "file:///notes.txt"}))).await;
    assert_eq!(read["resultType"], "complete", "{transport}: {read}");
    assert_eq!(read["ttlMs"], 0, "{transport}: {read}");
    assert_eq!(read["cacheScope"], "public", "{transport}: {read}");
    let list = client.result(2, "resources/templates/list", modern(json!({}))).await;
    assert_eq!(list["cacheScope"], "public", "{transport}: {list}");
    let read = client.result(3, "resources/read", modern(json!({"uri": "file:///pixel.png"}))).await;
    assert_eq!((read["ttlMs"].as_u64(), read["cacheScope"].as_str()), (Some(60_000), Some("private")), "its own hint");
}
