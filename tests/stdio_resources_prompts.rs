//! Resources, prompts and completion as each protocol version states them,
//! over stdio (the one transport 2024-11-05 shares with the later versions):
//! every message is validated against the official schema of its version by
//! the client, and what each version must show or leave out is asserted here.

mod common;

use codeagent::Server;
use codeagent::tools::ResultBudget;
use serde_json::json;

use common::stdio::Client;
use common::tools::{all_tools, toolbox};

const VERSIONS: [&str; 4] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_legacy_version_lists_reads_gets_and_completes() {
    for version in VERSIONS {
        let mut client = Client::start(Server::new(all_tools()));
        let init = client.initialize(version).await;
        let capabilities = &init["capabilities"];
        assert_eq!(capabilities["resources"], json!({"subscribe": true, "listChanged": true}), "{version}");
        assert_eq!(capabilities["prompts"], json!({"listChanged": true}), "{version}");
        // `completions` is a capability from 2025-03-26 on; 2024-11-05 clients just call it.
        assert_eq!(capabilities.get("completions").is_some(), version != "2024-11-05", "{version}: {capabilities}");

        let list = client.result(1, "resources/list", json!({})).await;
        let notes = &list["resources"][0];
        assert_eq!(notes["uri"], "file:///notes.txt", "{version}");
        assert_eq!(notes.get("title").is_some(), version >= "2025-06-18", "{version}: {notes}");
        let templates = client.result(2, "resources/templates/list", json!({})).await;
        assert_eq!(templates["resourceTemplates"][0]["uriTemplate"], "users://{id}/profile", "{version}");
        let read = client.result(3, "resources/read", json!({"uri": "users://grace/profile"})).await;
        assert_eq!(read["contents"][0]["text"], r#"{"id":"grace"}"#, "{version}");
        let prompts = client.result(4, "prompts/list", json!({})).await;
        let argument = &prompts["prompts"][0]["arguments"][0];
        assert_eq!(argument["name"], "path", "{version}");
        let got = client.result(5, "prompts/get", json!({"name": "review", "arguments": {"path": "x"}})).await;
        assert_eq!(got["messages"][1]["role"], "assistant", "{version}");
        let reference = json!({"type": "ref/prompt", "name": "review"});
        let done = client
            .result(6, "completion/complete", json!({"ref": reference, "argument": {"name": "path", "value": "R"}}))
            .await;
        assert_eq!(done["completion"]["values"], json!(["README.md"]), "{version}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_without_resources_or_prompts_advertises_neither() {
    // No result budget either: no result over budget is kept to be read back.
    let mut client = Client::start(Server::new(toolbox()).with_result_budget(ResultBudget::unlimited()));
    let init = client.initialize("2025-11-25").await;
    let capabilities = &init["capabilities"];
    assert!(capabilities.get("resources").is_none() && capabilities.get("prompts").is_none(), "{capabilities}");
    assert!(capabilities.get("completions").is_none(), "{capabilities}");
    let list = client.result(1, "resources/list", json!({})).await;
    assert_eq!(list["resources"], json!([]), "listing nothing is not an error");
    // With the default budget, results over it are read back as resources, never listed.
    let mut client = Client::new();
    let init = client.initialize("2025-11-25").await;
    assert_eq!(init["capabilities"]["resources"], json!({}), "{init}");
    let list = client.result(1, "resources/list", json!({})).await;
    assert_eq!(list["resources"], json!([]));
}
