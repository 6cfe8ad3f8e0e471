//! `Result<T, std::io::Error>`: any `std::error::Error` lowers into an error result.
use codeagent::prelude::*;
use serde_json::json;

/// Read a file.
#[tool(read_only)]
async fn read(
    /// The path of the file to read.
    path: String,
) -> Result<String, std::io::Error> {
    std::fs::read_to_string(path)
}

#[tokio::main]
async fn main() {
    assert!(read("/definitely/not/here".to_owned()).await.is_err());
    let toolbox = Toolbox::new().tool(read);
    let result = toolbox.tools().call("read", json!({"path": "/definitely/not/here"})).await.unwrap();
    assert!(result.is_error());
    assert!(result.value().contains("No such file"), "{}", result.value());
}
