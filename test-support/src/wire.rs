//! Checks of whole JSON-RPC messages a server sends, against the official
//! schema of their era, shared by every transport's test client.
//!
//! One deliberate tolerance: an error answering a message whose id could not
//! be read (or that was refused before its body was read) carries
//! `"id": null` (JSON-RPC 2.0, §5). No MCP schema admits a null id
//! (2024-11-05 to 2025-06-18 require a string or integer id; 2025-11-25 and
//! 2026-07-28 make it optional, i.e. omitted). Such an error is validated as
//! if the id were absent (or, where an id is required, any id); tests assert
//! the null explicitly.

use serde_json::{Value, json};

use crate::{assert_schema, assert_valid};

/// The first version whose error and result envelopes are
/// `JSONRPCErrorResponse` / `JSONRPCResultResponse` and whose ids are optional.
pub const V2025_11: &str = "2025-11-25";
/// The modern (stateless) protocol version.
pub const V2026: &str = "2026-07-28";

/// The result definition of a method's response (`Result` when not known).
pub fn result_definition(method: &str) -> &'static str {
    match method {
        "initialize" => "InitializeResult",
        "ping" | "logging/setLevel" => "EmptyResult",
        "tools/list" => "ListToolsResult",
        "tools/call" => "CallToolResult",
        "resources/list" => "ListResourcesResult",
        "resources/templates/list" => "ListResourceTemplatesResult",
        "resources/read" => "ReadResourceResult",
        "resources/subscribe" | "resources/unsubscribe" => "EmptyResult",
        "prompts/list" => "ListPromptsResult",
        "prompts/get" => "GetPromptResult",
        "completion/complete" => "CompleteResult",
        "server/discover" => "DiscoverResult",
        "subscriptions/listen" => "SubscriptionsListenResult",
        "tasks/get" => "GetTaskResult",
        "tasks/update" => "UpdateTaskResult",
        "tasks/cancel" => "CancelTaskResult",
        "skills/list" => crate::skills::LIST_SKILLS_RESULT,
        "skills/get" => crate::skills::GET_SKILL_RESULT,
        // The skills extension's: a folder's children are resources.
        "resources/directory/read" => "ListResourcesResult",
        _ => "Result",
    }
}

/// The 2026-07-28 definition of the error object of a standard JSON-RPC `code`.
pub fn modern_error_definition(code: i64) -> Option<&'static str> {
    match code {
        -32700 => Some("ParseError"),
        -32600 => Some("InvalidRequestError"),
        -32601 => Some("MethodNotFoundError"),
        -32602 => Some("InvalidParamsError"),
        -32603 => Some("InternalError"),
        _ => None,
    }
}

/// `message` with a null error id (see the module docs) removed where the id
/// is optional (2025-11-25 on), or replaced by 0 where it is required; any
/// other message as it is.
pub fn without_null_id(version: &str, message: &Value) -> Value {
    let mut shown = message.clone();
    if message.get("id") == Some(&Value::Null) && message.get("error").is_some() {
        if version >= V2025_11 {
            shown.as_object_mut().expect("an object").remove("id");
        } else {
            shown["id"] = json!(0);
        }
    }
    shown
}

/// Checks one error response (not a batch) of `version` and returns its code:
/// the envelope, a standard code or one of the spec's -32020..=-32022 (and
/// the legacy era's -32002 for an unknown resource), a
/// non-empty message and, in 2026-07-28, the specific error definitions
/// (`HeaderMismatchError`, `UnsupportedProtocolVersionError`, `ParseError`…).
#[track_caller]
pub fn check_error(version: &str, message: &Value) -> i64 {
    let envelope = if version >= V2025_11 { "JSONRPCErrorResponse" } else { "JSONRPCError" };
    let shown = without_null_id(version, message);
    assert_valid(version, envelope, &shown);
    let code = message["error"]["code"].as_i64().expect("an integer error code");
    // -32002 is "Resource not found" in the legacy era; 2026-07-28 answers -32602 (SEP-2164).
    let legacy_resource_not_found = code == -32002 && version != V2026;
    assert!(
        matches!(code, -32700 | -32603..=-32600 | -32022..=-32020) || legacy_resource_not_found,
        "unexpected error code {code} (the spec's range -32020..-32099 has only its own codes): {message}"
    );
    assert!(message["error"]["message"].as_str().is_some_and(|text| !text.is_empty()), "an error message: {message}");
    if version == V2026 {
        if let Some(definition) = modern_error_definition(code) {
            assert_valid(version, definition, &message["error"]);
        }
        match code {
            -32020 => assert_valid(version, "HeaderMismatchError", &shown),
            -32021 => assert_valid(version, "MissingRequiredClientCapabilityError", &shown),
            -32022 => assert_valid(version, "UnsupportedProtocolVersionError", &shown),
            _ => {}
        }
    }
    code
}

/// Checks one result response (not a batch) of `version` whose result is
/// `definition` (with the "every key is defined" check), and that
/// `resultType: "complete"` is there exactly in 2026-07-28 (or, for the
/// methods that may ask the client, `input_required`: then the result is an
/// `InputRequiredResult` whose every input request is valid).
#[track_caller]
pub fn check_result(version: &str, definition: &str, message: &Value) {
    let envelope = if version >= V2025_11 { "JSONRPCResultResponse" } else { "JSONRPCResponse" };
    assert_schema(version, envelope, message);
    // The tasks extension's results, in whatever era the client declared it.
    let task = match definition {
        "GetTaskResult" | "UpdateTaskResult" | "CancelTaskResult" => Some(definition),
        "CallToolResult" if message["result"]["resultType"] == "task" => Some("CreateTaskResult"),
        _ => None,
    };
    if let Some(task) = task {
        check_task(task, &message["result"]);
        return;
    }
    let may_ask = matches!(definition, "CallToolResult" | "GetPromptResult" | "ReadResourceResult");
    if version == V2026 && may_ask && message["result"]["resultType"] == "input_required" {
        assert_valid(version, "InputRequiredResult", &message["result"]);
        let requests = message["result"]["inputRequests"].as_object().expect("inputRequests, an object");
        assert!(!requests.is_empty(), "an input_required result asks something: {message}");
        for request in requests.values() {
            assert_valid(version, input_request_definition(request), request);
        }
        assert!(message["result"]["requestState"].as_str().is_some_and(|state| !state.is_empty()), "{message}");
        return;
    }
    assert_valid(version, definition, &message["result"]);
    if version == V2026 {
        assert_eq!(message["result"]["resultType"], "complete", "every 2026 result has resultType: {message}");
    } else {
        assert!(message["result"].get("resultType").is_none(), "no resultType in {version}: {message}");
    }
}

/// Checks `value` against definition `name` of the tasks extension's schema,
/// and each of its `inputRequests` against the core definitions.
#[track_caller]
pub fn check_task(name: &str, value: &Value) {
    if let Err(errors) = crate::schema::tasks_schema().validate(name, value) {
        panic!("not a valid {name} of the tasks extension:\n{}\n{value:#}", errors.join("\n"));
    }
    if let Some(requests) = value.get("inputRequests").and_then(Value::as_object) {
        for request in requests.values() {
            assert_valid(V2026, input_request_definition(request), request);
        }
    }
}

/// The definition of a request to the client (or a 2026 input request) by its method.
fn input_request_definition(request: &Value) -> &'static str {
    match request["method"].as_str() {
        Some("elicitation/create") => "ElicitRequest",
        Some("sampling/createMessage") => "CreateMessageRequest",
        Some("roots/list") => "ListRootsRequest",
        other => panic!("the server asked the client an unexpected {other:?}: {request}"),
    }
}

/// Checks one request the server sends the client (legacy era only): its
/// envelope and its definition (`ElicitRequest`, `CreateMessageRequest`,
/// `ListRootsRequest`).
#[track_caller]
pub fn check_request(version: &str, message: &Value) {
    assert_ne!(version, V2026, "a 2026-07-28 server sends the client no request: {message}");
    assert_schema(version, "JSONRPCRequest", message);
    let mut inner = message.clone();
    if version < V2025_11 {
        inner.as_object_mut().expect("an object").remove("jsonrpc");
        inner.as_object_mut().expect("an object").remove("id");
    }
    assert_valid(version, input_request_definition(message), &inner);
}

/// Checks one notification of `version`: progress, log messages,
/// `tools/list_changed` and (2026-07-28) `subscriptions/acknowledged`; any
/// other notification fails.
#[track_caller]
pub fn check_notification(version: &str, message: &Value) {
    assert_schema(version, "JSONRPCNotification", message);
    let method = message["method"].as_str().expect("a method");
    let definition = match method {
        "notifications/progress" => "ProgressNotification",
        "notifications/message" => "LoggingMessageNotification",
        "notifications/tools/list_changed" => "ToolListChangedNotification",
        "notifications/resources/list_changed" => "ResourceListChangedNotification",
        "notifications/resources/updated" => "ResourceUpdatedNotification",
        "notifications/prompts/list_changed" => "PromptListChangedNotification",
        // A question the server gave up (its tool was cancelled or timed out).
        "notifications/cancelled" if version != V2026 => "CancelledNotification",
        "notifications/subscriptions/acknowledged" if version == V2026 => "SubscriptionsAcknowledgedNotification",
        "notifications/tasks" => {
            check_task("TaskStatusNotification", message);
            return;
        }
        other => panic!("the server sent an unexpected notification {other} in {version}: {message}"),
    };
    let mut inner = message.clone();
    if version < V2025_11 {
        // Before 2025-11-25 the notification definitions leave `jsonrpc` to the envelope.
        inner.as_object_mut().expect("an object").remove("jsonrpc");
    }
    // The tasks extension's part of an acknowledgement is its schema's to check.
    if let Some(honoured) = inner.pointer_mut("/params/notifications").and_then(Value::as_object_mut)
        && let Some(task_ids) = honoured.remove("taskIds")
    {
        check_task("TaskSubscriptionAcknowledgedNotifications", &serde_json::json!({ "taskIds": task_ids }));
    }
    assert_valid(version, definition, &inner);
}

/// Checks a batch response of `version` (2025-03-26, the only version with
/// batches): a non-empty array valid as `JSONRPCBatchResponse`, holding no
/// notification. Each element still needs [`check_result`] or [`check_error`].
#[track_caller]
pub fn check_batch(version: &str, message: &Value) {
    assert_eq!(version, "2025-03-26", "a batch response outside 2025-03-26: {message}");
    let items = message.as_array().expect("a batch response is an array");
    assert!(!items.is_empty(), "an empty batch response: {message}");
    let shown: Vec<Value> = items.iter().map(|item| without_null_id(version, item)).collect();
    assert_schema(version, "JSONRPCBatchResponse", &Value::Array(shown));
    for item in items {
        assert!(item.get("method").is_none(), "a notification inside a batch response: {message}");
    }
}
