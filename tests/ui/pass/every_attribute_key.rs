//! Every key `#[tool(...)]` takes, and what each puts in the definition.
use codeagent::prelude::*;
use serde_json::json;

/// Ignored: `description` wins over the doc comment.
#[tool(
    name = "files.delete-v2",
    title = "Delete a file",
    description = "Deletes the file at `path`.",
    read_only = false,
    destructive,
    idempotent = true,
    open_world = false,
    icons = ["https://example.com/delete.png", "data:image/png;base64,AAAA"],
    meta(owner = "storage", "com.example/weight" = 3, ratio = -0.5, beta = true),
    scopes = ["files:write", "files:delete"],
    allow_unknown_arguments
)]
fn delete(
    /// The path of the file to delete.
    path: String,
) -> String {
    format!("deleted {path}")
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().tool(delete);
    assert_eq!(toolbox.tools().names(), ["files.delete-v2"]);
    let definition = toolbox.tools().definition("files.delete-v2").unwrap();
    assert_eq!(definition.title.as_deref(), Some("Delete a file"));
    assert_eq!(definition.description.as_deref(), Some("Deletes the file at `path`."));
    let annotations = definition.annotations.unwrap();
    assert_eq!(annotations.read_only_hint, Some(false));
    assert_eq!(annotations.destructive_hint, Some(true));
    assert_eq!(annotations.idempotent_hint, Some(true));
    assert_eq!(annotations.open_world_hint, Some(false));
    let icons: Vec<_> = definition.icons.unwrap().into_iter().map(|icon| icon.src).collect();
    assert_eq!(icons, ["https://example.com/delete.png", "data:image/png;base64,AAAA"]);
    assert_eq!(
        serde_json::Value::Object(definition.meta.unwrap()),
        json!({"owner": "storage", "com.example/weight": 3, "ratio": -0.5, "beta": true})
    );
    assert!(definition.input_schema.get("additionalProperties").is_none());
    let tool = toolbox.tools().find("files.delete-v2").unwrap();
    assert_eq!(tool.spec().scopes(), ["files:write", "files:delete"]);
    let result = toolbox.tools().call("files.delete-v2", json!({"path": "a.txt", "force": true})).await.unwrap();
    assert_eq!((result.value(), result.is_error()), ("deleted a.txt", false));
}
