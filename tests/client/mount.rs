//! `Toolbox::mount`: a server's tools, resources and prompts served by
//! another toolbox under a prefix, everything forwarded, nothing lost.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use codeagent::client::{Client, ElicitAnswer, Handlers, MountError, Protocol, Root, SamplingRequest};
use codeagent::{ProtocolVersion, Server, Toolbox};
use serde_json::{Map, json};

use crate::common::tools::{observed_until, saw_cancellation};
use crate::own::{asking, demo_root, in_process, over_http, rand_suffix, server};

/// A result without the identity of the server that sent it.
fn without_server(raw: &serde_json::Value) -> serde_json::Value {
    let mut raw = raw.clone();
    if let Some(meta) = raw.get_mut("_meta").and_then(serde_json::Value::as_object_mut) {
        meta.remove(codeagent::server::SERVER_INFO_KEY);
    }
    raw
}

/// A gateway: `inner` mounted as `own` into an empty toolbox, served in
/// process; a client of the gateway in `protocol` with `handlers`.
async fn gateway(inner: Server, protocol: Protocol, handlers: Handlers) -> (Client, Client, Toolbox) {
    let mounted = in_process(inner, Protocol::Negotiate, Handlers::forward()).await;
    let toolbox = Toolbox::new();
    toolbox.mount("own", mounted.clone()).await.expect("mounting");
    let outer = in_process(Server::new(toolbox.clone()), protocol, handlers).await;
    (outer, mounted, toolbox)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mounted_server_is_served_under_its_prefix_and_nothing_is_lost() {
    for protocol in [Protocol::Negotiate, Protocol::Only(ProtocolVersion::V2025_06_18)] {
        let (outer, _mounted, _toolbox) = gateway(server(), protocol, Handlers::new()).await;
        // The same server, straight, in the same version as the gateway's client.
        let direct = in_process(server(), protocol, Handlers::new()).await;
        let tools = outer.list_tools().await.unwrap();
        let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
        assert!(names.contains(&"own_add") && names.contains(&"own_forecast"), "{names:?}");
        assert!(names.iter().all(|name| name.starts_with("own_")), "{names:?}");
        let add = tools.iter().find(|tool| tool.name == "own_add").unwrap();
        let original = direct.list_tools().await.unwrap().into_iter().find(|tool| tool.name == "add").unwrap();
        assert_eq!(add.input_schema, original.input_schema);
        assert_eq!(add.description, original.description);

        // The same result, through the gateway or not.
        for (name, arguments) in
            [("add", json!({"a": 2, "b": 3})), ("greet", json!({"name": "Ada"})), ("boom_sync", json!({}))]
        {
            let through = outer.call(format!("own_{name}"), arguments.clone()).await.unwrap();
            let straight = direct.call(name, arguments).await.unwrap();
            assert_eq!(through.result().value(), straight.result().value(), "{name}");
            assert_eq!(through.is_error(), straight.is_error(), "{name}");
            assert_eq!(without_server(through.raw()), without_server(straight.raw()), "{name} {protocol:?}");
        }

        // Resources, templates and prompts, renamed and read through.
        let resources = outer.list_resources().await.unwrap();
        assert!(resources.iter().any(|resource| resource.uri == "own+file:///notes.txt"), "{resources:?}");
        let read = outer.read_resource("own+file:///notes.txt").await.unwrap();
        assert_eq!(read.text(), Some("hello notes"));
        assert_eq!(read.contents[0].uri(), "own+file:///notes.txt");
        let templates = outer.list_resource_templates().await.unwrap();
        assert!(templates.iter().any(|template| template.uri_template == "own+users://{id}/profile"), "{templates:?}");
        let profile = outer.read_resource("own+users://ada/profile").await.unwrap();
        assert_eq!(profile.text(), Some(r#"{"id":"ada"}"#));
        let broken = outer.read_resource("own+file:///broken").await.unwrap_err();
        assert!(broken.to_string().contains("the disk is gone"), "{broken}");
        let mut arguments = Map::new();
        arguments.insert("path".into(), json!("src/lib.rs"));
        let prompt = outer.get_prompt("own_review", arguments).await.unwrap();
        assert_eq!(prompt.messages[0].text(), Some("Review src/lib.rs."));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_cancellation_and_questions_pass_through() {
    let asked = Arc::new(Mutex::new(0));
    let count = Arc::clone(&asked);
    let handlers = Handlers::new()
        .with_roots(vec![Root::new(demo_root())])
        .on_sampling(|_request: SamplingRequest| async { Ok(SamplingRequest::text_answer("mock", "demo-app")) })
        .on_elicitation(move |_question| {
            *count.lock().unwrap() += 1;
            async { ElicitAnswer::Accept(serde_json::from_value(json!({"accept": true})).unwrap()) }
        });
    for protocol in [Protocol::Negotiate, Protocol::Only(ProtocolVersion::V2025_11_25)] {
        let inner = Server::new(crate::common::tools::all_tools().tool(asking::name_project));
        let (outer, _direct, _toolbox) = gateway(inner, protocol, handlers.clone()).await;

        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let output = outer
            .call("own_steps", json!({"count": 3}))
            .on_progress(move |progress| sink.lock().unwrap().push(progress.progress))
            .await
            .unwrap();
        assert_eq!(output.result().value(), "3 steps");
        assert_eq!(*seen.lock().unwrap(), [1.0, 2.0, 3.0], "{protocol:?}");

        let key = format!("mount-cancel-{}", rand_suffix());
        let call = outer.call("own_wait", json!({"key": key, "ms": 60_000}));
        assert!(tokio::time::timeout(Duration::from_millis(300), call).await.is_err());
        let seen = observed_until(&key, Duration::from_secs(10), saw_cancellation).await;
        assert!(saw_cancellation(&seen), "{protocol:?}: the mounted server saw {seen:?}");

        let output = outer.call("own_name_project", json!({})).await.unwrap();
        assert_eq!(output.text(), format!("{} is `demo-app`", demo_root()), "{protocol:?}: {:?}", output.raw());
    }
    assert!(*asked.lock().unwrap() >= 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_changes_of_the_mounted_server_are_followed() {
    let inner = server();
    let inner_toolbox = inner.toolbox().clone();
    let (outer, _direct, toolbox) = gateway(inner, Protocol::Negotiate, Handlers::new()).await;
    assert!(toolbox.tools().names().contains(&"own_late".to_owned()));
    inner_toolbox.tools().remove("late");
    let gone = tokio::time::timeout(Duration::from_secs(10), async {
        while toolbox.tools().names().contains(&"own_late".to_owned()) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(gone.is_ok(), "own_late is still mounted");
    assert!(outer.list_tools().await.unwrap().iter().all(|tool| tool.name != "own_late"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_serves_a_stdio_server_over_http() {
    let mounted = in_process(server(), Protocol::Only(ProtocolVersion::V2025_11_25), Handlers::forward()).await;
    let toolbox = Toolbox::new();
    toolbox.mount("own", mounted).await.unwrap();
    let outer = over_http(Server::new(toolbox), Protocol::Negotiate, Handlers::new()).await;
    assert_eq!(outer.protocol_version(), ProtocolVersion::V2026_07_28);
    let output = outer.call("own_forecast", json!({"city": "Oslo", "region": "eu-north"})).await.unwrap();
    assert_eq!(output.text(), "Oslo: sunny (from eu-north)");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_prefixes_and_taken_names_are_refused() {
    let client = in_process(server(), Protocol::Negotiate, Handlers::new()).await;
    let toolbox = Toolbox::new();
    for prefix in ["", "1st", "a_b", "a b"] {
        let refused = toolbox.mount(prefix, client.clone()).await.unwrap_err();
        assert!(matches!(refused, MountError::Prefix(_)), "{prefix:?}: {refused}");
    }
    toolbox.mount("own", client.clone()).await.unwrap();
    let taken = toolbox.mount("own", client).await.unwrap_err();
    assert!(taken.to_string().contains("already in the toolbox"), "{taken}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_mounted_without_prefix_keeps_its_names_and_unmounts() {
    use codeagent::client::{Listen, ServerEvent};
    use codeagent::toolbox::LogLevel;

    let toolbox = Toolbox::new();
    let first = in_process(server(), Protocol::Negotiate, Handlers::forward()).await;
    let mount = toolbox.mount_removable(None, first).await.expect("mounting");
    let outer =
        in_process(Server::new(toolbox.clone()), Protocol::Only(ProtocolVersion::LATEST_LEGACY), Handlers::new()).await;
    let _listening = outer.listen(Listen::lists()).await.unwrap();
    let mut events = outer.events();
    assert_eq!(outer.call("add", json!({"a": 2, "b": 3})).await.unwrap().text(), "5");
    let read = outer.read_resource("file:///notes.txt").await.unwrap();
    assert_eq!(read.text(), Some("hello notes"));
    assert_eq!(read.contents[0].uri(), "file:///notes.txt");
    let mut arguments = Map::new();
    arguments.insert("path".into(), json!("src/lib.rs"));
    assert_eq!(outer.get_prompt("review", arguments).await.unwrap().messages[0].text(), Some("Review src/lib.rs."));

    // Unmounted: nothing of it is left, and the client is told.
    mount.unmount();
    assert!(toolbox.tools().is_empty() && toolbox.resources().is_empty() && toolbox.prompts().is_empty());
    let told = tokio::time::timeout(Duration::from_secs(10), async {
        while !matches!(events.recv().await, Ok(ServerEvent::ToolsChanged)) {}
    })
    .await;
    assert!(told.is_ok(), "no tools/list_changed after unmounting");
    assert!(outer.list_tools().await.unwrap().is_empty());

    // Another server in its place, under the same names; a log for every client.
    let second = in_process(server(), Protocol::Negotiate, Handlers::forward()).await;
    let mut again = toolbox.mount_removable(None, second.clone()).await.expect("mounting again");
    assert_eq!(outer.call("add", json!({"a": 1, "b": 1})).await.unwrap().text(), "2");

    // Replaced in one step: the tools never gone, the old client given back.
    let names = toolbox.tools().names();
    let third = in_process(server(), Protocol::Negotiate, Handlers::forward()).await;
    let replaced = again.replace(third).await.expect("replacing");
    assert_eq!(toolbox.tools().names(), names);
    assert_eq!(outer.call("add", json!({"a": 2, "b": 2})).await.unwrap().text(), "4");
    replaced.close();
    assert!(second.closed().is_some(), "replace gives back the replaced server's client");
    assert_eq!(outer.call("add", json!({"a": 3, "b": 3})).await.unwrap().text(), "6");
    toolbox.log(LogLevel::Error, "the rebuild failed");
    let logged = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Ok(ServerEvent::Log { level, data, .. }) = events.recv().await {
                return (level, data);
            }
        }
    })
    .await
    .expect("a log message");
    assert_eq!(logged, ("error".to_owned(), json!("the rebuild failed")));
}
