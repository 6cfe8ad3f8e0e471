//! A fixed-URI resource: listed with its keys, read, and still a function.
use codeagent::mcp::ResourceContents;
use codeagent::prelude::*;

/// The notes.
#[resource(uri = "file:///notes.txt", title = "Notes", mime_type = "text/plain", size = 5, icons = ["https://example.invalid/n.png"])]
fn notes() -> String {
    "hello".to_owned()
}

#[tokio::main]
async fn main() {
    assert_eq!(notes(), "hello");
    let toolbox = Toolbox::new().resource(notes);
    assert_eq!(toolbox.resources().specs()[0].uri(), Some("file:///notes.txt"));
    let contents = toolbox.resources().read("file:///notes.txt").await.unwrap();
    assert!(matches!(&contents[0], ResourceContents::Text { text, .. } if text == "hello"));
}
