//! `codeagent::testing`: the in-process client and golden snapshots, used
//! on a toolbox of ours (`golden/*.json`, one file per protocol version).

use codeagent::testing::{self, Golden};
use codeagent::{ProtocolVersion, Server, Toolbox};
use serde_json::json;

use crate::common::tools::{add, forecast, greet, resources};

fn server() -> Server {
    Server::new(resources(Toolbox::new().tool(add).tool(greet).tool(forecast)))
        .with_name("golden")
        .with_version("1.0.0")
}

fn golden() -> Golden {
    Golden::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/client/golden"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_listing_and_calls_match_their_snapshots_in_every_version() {
    let server = server();
    golden().listing("listing", &server).await;
    golden().call("add", &server, "add", json!({"a": 2, "b": 3})).await;
    golden().call("greet-refused", &server, "greet", json!({"name": 7})).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_in_process_client_speaks_every_version() {
    let server = server();
    for &version in ProtocolVersion::ALL {
        let client = testing::connect(&server, version).await;
        assert_eq!(client.protocol_version(), version);
        assert_eq!(client.server_name(), "golden");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_result_fails_with_a_diff() {
    let dir = std::env::temp_dir().join(format!("codeagent-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Snapshots of `add` that say 6: every version's must differ.
    for &version in ProtocolVersion::ALL {
        let name = format!("add.{version}.json");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/client/golden/").to_owned() + &name;
        let text = std::fs::read_to_string(path).unwrap().replace("\"5\"", "\"6\"");
        std::fs::write(dir.join(name), text).unwrap();
    }
    let server = server();
    let check = tokio::spawn(async move {
        Golden::new(dir).with_bless(false).call("add", &server, "add", json!({"a": 2, "b": 3})).await
    });
    let panic = check.await.unwrap_err().into_panic();
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("snapshot `add` changed"), "{message}");
    assert!(message.contains("-      \"text\": \"6\"") && message.contains("+      \"text\": \"5\""), "{message}");
    assert!(message.contains("CODEAGENT_BLESS=1"), "{message}");
}
