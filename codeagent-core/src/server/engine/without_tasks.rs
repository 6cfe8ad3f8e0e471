//! A server built without the `tasks` feature: it never offers the tasks
//! extension, so a client never makes a call a task, and it calls every tool
//! as an ordinary request. What needs a task is refused, naming the feature.

use super::Engine;
use crate::server::jsonrpc::{INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, RpcError};
use crate::toolbox::ToolSpec;
use crate::tools::TaskSupport;

/// The words every refusal ends with.
const WHY: &str = "this server was built without codeagent's `tasks` feature";

/// The `-32601` error of `tasks/get`, `tasks/update` or `tasks/cancel`.
pub(super) fn no_task_methods(method: &str) -> RpcError {
    RpcError::new(METHOD_NOT_FOUND, format!("Method not found: {method} ({WHY})"))
}

/// The `-32602` error of a `subscriptions/listen` filter naming tasks.
pub(super) fn no_tasks_to_listen() -> RpcError {
    RpcError::new(INVALID_PARAMS, format!("Invalid params: `notifications.taskIds` names tasks, and {WHY}"))
}

impl Engine {
    /// Whether a call of `tool` can be served: any tool can, as an ordinary
    /// call, except one that runs only as a task.
    pub(super) fn task_mode(&self, tool: &ToolSpec) -> Result<(), RpcError> {
        if tool.task_support() == Some(TaskSupport::Required) {
            let message = format!("Internal error: the tool `{}` runs only as a task, and {WHY}", tool.name());
            return Err(RpcError::new(INTERNAL_ERROR, message));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    use crate::ToolResult;
    use crate::server::Server;
    use crate::toolbox::Toolbox;
    use crate::tools::{TaskSupport, Tool, ToolCall, ToolFuture, ToolSpec};

    /// A tool that, with the tasks feature, could run as a task.
    struct Export(ToolSpec);

    impl Tool for Export {
        fn spec(&self) -> &ToolSpec {
            &self.0
        }

        fn call(&self, _call: ToolCall) -> ToolFuture {
            Box::pin(async { ToolResult::new("exported") })
        }
    }

    /// The responses of a server of `toolbox` to `requests`, one per request.
    async fn answers(toolbox: Toolbox, requests: &[Value]) -> Vec<Value> {
        let (client, server) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server);
        tokio::spawn(async move { Server::new(toolbox).serve(server_read, server_write).await });
        let (client_read, mut client_write) = tokio::io::split(client);
        let mut lines = BufReader::new(client_read).lines();
        let mut answers = Vec::new();
        for request in requests {
            client_write.write_all(format!("{request}\n").as_bytes()).await.unwrap();
            let line = lines.next_line().await.unwrap().expect("a response");
            answers.push(serde_json::from_str(&line).unwrap());
        }
        answers
    }

    #[tokio::test]
    async fn without_the_feature_no_task_is_offered_made_or_read() {
        let toolbox = Toolbox::new()
            .tool(Export(ToolSpec::new::<()>("export").with_task(TaskSupport::Optional)))
            .tool(Export(ToolSpec::new::<()>("archive").with_task(TaskSupport::Required)));
        let tasks = json!({ "io.modelcontextprotocol/tasks": {} });
        let answers = answers(
            toolbox,
            &[
                json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                    "protocolVersion": "2025-11-25", "capabilities": { "extensions": tasks },
                    "clientInfo": { "name": "test", "version": "1" }}}),
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "export", "arguments": {}}}),
                json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "archive", "arguments": {}}}),
                json!({"jsonrpc": "2.0", "id": 4, "method": "tasks/get", "params": {"taskId": "t1"}}),
            ],
        )
        .await;
        assert!(answers[0]["result"]["capabilities"].get("extensions").is_none(), "{}", answers[0]);
        // Called as any tool, though the client declared tasks.
        assert_eq!(answers[1]["result"]["content"][0]["text"], "exported", "{}", answers[1]);
        assert!(answers[1]["result"].get("task").is_none());
        let refused = &answers[2]["error"];
        assert_eq!(refused["code"], -32603, "{}", answers[2]);
        let message = refused["message"].as_str().unwrap();
        assert!(message.contains("`archive` runs only as a task") && message.contains("`tasks` feature"), "{message}");
        assert_eq!(answers[3]["error"]["code"], -32601, "{}", answers[3]);
        assert!(answers[3]["error"]["message"].as_str().unwrap().contains("`tasks` feature"));
    }

    #[tokio::test]
    async fn without_the_feature_a_2026_07_28_client_gets_no_task_either() {
        let toolbox = Toolbox::new()
            .tool(Export(ToolSpec::new::<()>("export").with_task(TaskSupport::Optional)))
            .tool(Export(ToolSpec::new::<()>("archive").with_task(TaskSupport::Required)));
        let meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": { "extensions": { "io.modelcontextprotocol/tasks": {} } },
            "io.modelcontextprotocol/clientInfo": { "name": "test", "version": "1" },
        });
        let answers = answers(
            toolbox,
            &[
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                    "params": {"name": "export", "arguments": {}, "_meta": meta}}),
                json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                    "params": {"name": "archive", "arguments": {}, "_meta": meta}}),
                json!({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen",
                    "params": {"notifications": {"taskIds": ["t1"]}, "_meta": meta}}),
            ],
        )
        .await;
        assert_eq!(answers[0]["result"]["content"][0]["text"], "exported", "{}", answers[0]);
        assert_eq!(answers[1]["error"]["code"], -32603, "{}", answers[1]);
        let listen = &answers[2]["error"];
        assert_eq!(listen["code"], -32602, "{}", answers[2]);
        assert!(listen["message"].as_str().unwrap().contains("`notifications.taskIds`"), "{listen}");
    }
}
