//! prompts/list, prompts/get and completion/complete: shapes per version,
//! argument checks naming the argument, failing prompts, completion of prompt
//! arguments and template variables.

use serde_json::{Value, json};

use super::modern;
use crate::common::client::{Client, Transport};
use crate::common::{INTERNAL_ERROR, INVALID_PARAMS, LEGACY, V2024, V2025_06, V2025_11};

over_both!(
    prompts_are_advertised_and_listed_per_version,
    a_prompt_is_got_with_its_arguments,
    missing_unknown_and_mistyped_arguments_are_invalid_params_naming_them,
    a_panicking_prompt_is_an_internal_error_and_the_server_lives_on,
    prompt_arguments_and_template_variables_complete,
    modern_prompts_carry_result_type_and_caching_hints,
);

fn names(list: &Value) -> Vec<&str> {
    list["prompts"].as_array().expect("prompts").iter().map(|prompt| prompt["name"].as_str().unwrap()).collect()
}

async fn prompts_are_advertised_and_listed_per_version(transport: Transport) {
    for version in LEGACY {
        let mut client = Client::new(transport).await;
        let init = client.initialize(version).await;
        assert_eq!(init["capabilities"]["prompts"], json!({"listChanged": true}), "{transport} {version}");
        if version == V2024 {
            // A capability from 2025-03-26 on; 2024-11-05 clients just call it.
            assert!(init["capabilities"].get("completions").is_none(), "{transport} {version}: {init}");
        } else {
            assert_eq!(init["capabilities"]["completions"], json!({}), "{transport} {version}");
        }
        let list = client.result(1, "prompts/list", json!({})).await;
        assert_eq!(names(&list), ["review", "boom"], "{transport} {version}");
        let review = &list["prompts"][0];
        assert_eq!(review["description"], "Review a file.", "{transport} {version}");
        assert_eq!(review["arguments"][0]["name"], "path", "{transport} {version}: {review}");
        assert_eq!(review["arguments"][0]["required"], true, "{transport} {version}: {review}");
        assert_eq!(review["arguments"][1]["required"], false, "{transport} {version}: {review}");
        assert_eq!(review.get("title").is_some(), version >= V2025_06, "{transport} {version}: {review}");
        let got = client.result(2, "prompts/get", json!({"name": "review", "arguments": {"path": "x"}})).await;
        assert_eq!(got["messages"][1]["role"], "assistant", "{transport} {version}: {got}");
        let complete =
            json!({"ref": {"type": "ref/prompt", "name": "review"}, "argument": {"name": "path", "value": "R"}});
        let done = client.result(3, "completion/complete", complete).await;
        assert_eq!(done["completion"]["values"], json!(["README.md"]), "{transport} {version}: {done}");
    }
}

async fn a_prompt_is_got_with_its_arguments(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    let got = client.result(1, "prompts/get", json!({"name": "review", "arguments": {"path": "src/lib.rs"}})).await;
    assert_eq!(got["description"], "Review a file.", "{transport}: {got}");
    assert_eq!(
        got["messages"],
        json!([
            {"role": "user", "content": {"type": "text", "text": "Review src/lib.rs."}},
            {"role": "assistant", "content": {"type": "text", "text": "I will."}}
        ]),
        "{transport}"
    );
    let arguments = json!({"path": "a.rs", "focus": "naming"});
    let got = client.result(2, "prompts/get", json!({"name": "review", "arguments": arguments})).await;
    assert_eq!(got["messages"][0]["content"]["text"], "Review a.rs, looking at naming.", "{transport}: {got}");
}

async fn missing_unknown_and_mistyped_arguments_are_invalid_params_naming_them(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    for (id, params, needle) in [
        (1, json!({"name": "review"}), "missing required argument `path`"),
        (2, json!({"name": "review", "arguments": {"path": "a", "colour": "red"}}), "unknown argument `colour`"),
        (3, json!({"name": "review", "arguments": {"path": 7}}), "`path` must be a string"),
        (4, json!({"name": "nope"}), "Unknown prompt: nope"),
        (5, json!({}), "needs a `name`"),
    ] {
        let error = client.error(id, "prompts/get", params).await;
        assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
        assert!(error["message"].as_str().unwrap().contains(needle), "{transport}: {needle} in {error}");
    }
}

async fn a_panicking_prompt_is_an_internal_error_and_the_server_lives_on(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    let error = client.error(1, "prompts/get", json!({"name": "boom"})).await;
    assert_eq!(error["code"], INTERNAL_ERROR, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains("prompt exploded"), "{transport}: {error}");
    let got = client.result(2, "prompts/get", json!({"name": "review", "arguments": {"path": "x"}})).await;
    assert_eq!(got["messages"][0]["content"]["text"], "Review x.", "{transport}");
    // So is a panicking completion function.
    let complete = json!({"ref": {"type": "ref/prompt", "name": "boom"}, "argument": {"name": "fuse", "value": ""}});
    let error = client.error(3, "completion/complete", complete).await;
    assert_eq!(error["code"], INTERNAL_ERROR, "{transport}: {error}");
    assert!(error["message"].as_str().unwrap().contains("completer exploded"), "{transport}: {error}");
    let got = client.result(4, "prompts/get", json!({"name": "review", "arguments": {"path": "y"}})).await;
    assert_eq!(got["messages"][0]["content"]["text"], "Review y.", "{transport}");
}

async fn prompt_arguments_and_template_variables_complete(transport: Transport) {
    let mut client = Client::new(transport).await;
    client.initialize(V2025_11).await;
    let prompt =
        json!({"ref": {"type": "ref/prompt", "name": "review"}, "argument": {"name": "path", "value": "src/"}});
    let done = client.result(1, "completion/complete", prompt).await;
    assert_eq!(done["completion"], json!({"values": ["src/lib.rs", "src/main.rs"], "total": 2, "hasMore": false}));
    let template = json!({"ref": {"type": "ref/resource", "uri": "users://{id}/profile"}, "argument": {"name": "id", "value": "A"}});
    let done = client.result(2, "completion/complete", template).await;
    assert_eq!(done["completion"]["values"], json!(["ada", "alan"]), "{transport}: {done}");
    let unattached =
        json!({"ref": {"type": "ref/prompt", "name": "review"}, "argument": {"name": "focus", "value": ""}});
    let done = client.result(3, "completion/complete", unattached).await;
    assert_eq!(done["completion"]["values"], json!([]), "{transport}: no completer, no suggestion: {done}");
    for (id, params) in [
        (4, json!({"ref": {"type": "ref/prompt", "name": "nope"}, "argument": {"name": "x", "value": ""}})),
        (5, json!({"ref": {"type": "ref/prompt", "name": "review"}, "argument": {"name": "nope", "value": ""}})),
        (6, json!({"ref": {"type": "ref/tool", "name": "add"}, "argument": {"name": "a", "value": ""}})),
        (7, json!({"ref": {"type": "ref/prompt", "name": "review"}})),
    ] {
        let error = client.error(id, "completion/complete", params).await;
        assert_eq!(error["code"], INVALID_PARAMS, "{transport}: {error}");
    }
}

async fn modern_prompts_carry_result_type_and_caching_hints(transport: Transport) {
    let mut client = Client::new(transport).await;
    let list = client.result(1, "prompts/list", modern(json!({}))).await;
    assert_eq!((list["resultType"].as_str(), list["cacheScope"].as_str()), (Some("complete"), Some("public")));
    let got = client.result(2, "prompts/get", modern(json!({"name": "review", "arguments": {"path": "p"}}))).await;
    assert_eq!(got["resultType"], "complete", "{transport}: {got}");
    let params =
        modern(json!({"ref": {"type": "ref/prompt", "name": "review"}, "argument": {"name": "path", "value": ""}}));
    let done = client.result(3, "completion/complete", params).await;
    assert_eq!(done["completion"]["total"], 3, "{transport}: {done}");
}
